import { formatDateTime } from './admin-model';

/**
 * The Registro attività's entries made readable (issue 23): an entry's `before`/`after` (the
 * thing as the API showed it) as the fields that changed, each "prima → dopo", in Italian.
 */

/** The fields the admin changes write, as the staff call them; any other shows its own name. */
const FIELD_LABELS: Record<string, string> = {
  id: 'ID',
  nome: 'Nome',
  cognome: 'Cognome',
  email: 'Email',
  ruolo: 'Ruolo',
  isResidente: 'Residente',
  siglaResidente: 'Sigla residente',
  sigla: 'Sigla',
  attiva: 'Account attivo',
  createdAt: 'Creato il',
  updatedAt: 'Ultima modifica',
  sospesoFino: 'Sospeso fino al',
  numero: 'Numero',
  modello: 'Modello',
  stato: 'Stato',
  futureBookings: 'Prenotazioni future',
  userId: 'Utente',
  biciId: 'Bicicletta',
  dataPrenotazione: 'Data',
  orarioInizio: 'Inizio',
  orarioFine: 'Fine',
  destinazione: 'Destinazione',
  paymentStatus: 'Pagamento',
  refunded: 'Rimborsata',
  deletedBookings: 'Prenotazioni eliminate',
  refundedPayments: 'Pagamenti rimborsati',
  imported: 'Importati',
  skipped: 'Saltati',
  userIds: 'Utenti creati',
  risoltaAt: 'Risolta il',
  riconsegnataAt: 'Riconsegnata il',
  dal: 'Dal',
  al: 'Al',
  motivo: 'Motivo',
  cancellate: 'Prenotazioni cancellate',
};

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** One value as a person reads it: Sì/No, instants on the college's clock, lists joined, "—" for nothing. */
export function formatAuditValue(value: unknown, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return ISO_INSTANT.test(value) ? formatDateTime(value, timeZone) : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    return value.every((v) => v === null || typeof v !== 'object') ? value.map((v) => formatAuditValue(v, timeZone)).join(', ') : JSON.stringify(value);
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
export function auditChanges(before: unknown, after: unknown, timeZone: string): FieldChange[] {
  const fmt = (v: unknown) => formatAuditValue(v, timeZone);
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;
  if (!hasBefore && !hasAfter) return [];
  if ((hasBefore && !isRecord(before)) || (hasAfter && !isRecord(after))) {
    return same(before, after) ? [] : [{ field: '', label: 'Valore', before: fmt(before), after: fmt(after) }];
  }
  const b = (hasBefore ? before : {}) as Record<string, unknown>;
  const a = (hasAfter ? after : {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => !(hasBefore && hasAfter) || !same(b[field], a[field]))
    .map((field) => ({ field, label: fieldLabel(field), before: fmt(b[field]), after: fmt(a[field]) }));
}
