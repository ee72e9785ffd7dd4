import { DEFAULT_END_TIME, DEFAULT_START_TIME } from '../../../shared/constants';
import { render } from '../../../shared/i18n';
import { closureSentence, hoursSentence, italianDate, italianDuration, tooLongText, tooShortNoticeText, weekdayIndex } from '../../../shared/rules-text';
import type { PublicRulesDto } from '../../../shared/schemas/rules';
import { addDays, DATE_PATTERN, isRealDate, TIME_PATTERN, toHhmm, toMinutes, zonedClock, zonedInstant, zonedToday } from '../../../shared/time';
import type { Translate } from '../../../shared/i18n';
import { t as appT } from '../../lib/i18n';
import type { BookingFormErrors, BookingFormValues } from './dashboard-model';

/*
 * The service's rules (issue 20) as the booking form applies them before asking the server:
 * the day's hours, closures, the maximum duration, the minimum notice and the horizon. The
 * sentences are the server's own (shared/rules-text.ts), so a refusal reads the same whichever
 * side says it; the server stays the authority. Loaded with the form (rules-text brings zod).
 */

/** What the form needs of the rules: GET /api/regole, or the admin's rules and closures. */
export type FormRules = Pick<PublicRulesDto, 'orari' | 'chiusure' | 'durataMassimaMinuti' | 'preavvisoMinimoMinuti' | 'orizzonteGiorni'> &
  Partial<Pick<PublicRulesDto, 'prenotazioniSettimanaliMax'>>;

export type DayStatus =
  | { kind: 'open'; apertura: string; chiusura: string }
  /** Closed that weekday; `sentence` is the refusal (`La domenica il servizio è chiuso`). */
  | { kind: 'closed'; sentence: string }
  /** Inside a closure. */
  | { kind: 'closure'; motivo: string; dal: string; al: string; sentence: string };

/** A day's hours, or why nothing can be booked on it; null for a date that is not one. */
export function dayStatus(rules: Pick<FormRules, 'orari' | 'chiusure'>, date: string): DayStatus | null {
  if (!isRealDate(date)) return null;
  const closure = rules.chiusure.find((c) => c.dal <= date && date <= c.al);
  if (closure) return { kind: 'closure', motivo: closure.motivo, dal: closure.dal, al: closure.al, sentence: closureSentence(closure, appT) };
  const hours = rules.orari[weekdayIndex(date)] ?? null;
  return hours ? { kind: 'open', ...hours } : { kind: 'closed', sentence: hoursSentence(date, null, appT) };
}

/** `Orari del giorno: 07:00–23:00`, `Chiuso` or `Chiuso: Chiusura natalizia (dal 24/12/2026 al 06/01/2027)`. */
export function dayHoursText(status: DayStatus, t: Translate = appT): string {
  switch (status.kind) {
    case 'open':
      return t('bookingRules.dayHours', { apertura: status.apertura, chiusura: status.chiusura });
    case 'closed':
      return t('bookingRules.closed');
    case 'closure':
      return status.dal === status.al
        ? t('bookingRules.closedFor', { motivo: status.motivo })
        : t('bookingRules.closedFromTo', { motivo: status.motivo, dal: italianDate(status.dal), al: italianDate(status.al) });
  }
}

/** `Al massimo 3 prenotazioni in 7 giorni`, or null when the limit is off or unknown (the server counts). */
export function weeklyLimitText(rules: { prenotazioniSettimanaliMax?: number | null }, t: Translate = appT): string | null {
  const max = rules.prenotazioniSettimanaliMax;
  if (max === null || max === undefined) return null;
  return t('bookingRules.weeklyLimit', { max });
}

/** `Durata massima: 3 ore`, or null when the limit is off. */
export function maxDurationText(rules: Pick<FormRules, 'durataMassimaMinuti'>, t: Translate = appT): string | null {
  return rules.durataMassimaMinuti === null ? null : t('bookingRules.maxDuration', { durata: italianDuration(rules.durataMassimaMinuti, t) });
}

interface At {
  now: Date;
  timeZone: string;
  /** Apply the fair-use limits (horizon, duration, notice); false for an admin booking for a user. */
  limits?: boolean;
}

/**
 * The rules a window breaks, by field, in the server's order and words: the horizon and a
 * closure or closed day (on the date), then the hours (the start or the end outside them),
 * the maximum duration (on the end) and the minimum notice (on the start). A window not yet
 * complete or well formed breaks none here: the schema's messages say what is missing.
 */
export function ruleErrors(
  rules: FormRules,
  w: Pick<BookingFormValues, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine'>,
  { now, timeZone, limits = true }: At,
  t: Translate = appT,
): BookingFormErrors {
  if (!isRealDate(w.dataPrenotazione)) return {};
  const today = zonedToday(now, timeZone);
  if (limits && rules.orizzonteGiorni !== null && w.dataPrenotazione > addDays(today, rules.orizzonteGiorni)) {
    return { dataPrenotazione: t('bookingRules.horizon', { giorni: rules.orizzonteGiorni }) };
  }
  const status = dayStatus(rules, w.dataPrenotazione)!;
  if (status.kind !== 'open') return { dataPrenotazione: status.sentence };
  if (!TIME_PATTERN.test(w.orarioInizio) || !TIME_PATTERN.test(w.orarioFine) || w.orarioFine <= w.orarioInizio) return {};

  const errors: BookingFormErrors = {};
  const outside = hoursSentence(w.dataPrenotazione, status, t);
  if (w.orarioInizio < status.apertura) errors.orarioInizio = outside;
  if (w.orarioFine > status.chiusura) errors.orarioFine = outside;
  if (!limits) return errors;
  const inizio = zonedInstant(w.dataPrenotazione, w.orarioInizio, timeZone);
  const fine = zonedInstant(w.dataPrenotazione, w.orarioFine, timeZone);
  if (!inizio || !fine) return errors;
  if (rules.durataMassimaMinuti !== null && fine.getTime() - inizio.getTime() > rules.durataMassimaMinuti * 60_000) {
    errors.orarioFine ??= render(t, tooLongText(rules.durataMassimaMinuti));
  }
  // A start already past is the server's to refuse (with its grace): only a future start lacks notice.
  const ahead = inizio.getTime() - now.getTime();
  if (rules.preavvisoMinimoMinuti !== null && ahead > 0 && ahead < rules.preavvisoMinimoMinuti * 60_000) {
    errors.orarioInizio ??= render(t, tooShortNoticeText(rules.preavvisoMinimoMinuti));
  }
  return errors;
}

/** The last date the form offers (`max` of the date input); undefined without a horizon. */
export function lastBookableDate(rules: Pick<FormRules, 'orizzonteGiorni'>, today: string): string | undefined {
  return rules.orizzonteGiorni === null ? undefined : addDays(today, rules.orizzonteGiorni);
}

/** How far ahead the defaults look for an open day when there is no horizon. */
const SEARCH_DAYS = 60;

/**
 * The form's first window made possible: from `base` (spec §4's defaults), the first day
 * within the horizon that is open, with the start moved into the hours and past the notice
 * (to a quarter of an hour), and the end kept within the hours and the maximum duration.
 * `base` itself when no day in reach allows a window of at least 15 minutes.
 */
export function fitWindow(base: BookingFormValues, rules: FormRules, { now, timeZone }: At): BookingFormValues {
  if (!DATE_PATTERN.test(base.dataPrenotazione)) return base;
  const today = zonedToday(now, timeZone);
  const last = lastBookableDate(rules, today) ?? addDays(today, SEARCH_DAYS);
  // The earliest start the notice allows, as a wall date and time.
  const earliest = new Date(now.getTime() + ((rules.preavvisoMinimoMinuti ?? 0) + 1) * 60_000);
  const earliestDay = zonedToday(earliest, timeZone);
  const earliestMinute = toMinutes(zonedClock(earliest, timeZone));

  for (let date = base.dataPrenotazione; date <= last; date = addDays(date, 1)) {
    const status = dayStatus(rules, date);
    if (!status || status.kind !== 'open' || date < earliestDay) continue;
    const isBaseDay = date === base.dataPrenotazione;
    const open = toMinutes(status.apertura);
    const close = toMinutes(status.chiusura);
    let start = Math.max(toMinutes(isBaseDay ? base.orarioInizio : DEFAULT_START_TIME), open);
    if (date === earliestDay) start = Math.max(start, Math.ceil(earliestMinute / 15) * 15);
    const longest = rules.durataMassimaMinuti ?? Number.POSITIVE_INFINITY;
    let end = Math.min(toMinutes(isBaseDay ? base.orarioFine : DEFAULT_END_TIME), close, start + longest);
    if (end <= start) end = Math.min(start + 60, close, start + longest);
    if (end - start < 15) continue;
    return { ...base, dataPrenotazione: date, orarioInizio: toHhmm(start), orarioFine: toHhmm(end) };
  }
  return base;
}
