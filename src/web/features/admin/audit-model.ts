import type { MessageKey, Translate } from '../../../shared/i18n';
import { formatDateTime } from './admin-model';

/**
 * The Registro attività's entries made readable (issue 23): an entry's `before`/`after` (the
 * thing as the API showed it) as the fields that changed, each "prima → dopo", in the
 * language of the translator it is given.
 */

/** The fields the admin changes write, as the staff call them (catalogue keys); any other shows its own name. */
const FIELD_LABELS = {
  id: 'auditModel.field.id',
  nome: 'auditModel.field.nome',
  cognome: 'auditModel.field.cognome',
  email: 'auditModel.field.email',
  ruolo: 'auditModel.field.ruolo',
  isResidente: 'auditModel.field.isResidente',
  siglaResidente: 'auditModel.field.siglaResidente',
  sigla: 'auditModel.field.sigla',
  attiva: 'auditModel.field.attiva',
  createdAt: 'auditModel.field.createdAt',
  updatedAt: 'auditModel.field.updatedAt',
  sospesoFino: 'auditModel.field.sospesoFino',
  numero: 'auditModel.field.numero',
  modello: 'auditModel.field.modello',
  stato: 'auditModel.field.stato',
  futureBookings: 'auditModel.field.futureBookings',
  userId: 'auditModel.field.userId',
  biciId: 'auditModel.field.biciId',
  dataPrenotazione: 'auditModel.field.dataPrenotazione',
  orarioInizio: 'auditModel.field.orarioInizio',
  orarioFine: 'auditModel.field.orarioFine',
  destinazione: 'auditModel.field.destinazione',
  paymentStatus: 'auditModel.field.paymentStatus',
  refunded: 'auditModel.field.refunded',
  deletedBookings: 'auditModel.field.deletedBookings',
  refundedPayments: 'auditModel.field.refundedPayments',
  imported: 'auditModel.field.imported',
  skipped: 'auditModel.field.skipped',
  userIds: 'auditModel.field.userIds',
  risoltaAt: 'auditModel.field.risoltaAt',
  riconsegnataAt: 'auditModel.field.riconsegnataAt',
  dal: 'auditModel.field.dal',
  al: 'auditModel.field.al',
  motivo: 'auditModel.field.motivo',
  cancellate: 'auditModel.field.cancellate',
} as const satisfies Record<string, MessageKey>;

export function fieldLabel(field: string, t: Translate): string {
  return Object.hasOwn(FIELD_LABELS, field) ? t(FIELD_LABELS[field as keyof typeof FIELD_LABELS]) : field;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** One value as a person reads it: Sì/No, instants on the college's clock, lists joined, "—" for nothing. */
export function formatAuditValue(value: unknown, timeZone: string, t: Translate): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('auditModel.yes') : t('auditModel.no');
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return ISO_INSTANT.test(value) ? formatDateTime(value, timeZone) : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    return value.every((v) => v === null || typeof v !== 'object') ? value.map((v) => formatAuditValue(v, timeZone, t)).join(', ') : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

export interface FieldChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Equal as JSON; a field missing on one side and null on the other is no change. */
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields an entry shows: for a change, those whose value differs; for a creation (no
 * `before`) or a removal (no `after`), every field, the missing side "—". A value that is not
 * an object (none the app writes today) is one line, `Valore`.
 */
export function auditChanges(before: unknown, after: unknown, timeZone: string, t: Translate): FieldChange[] {
  const fmt = (v: unknown) => formatAuditValue(v, timeZone, t);
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;
  if (!hasBefore && !hasAfter) return [];
  if ((hasBefore && !isRecord(before)) || (hasAfter && !isRecord(after))) {
    return same(before, after) ? [] : [{ field: '', label: t('auditModel.value'), before: fmt(before), after: fmt(after) }];
  }
  const b = (hasBefore ? before : {}) as Record<string, unknown>;
  const a = (hasAfter ? after : {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => !(hasBefore && hasAfter) || !same(b[field], a[field]))
    .map((field) => ({ field, label: fieldLabel(field, t), before: fmt(b[field]), after: fmt(a[field]) }));
}
