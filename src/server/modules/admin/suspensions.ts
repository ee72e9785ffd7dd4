import type { AdminUserDto } from '../../../shared/schemas/admin.js';
import { runTransaction } from '../../db/transaction.js';
import { notFound } from '../../http/errors.js';
import { loadRules, suspensionOf } from '../rules/index.js';
import { recordSuspensionLifted, toPublicUser } from '../users/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { testo } from '../../../shared/i18n/index.js';

/** POST /api/admin/users/:id/revoca-sospensione — the no-shows so far no longer count; audited. */
export async function liftSuspension(deps: AdminDeps, actor: Actor, id: number): Promise<AdminUserDto> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const rules = await loadRules(tx);
    const before = await suspensionOf(tx, id, rules, now);
    const row = await recordSuspensionLifted(tx, id, now);
    if (!row) throw notFound(testo('admin.userNotFound'), 'USER_NOT_FOUND');
    await writeAudit(tx, actor, { action: 'suspension.lift', entity: 'user', entityId: id, before: { sospesoFino: before?.fino ?? null }, after: { sospesoFino: null } }, now);
    return { ...toPublicUser(row), sospesoFino: null };
  });
}
