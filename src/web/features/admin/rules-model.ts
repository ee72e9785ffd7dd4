import type { AdminUserDto } from '../../../shared/schemas/admin';
import {
  closureRequestSchema,
  maintenanceRequestSchema,
  rulesUpdateSchema,
  WEEKDAYS,
  type AffectedBookingDto,
  type ClosureRequest,
  type MaintenanceRequest,
  type RulesUpdate,
} from '../../../shared/schemas/rules';
import { RETENTION_MONTHS_DEFAULT } from '../../../shared/constants';
import type { Translate } from '../../../shared/i18n';
import { tShared } from '../../../shared/i18n/current';
import { italianDate } from '../../../shared/rules-text';
import { addDays, toHhmm, toMinutes, zonedClock, zonedToday } from '../../../shared/time';
import type { z } from '../../../shared/zod-it';
import { closureToast, maintenanceSummary, plural, userName } from './admin-notices';

/*
 * /admin → Regole, planned maintenance and the desk booking (issue 20): the pure part of
 * the screens, checked with the schemas the server uses (zod already comes with the admin chunk).
 */

export { WEEKDAYS };
// The toasts' sentences live apart, without zod: admin/queries.ts (the first screen) needs them.
export { closureToast, maintenanceSummary, plural, userName };

// ---------------------------------------------------------------------------------------
// The rules form

export interface DayForm {
  chiuso: boolean;
  apertura: string;
  chiusura: string;
}

export interface LimitForm {
  attivo: boolean;
  valore: string;
}

export type LimitKey =
  | 'durataMassimaMinuti'
  | 'prenotazioniSettimanaliMax'
  | 'preavvisoMinimoMinuti'
  | 'orizzonteGiorni'
  | 'attesaPagamentoMinuti'
  | 'mancatoRitiroMinuti';

export interface SuspensionForm {
  attiva: boolean;
  soglia: string;
  finestraGiorni: string;
  giorni: string;
}

export interface RulesForm {
  orari: DayForm[];
  limiti: Record<LimitKey, LimitForm>;
  /** How long a waitlist's offer holds its bike (issue 21): always on. */
  offertaMinuti: string;
  /** Months after which bookings, damage reports and notices are anonymised (issue 23): always on. */
  conservazioneMesi: string;
  sospensione: SuspensionForm;
}

/**
 * The limits in the order the screen shows them; `off` says what happens when one is switched
 * off. `label` and `off` are catalogue keys, put into the reader's language where they are shown.
 */
export const LIMITS: readonly {
  key: LimitKey;
  label: `rulesModel.limitLabel.${LimitKey}`;
  max: number;
  fallback: number;
  off: `rulesModel.limitOff.${LimitKey}`;
}[] = [
  {
    key: 'durataMassimaMinuti',
    label: 'rulesModel.limitLabel.durataMassimaMinuti',
    max: 1440,
    fallback: 180,
    off: 'rulesModel.limitOff.durataMassimaMinuti',
  },
  {
    key: 'prenotazioniSettimanaliMax',
    label: 'rulesModel.limitLabel.prenotazioniSettimanaliMax',
    max: 100,
    fallback: 5,
    off: 'rulesModel.limitOff.prenotazioniSettimanaliMax',
  },
  {
    key: 'preavvisoMinimoMinuti',
    label: 'rulesModel.limitLabel.preavvisoMinimoMinuti',
    max: 10080,
    fallback: 30,
    off: 'rulesModel.limitOff.preavvisoMinimoMinuti',
  },
  { key: 'orizzonteGiorni', label: 'rulesModel.limitLabel.orizzonteGiorni', max: 365, fallback: 30, off: 'rulesModel.limitOff.orizzonteGiorni' },
  {
    key: 'attesaPagamentoMinuti',
    label: 'rulesModel.limitLabel.attesaPagamentoMinuti',
    max: 1440,
    fallback: 15,
    off: 'rulesModel.limitOff.attesaPagamentoMinuti',
  },
  {
    key: 'mancatoRitiroMinuti',
    label: 'rulesModel.limitLabel.mancatoRitiroMinuti',
    max: 1440,
    fallback: 30,
    off: 'rulesModel.limitOff.mancatoRitiroMinuti',
  },
];

/** Issue 20's defaults for a suspension switched on for the first time. */
export const DEFAULT_SUSPENSION = { soglia: 3, finestraGiorni: 30, giorni: 7 } as const;
/** The hours a closed day shows (greyed) and gets back when it is opened again. */
const DEFAULT_DAY = { apertura: '07:00', chiusura: '23:00' } as const;

export function rulesToForm(rules: RulesUpdate): RulesForm {
  const limiti = Object.fromEntries(
    LIMITS.map(({ key, fallback }) => {
      const value = rules[key];
      return [key, { attivo: value !== null, valore: String(value ?? fallback) }];
    }),
  ) as Record<LimitKey, LimitForm>;
  const s = rules.sospensione;
  return {
    orari: rules.orari.map((h) => (h ? { chiuso: false, ...h } : { chiuso: true, ...DEFAULT_DAY })),
    limiti,
    offertaMinuti: String(rules.offertaMinuti),
    conservazioneMesi: String(rules.conservazioneMesi ?? RETENTION_MONTHS_DEFAULT),
    sospensione: {
      attiva: s !== null,
      soglia: String(s?.soglia ?? DEFAULT_SUSPENSION.soglia),
      finestraGiorni: String(s?.finestraGiorni ?? DEFAULT_SUSPENSION.finestraGiorni),
      giorni: String(s?.giorni ?? DEFAULT_SUSPENSION.giorni),
    },
  };
}

/** The suspension in one sentence, as the form reads now (a field being typed keeps the default). */
export function suspensionRuleText(s: SuspensionForm, t: Translate): string {
  if (!s.attiva) return t('rulesModel.suspensionOff');
  const n = (value: string, fallback: number) => (/^\d+$/.test(value.trim()) && Number(value) > 0 ? Number(value) : fallback);
  const soglia = n(s.soglia, DEFAULT_SUSPENSION.soglia);
  const finestra = n(s.finestraGiorni, DEFAULT_SUSPENSION.finestraGiorni);
  const giorni = n(s.giorni, DEFAULT_SUSPENSION.giorni);
  return t('rulesModel.suspensionRule', { soglia, finestra, giorni });
}

/** Field keys as the server names them in a 400's `fields`: `orari.0.chiusura`, `sospensione.soglia`. */
export type RulesFormErrors = Record<string, string>;

/** Every field of the form, in the order they are shown (the first with an error gets the focus). */
export const RULES_FIELD_ORDER: readonly string[] = [
  ...WEEKDAYS.flatMap((_, i) => [`orari.${i}.apertura`, `orari.${i}.chiusura`]),
  ...LIMITS.map((l) => l.key),
  'offertaMinuti',
  'conservazioneMesi',
  'sospensione.soglia',
  'sospensione.finestraGiorni',
  'sospensione.giorni',
];

/** The DOM id of a field of the rules form. */
export const rulesFieldId = (key: string) => `regole-${key.replaceAll('.', '-')}`;

/** `''` is no number (NaN), so the schema's own message names the allowed range. */
const toNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

export type RulesFormResult = { ok: true; rules: RulesUpdate } | { ok: false; errors: RulesFormErrors; first: string };

/** The form as the body of PUT /api/admin/regole, checked with the server's schema. */
export function formToRules(form: RulesForm, t: Translate): RulesFormResult {
  const s = form.sospensione;
  const candidate = {
    orari: form.orari.map((d) => (d.chiuso ? null : { apertura: d.apertura, chiusura: d.chiusura })),
    ...(Object.fromEntries(LIMITS.map(({ key }) => [key, form.limiti[key].attivo ? toNumber(form.limiti[key].valore) : null])) as Record<
      LimitKey,
      number | null
    >),
    offertaMinuti: toNumber(form.offertaMinuti),
    conservazioneMesi: toNumber(form.conservazioneMesi),
    sospensione: s.attiva ? { soglia: toNumber(s.soglia), finestraGiorni: toNumber(s.finestraGiorni), giorni: toNumber(s.giorni) } : null,
  };
  const parsed = rulesUpdateSchema.safeParse(candidate);
  const errors: RulesFormErrors = {};
  if (s.attiva) {
    for (const key of ['soglia', 'finestraGiorni', 'giorni'] as const) {
      if (s[key].trim() === '') errors[`sospensione.${key}`] = t('rulesModel.numberRequired');
    }
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, rules: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors, first: firstErrorField(errors) };
}

/** The first field, in screen order, that has an error (or the first key when none is a field). */
export function firstErrorField(errors: RulesFormErrors): string {
  return RULES_FIELD_ORDER.find((k) => errors[k] !== undefined) ?? Object.keys(errors)[0] ?? '_';
}

/** The errors that belong to no field of the form (shown above the save button). */
export function generalErrors(errors: RulesFormErrors): string[] {
  return Object.entries(errors)
    .filter(([key]) => !RULES_FIELD_ORDER.includes(key))
    .map(([, message]) => message);
}

// ---------------------------------------------------------------------------------------
// Closures and maintenance

/** `24/12/2026 – 06/01/2027`, or one day. */
export function closureRange(c: { dal: string; al: string }): string {
  return c.dal === c.al ? italianDate(c.dal) : `${italianDate(c.dal)} – ${italianDate(c.al)}`;
}

/** `dal 24/12/2026 al 06/01/2027`, or `il 08/12/2026`: a closure in a sentence. */
export function closurePeriod(c: { dal: string; al: string }, t: Translate): string {
  return c.dal === c.al ? t('rulesModel.periodDay', { day: italianDate(c.dal) }) : t('rulesModel.periodRange', { dal: italianDate(c.dal), al: italianDate(c.al) });
}

/** `2026-11-23T08:00` (a wall time in TZ_APP) → `23/11/2026 08:00`. */
export function formatLocalDateTime(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? `${italianDate(value.slice(0, 10))} ${value.slice(11, 16)}` : value;
}

/** `Lunedì 23/11/2026, 10:00–11:00`: when a booking touched by a closure or a maintenance is. */
export function affectedWhen(b: Pick<AffectedBookingDto, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine'>): string {
  return `${italianDate(b.dataPrenotazione)}, ${b.orarioInizio}–${b.orarioFine}`;
}

type FieldErrors<K extends string> = Partial<Record<K, string>>;
type Checked<T, K extends string> = { ok: true; request: T } | { ok: false; errors: FieldErrors<K> };

function check<T, K extends string>(schema: z.ZodType<T>, value: unknown): Checked<T, K> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: FieldErrors<K> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'motivo') as K;
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

export type ClosureField = 'dal' | 'al' | 'motivo';
export const validateClosure = (v: ClosureRequest) => check<ClosureRequest, ClosureField>(closureRequestSchema, v);

export type MaintenanceField = 'dal' | 'al' | 'motivo';
export const validateMaintenance = (v: MaintenanceRequest) => check<MaintenanceRequest, MaintenanceField>(maintenanceRequestSchema, v);

/** What the confirmation of a closure says: which days, why, how many bookings it cancels and refunds. */
export function closurePreviewText(c: ClosureRequest, cancelled: number, paid: number, t: Translate): string {
  const period = closurePeriod(c, t);
  const refund = paid === 0 ? 'none' : paid === 1 ? (cancelled === 1 ? 'alreadyPaid' : 'one') : 'some';
  return t('rulesModel.closurePreview', {
    period: `${period.charAt(0).toUpperCase()}${period.slice(1)}`,
    motivo: c.motivo.trim(),
    cancelled,
    refund,
    paid,
  });
}

/** The maintenance dialog's first proposal: tomorrow, 08:00 to 18:00 on the college's clock. */
export function defaultMaintenance(now: Date, timeZone: string): MaintenanceRequest {
  const tomorrow = addDays(zonedToday(now, timeZone), 1);
  return { dal: `${tomorrow}T08:00`, al: `${tomorrow}T18:00`, motivo: '' };
}

// ---------------------------------------------------------------------------------------
// The desk booking and the users

/**
 * At the desk someone usually wants a bike now: today from the next quarter of an hour, for
 * an hour (at most until 23:59); late in the evening, tomorrow 08:00–09:00.
 */
export function deskDefaultWindow(now: Date, timeZone: string): { dataPrenotazione: string; orarioInizio: string; orarioFine: string } {
  const today = zonedToday(now, timeZone);
  const next = Math.ceil((toMinutes(zonedClock(now, timeZone)) + 1) / 15) * 15;
  if (next > 23 * 60) return { dataPrenotazione: addDays(today, 1), orarioInizio: '08:00', orarioFine: '09:00' };
  return { dataPrenotazione: today, orarioInizio: toHhmm(next), orarioFine: toHhmm(Math.min(23 * 60 + 59, next + 60)) };
}

/**
 * One search result of the desk booking: `residente@… · ELIS001 · Residente`. Without `t`, in
 * the app's language (`tShared` follows it in the browser).
 */
export function userChoiceDetail(u: Pick<AdminUserDto, 'email' | 'sigla' | 'isResidente'>, t: Translate = tShared): string {
  return [u.email, u.sigla, u.isResidente ? t('rulesModel.resident') : t('rulesModel.externalPaying')].filter(Boolean).join(' · ');
}
