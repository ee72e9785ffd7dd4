/**
 * The audit log's actions and what the staff call them (issue 23), apart from the schemas:
 * the Registro attività tab reads these without loading zod (`schemas` chunk, vite.config.ts).
 */

/** Every action `writeAudit` records (server/modules/audit/audit.ts `AuditAction`, kept equal by a type check there). */
export const AUDIT_ACTIONS = [
  'booking.delete',
  'booking.create_for_user',
  'booking.release',
  'user.update',
  'user.delete',
  'residents.import',
  'suspension.lift',
  'bike.create',
  'bike.update',
  'bike.lock',
  'damage.resolve',
  'maintenance.create',
  'maintenance.delete',
  'closure.create',
  'closure.delete',
  'rules.update',
  'two_factor.enable',
  'two_factor.disable',
  'rack.create',
  'rack.revoke',
  'booking.move',
  'booking.cancel_fleet',
] as const;
export type AuditActionKey = (typeof AUDIT_ACTIONS)[number];

/** What the staff read for each action (the API answers the keys). */
export const AUDIT_ACTION_LABELS: Record<AuditActionKey, string> = {
  'booking.delete': 'Prenotazione eliminata',
  'booking.create_for_user': 'Prenotazione creata per un utente',
  'booking.release': 'Riconsegna registrata',
  'user.update': 'Utente modificato',
  'user.delete': 'Utente eliminato',
  'residents.import': 'Residenti importati',
  'suspension.lift': 'Sospensione revocata',
  'bike.create': 'Bicicletta aggiunta',
  'bike.update': 'Stato bicicletta modificato',
  'bike.lock': 'Lucchetto modificato',
  'damage.resolve': 'Danno risolto',
  'maintenance.create': 'Manutenzione pianificata',
  'maintenance.delete': 'Manutenzione annullata',
  'closure.create': 'Chiusura aggiunta',
  'closure.delete': 'Chiusura eliminata',
  'rules.update': 'Regole modificate',
  'two_factor.enable': 'Verifica in due passaggi attivata',
  'two_factor.disable': 'Verifica in due passaggi disattivata',
  'rack.create': 'Link dello schermo della rastrelliera creato',
  'rack.revoke': 'Link dello schermo della rastrelliera revocato',
  'booking.move': 'Prenotazione spostata su un’altra bici',
  'booking.cancel_fleet': 'Prenotazione annullata: nessuna bici libera',
};

/** The kind of thing an entry is about (`audit_log.entity`). */
export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  booking: 'Prenotazione',
  user: 'Utente',
  bike: 'Bicicletta',
  damage: 'Danno',
  rules: 'Regole',
  closure: 'Chiusura',
  maintenance: 'Manutenzione',
  rack: 'Schermo della rastrelliera',
};

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/** "Utente #12", "Regole", "Utente" (an import names no single user). */
export function auditSubject(entity: string, entityId: string | null): string {
  const label = AUDIT_ENTITY_LABELS[entity] ?? entity;
  return entityId === null || entity === 'rules' ? label : `${label} #${entityId}`;
}
