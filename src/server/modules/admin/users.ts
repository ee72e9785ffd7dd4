import { and, eq, or } from 'drizzle-orm';
import type { AdminDeleteUserResponse, AdminUserDto, AdminUserUpdate } from '../../../shared/schemas/admin.js';
import { normaliseEmail } from '../../../shared/sigla.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { prenotazioni } from '../bookings/tables.js';
import { users } from '../users/tables.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { openSede } from '../sedi/index.js';
import { endAllSessionsOfUser, type SessionUser } from '../auth/index.js';
import { sessionUserColumns } from '../users/index.js';
import { deleteUserRow, replaceIncarichi, toPublicUser, updateUserAccount } from '../users/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import { bringLifecycleUpToDate, cancelBookings } from '../bookings/index.js';
import type { AdminDeps, Tx } from './deps.js';
import { runTransaction } from '../../db/transaction.js';
import { suspensionOf } from '../rules/index.js';
import { loadRules } from '../rules/index.js';
import { testo } from '../../../shared/i18n/index.js';
import type { Incarico } from '../../../shared/staff.js';

/**
 * Locks the target user and every active admin, in id order (so two admins editing never
 * deadlock), and returns the target. Under READ COMMITTED a concurrent demotion that
 * committed first is seen: its row no longer matches and drops out of the set, so the
 * "last active admin" check below is race-free.
 */
export async function lockUserAndAdmins(tx: Tx, id: number) {
  const rows = await tx
    .select(sessionUserColumns)
    .from(users)
    .where(or(eq(users.id, id), and(eq(users.ruolo, 'admin'), eq(users.attiva, true))))
    .orderBy(users.id)
    .for('update');
  const target = rows.find((r) => r.id === id);
  if (!target) throw notFound(testo('admin.userNotFound'), 'USER_NOT_FOUND');
  const activeAdmins = rows.filter((r) => r.ruolo === 'admin' && r.attiva).length;
  return { target, activeAdmins };
}

/** Every sede of a list of roles exists and is open (issue 48), else 400 in the person's language. */
async function checkIncarichiSedi(tx: Tx, list: readonly Incarico[]): Promise<void> {
  for (const sedeId of new Set(list.map((i) => i.sedeId))) {
    if (!(await openSede(tx, sedeId))) throw badRequest(testo('staffApi.sedeNotOpen'), 'SEDE_NOT_OPEN');
  }
}

/** The roles replaced, and the user read again with them. */
async function replaceAndReload(tx: Tx, id: number, list: readonly Incarico[], now: Date) {
  await replaceIncarichi(tx, id, list, now);
  const [row] = await tx.select(sessionUserColumns).from(users).where(eq(users.id, id));
  return row;
}

const isActiveAdmin = (u: Pick<SessionUser, 'ruolo' | 'attiva'>) => u.ruolo === 'admin' && u.attiva;

/**
 * PUT /api/admin/users/:id. The email stays unique case-insensitively (stored lower-case;
 * 409). The last active admin cannot be demoted or deactivated (409). Deactivating ends
 * every session of the user (their rows go; the NOTIFY triggers evict every process's
 * cache). Clearing `isResidente` makes the user external and frees their resident code
 * (`siglaResidente` null); setting it keeps whatever code they have.
 */
export async function updateUser(deps: AdminDeps, actor: Actor, id: number, input: AdminUserUpdate): Promise<AdminUserDto> {
  const now = deps.clock.now();
  try {
    const updated = await runTransaction(deps.db, async (tx) => {
      const { target, activeAdmins } = await lockUserAndAdmins(tx, id);
      const next = {
        nome: input.nome,
        cognome: input.cognome ?? '',
        email: normaliseEmail(input.email),
        ruolo: input.ruolo,
        isResidente: input.isResidente,
        siglaResidente: input.isResidente ? target.siglaResidente : null,
        attiva: input.attiva,
        sedeId: input.sedeId ?? target.sedeId,
      };
      // A new home sede must be open (issue 47); the one they have stays as it is.
      if (next.sedeId !== target.sedeId && !(await openSede(tx, next.sedeId))) {
        throw badRequest(testo('sediApi.userSedeClosed'), 'SEDE_NOT_OPEN');
      }
      if (isActiveAdmin(target) && !isActiveAdmin(next) && activeAdmins <= 1) {
        throw conflict(testo('admin.lastAdmin'), 'LAST_ADMIN');
      }
      if (input.incarichi) await checkIncarichiSedi(tx, input.incarichi);
      const updatedRow = await updateUserAccount(tx, id, next, now);
      // The roles (issue 48): the whole list replaced, read back as a session sees it.
      const row = input.incarichi ? await replaceAndReload(tx, id, input.incarichi, now) : updatedRow;
      if (!next.attiva) await endAllSessionsOfUser(tx, id);
      const rules = await loadRules(tx);
      const suspension = await suspensionOf(tx, id, rules, now);
      const after: AdminUserDto = { ...toPublicUser(row!), sospesoFino: suspension?.fino ?? null };
      await writeAudit(tx, actor, { action: 'user.update', entity: 'user', entityId: id, before: toPublicUser(target), after }, now);
      return after;
    });
    // This process forgets the user's cached sessions at once (role, name, access); others
    // hear the NOTIFY of the users trigger (drizzle/0001).
    deps.sessionCache?.evictUser(id);
    return updated;
  } catch (err) {
    if (!(err instanceof AppError) && pgErrorCode(err) === '23505' && pgConstraint(err) === 'users_email_unique') {
      throw conflict(testo('http.emailTaken'), 'EMAIL_TAKEN');
    }
    throw err;
  }
}

/**
 * DELETE /api/admin/users/:id: the user and all their bookings. Paid bookings not yet
 * started are refunded first (as the user's own cancel would; rides taken stay paid); a
 * failed refund is a 502 and nothing changes. Payment rows stay, detached (decision 015).
 * Not oneself, not the last active admin (409).
 */
export async function deleteUser(deps: AdminDeps, actor: Actor, id: number): Promise<AdminDeleteUserResponse> {
  if (id === actor.id) {
    // Checked before the lookup: the admin's own account exists anyway.
    throw conflict(testo('admin.deleteSelf'), 'DELETE_SELF');
  }
  await bringLifecycleUpToDate(deps);
  const now = deps.clock.now();
  const result = await runTransaction(deps.db, async (tx) => {
    const { target, activeAdmins } = await lockUserAndAdmins(tx, id);
    if (isActiveAdmin(target) && activeAdmins <= 1) throw conflict(testo('admin.lastAdmin'), 'LAST_ADMIN');
    const bookings = await tx
      .select({ id: prenotazioni.id, stato: prenotazioni.stato, inizio: prenotazioni.inizio })
      .from(prenotazioni)
      .where(eq(prenotazioni.userId, id))
      .orderBy(prenotazioni.id)
      .for('update');
    // Paid bookings not yet started are refunded, as the user's own cancel would; every row goes.
    const ids = bookings.map((b) => b.id);
    const refunded = await cancelBookings(deps, tx, ids, { reason: 'eliminazione', refund: 'before-start', now });
    const refundedPayments = refunded.size;
    await deleteUserRow(tx, id);
    await writeAudit(
      tx,
      actor,
      {
        action: 'user.delete',
        entity: 'user',
        entityId: id,
        before: toPublicUser(target),
        after: { deletedBookings: ids.length, refundedPayments },
      },
      now,
    );
    return { id, deletedBookings: ids.length, refundedPayments };
  });
  deps.sessionCache?.evictUser(id);
  return result;
}
