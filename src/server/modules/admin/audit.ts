import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

/** Who made an admin change: the logged-in admin (id and email, kept even if the account goes). */
export interface Actor {
  id: number;
  email: string;
}

export type AuditAction =
  | 'booking.delete'
  | 'user.update'
  | 'user.delete'
  | 'bike.update'
  | 'bike.create'
  | 'residents.import'
  | 'booking.release'
  | 'damage.resolve'
  | 'rules.update'
  | 'closure.create'
  | 'closure.delete'
  | 'maintenance.create'
  | 'maintenance.delete'
  | 'booking.create_for_user'
  | 'suspension.lift'
  | 'two_factor.enable'
  | 'two_factor.disable';

/** A database handle or a transaction. */
export type AuditTx = Pick<Db, 'insert'>;

/**
 * Writes one audit row (behaviour.md §8) in the caller's transaction, so the change and its
 * record commit or roll back together. `before`/`after` are API shapes: never a password hash.
 */
export async function writeAudit(
  tx: AuditTx,
  actor: Actor,
  entry: { action: AuditAction; entity: 'booking' | 'user' | 'bike' | 'damage' | 'rules' | 'closure' | 'maintenance'; entityId: number | null; before?: unknown; after?: unknown },
  now: Date,
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: now,
  });
}
