/*
 * The audit module's public face (issue 23's Registro attività; issue 31 gave it a module of its
 * own, below every module that audits a change). It owns `audit_log`: an entry is written in
 * the transaction of the change it records (writeAudit), and rewritten only by an erasure
 * (redactAuditEntries). The admin module reads it back for /admin.
 */
export { type Actor, type AuditAction, type AuditEntity, type AuditTx, SYSTEM_ACTOR, writeAudit } from './audit.js';
export { type AuditRedaction, redactAuditEntries } from './erasure.js';
