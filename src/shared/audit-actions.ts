import type { Translate } from './i18n/index.js';
import type { PlainKey } from './schemas/message.js';

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
  'sede.create',
  'sede.update',
  'sede.archive',
  'sede.reactivate',
  'booking.pickup_for_user',
  'booking.return_for_user',
  'ticket.update',
  'auth.login_passkey',
  'auth.login_oidc',
  'passkey.create',
  'passkey.delete',
  'passkey.second_factor',
  'college_account.link',
  'college_account.unlink',
] as const;
export type AuditActionKey = (typeof AUDIT_ACTIONS)[number];

/** What the staff read for each action (the API answers the keys): keys of the catalogue (admin/audit-actions.json). */
export const AUDIT_ACTION_LABELS: Record<AuditActionKey, PlainKey> = {
  'booking.delete': 'auditActions.bookingDelete',
  'booking.create_for_user': 'auditActions.bookingCreateForUser',
  'booking.release': 'auditActions.bookingRelease',
  'user.update': 'auditActions.userUpdate',
  'user.delete': 'auditActions.userDelete',
  'residents.import': 'auditActions.residentsImport',
  'suspension.lift': 'auditActions.suspensionLift',
  'bike.create': 'auditActions.bikeCreate',
  'bike.update': 'auditActions.bikeUpdate',
  'bike.lock': 'auditActions.bikeLock',
  'damage.resolve': 'auditActions.damageResolve',
  'maintenance.create': 'auditActions.maintenanceCreate',
  'maintenance.delete': 'auditActions.maintenanceDelete',
  'closure.create': 'auditActions.closureCreate',
  'closure.delete': 'auditActions.closureDelete',
  'rules.update': 'auditActions.rulesUpdate',
  'two_factor.enable': 'auditActions.twoFactorEnable',
  'two_factor.disable': 'auditActions.twoFactorDisable',
  'rack.create': 'auditActions.rackCreate',
  'rack.revoke': 'auditActions.rackRevoke',
  'booking.move': 'auditActions.bookingMove',
  'booking.cancel_fleet': 'auditActions.bookingCancelFleet',
  'sede.create': 'auditActions.sedeCreate',
  'sede.update': 'auditActions.sedeUpdate',
  'sede.archive': 'auditActions.sedeArchive',
  'sede.reactivate': 'auditActions.sedeReactivate',
  'booking.pickup_for_user': 'auditActions.bookingPickUpForUser',
  'booking.return_for_user': 'auditActions.bookingReturnForUser',
  'ticket.update': 'auditActions.ticketUpdate',
  'auth.login_passkey': 'auditActions.loginPasskey',
  'auth.login_oidc': 'auditActions.loginOidc',
  'passkey.create': 'auditActions.passkeyCreate',
  'passkey.delete': 'auditActions.passkeyDelete',
  'passkey.second_factor': 'auditActions.passkeySecondFactor',
  'college_account.link': 'auditActions.collegeAccountLink',
  'college_account.unlink': 'auditActions.collegeAccountUnlink',
};

/** The kind of thing an entry is about (`audit_log.entity`). */
export const AUDIT_ENTITY_LABELS: Record<string, PlainKey> = {
  booking: 'auditActions.entityBooking',
  user: 'auditActions.entityUser',
  bike: 'auditActions.entityBike',
  damage: 'auditActions.entityDamage',
  rules: 'auditActions.entityRules',
  closure: 'auditActions.entityClosure',
  maintenance: 'auditActions.entityMaintenance',
  rack: 'auditActions.entityRack',
  sede: 'auditActions.entitySede',
  ticket: 'auditActions.entityTicket',
};

/** An action's label in the language of `t`; an unknown action as it is. */
export function auditActionLabel(action: string, t: Translate): string {
  const key = (AUDIT_ACTION_LABELS as Record<string, PlainKey>)[action];
  return key ? t(key) : action;
}

/** A kind of thing in the language of `t`; an unknown one as it is. */
export function auditEntityLabel(entity: string, t: Translate): string {
  const key = AUDIT_ENTITY_LABELS[entity];
  return key ? t(key) : entity;
}

/** "Utente #12", "Regole", "Utente" (an import names no single user), in the language of `t`. */
export function auditSubject(entity: string, entityId: string | null, t: Translate): string {
  const label = auditEntityLabel(entity, t);
  return entityId === null || entity === 'rules' ? label : `${label} #${entityId}`;
}
