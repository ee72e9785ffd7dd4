import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.js';
import { users } from '../users/tables.js';
import { sedi } from '../sedi/tables.js';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    /** The role the actor acted in (issue 48): `admin`, `portineria` or `officina`; null for the service itself and the entries before. */
    actorRuolo: text('actor_ruolo'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /**
     * The subject as the staff know it, written with the entry (issue 31): `Bici 07`, a
     * person's name, `Bici 07 per Maria Rossi`; null for the rules, closures and imports. An
     * erased person's name becomes `[dato rimosso]` (privacy/audit-redact.ts).
     */
    soggetto: text('soggetto'),
    /** The sede of what was acted on (issue 47): the log's filter by sede; null for what is the install's. */
    sedeId: integer('sede_id').references(() => sedi.id, { onDelete: 'set null' }),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_entity_idx').on(t.entity, t.entityId),
    // The Registro attività's filters (issue 23): by admin, by action, each newest first. The
    // actor's index also serves `on delete set null` when an admin account is deleted.
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_action_idx').on(t.action, t.createdAt),
    index('audit_log_sede_idx').on(t.sedeId, t.createdAt),
  ],
);
