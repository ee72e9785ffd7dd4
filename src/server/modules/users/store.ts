/*
 * Every write to `users`, the table this module owns (issue 31): other modules call these
 * functions, inside their own transaction when they pass `tx`. Each function is the one
 * statement its caller ran before, unchanged (same rows, same locks, decision 023); the
 * checks, the audit entries and the emails stay with the caller.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { SessionUser } from '../../http/auth.js';
import { residenti } from '../residents/tables.js';
import { sedi } from '../sedi/tables.js';
import { sessionUserColumns } from './session-user.js';
import { incarichi, users } from './tables.js';
import type { Incarico } from '../../../shared/staff.js';

/** A database handle or a transaction: what the functions below need of either. */
export type UsersDb = Pick<Db, 'insert' | 'update' | 'delete'>;

/** The fields of a new account (registration). */
export interface NewUser {
  nome: string;
  cognome: string;
  email: string;
  /** Null: an account made by a college login (issue 49), which signs in without a password. */
  passwordHash: string | null;
  isResidente: boolean;
  siglaResidente: string | null;
  /** The language the person registered in (issue 36); Italian when not given. */
  lingua?: 'it' | 'en';
  /** The home sede (issue 47); absent: the first open sede (the table's trigger). */
  sedeId?: number;
}

/** Inserts an account with role `user`; returns it as a session sees it. */
export async function insertUser(db: UsersDb, input: NewUser, now: Date) {
  const [user] = await db
    .insert(users) // triggers: contatori_delta (the count of people)
    .values({ ...input, ruolo: 'user', createdAt: now, updatedAt: now })
    .returning(sessionUserColumns);
  return user!;
}

/**
 * Accounts of any role, as given: the demo's, an admin from ADMIN_EMAIL or the command line.
 * `skipTaken`: an email already used is passed over (else its unique violation is thrown).
 */
export async function insertAccounts(db: UsersDb, rows: (typeof users.$inferInsert)[], skipTaken = false) {
  const insert = db.insert(users).values(rows); // triggers: contatori_delta (the count of people)
  const columns = { id: users.id, email: users.email, residente: users.isResidente };
  return skipTaken ? insert.onConflictDoNothing().returning(columns) : insert.returning(columns);
}

/**
 * Every active resident code without an account (no user with that sigla, nor with its
 * email `<sigla lower-case>@domain`) becomes a resident user with this password hash and a
 * forced password change; one statement, a code taken meanwhile skipped (`on conflict do
 * nothing`). Returns how many were inserted, how many codes were candidates, and the new ids.
 */
export async function insertResidentAccounts(
  db: Pick<Db, 'execute'>,
  input: { passwordHash: string; domain: string; now: string },
): Promise<{ imported: number; total: number; ids: number[] | null }> {
  const { passwordHash, domain, now } = input;
  const res = await db.execute<{ imported: number; total: number; ids: number[] | null }>(sql`
      with candidates as (
        select r.sigla, r.nome, r.cognome, lower(r.sigla) || '@' || ${domain}::text as email,
               -- the code's sede when open (issue 47); null: the first open one (the users trigger)
               (select s.id from ${sedi} s where s.id = r.sede_id and s.archiviata_at is null) as sede_id
          from ${residenti} r
         where r.attivo
      ), inserted as (
        insert into ${users} (nome, cognome, email, password_hash, ruolo, is_residente, sigla_residente,
                              attiva, must_change_password, created_at, updated_at, sede_id)
        select c.nome, c.cognome, c.email, ${passwordHash}, 'user', true, c.sigla, true, true,
               ${now}::timestamptz, ${now}::timestamptz, c.sede_id
          from candidates c
         where not exists (select 1 from ${users} u where u.sigla_residente = c.sigla or u.email = c.email)
         order by c.sigla
        on conflict do nothing
        returning id
      )
      select (select count(*) from inserted)::int as imported,
             (select count(*) from candidates)::int as total,
             (select array_agg(id order by id) from inserted) as ids`);
  return res.rows[0]!;
}

/** The fields an admin edits (PUT /api/admin/users/:id). */
export type UserAccountFields = Pick<
  SessionUser,
  'nome' | 'cognome' | 'email' | 'ruolo' | 'isResidente' | 'siglaResidente' | 'attiva'
> & { sedeId?: number | undefined };

/** Writes an admin's edit of a user; returns the row as a session sees it (undefined: no such user). */
export async function updateUserAccount(db: UsersDb, id: number, fields: UserAccountFields, now: Date) {
  const [row] = await db
    .update(users) // triggers: NOTIFY bicielis_auth; deactivated: tempo_liberato, NOTIFY bicielis_tempo_liberato
    .set({ ...fields, updatedAt: now })
    .where(eq(users.id, id))
    .returning(sessionUserColumns);
  return row;
}

/**
 * Everyone whose home is the sede `from` gets the home `to` (issue 47: `from` is being
 * archived, in the same transaction). Returns how many people moved.
 */
export async function moveHomeSede(db: UsersDb, from: number, to: number, now: Date): Promise<number> {
  const rows = await db
    .update(users) // triggers: NOTIFY bicielis_auth (a session shows the home sede)
    .set({ sedeId: to, updatedAt: now })
    .where(eq(users.sedeId, from))
    .returning({ id: users.id });
  return rows.length;
}

/** Changes a user's name and/or surname (the profile); nothing else. */
export async function updateUserName(db: UsersDb, id: number, input: { nome?: string | undefined; cognome?: string | undefined }, now: Date): Promise<void> {
  await db
    .update(users) // triggers: NOTIFY bicielis_auth
    .set({
      ...(input.nome !== undefined ? { nome: input.nome } : {}),
      ...(input.cognome !== undefined ? { cognome: input.cognome } : {}),
      updatedAt: now,
    })
    .where(eq(users.id, id));
}

/** The account's language (issue 36): its answers, emails, notices and pages are in it. */
export async function updateUserLingua(db: UsersDb, id: number, lingua: 'it' | 'en', now: Date): Promise<void> {
  await db.update(users).set({ lingua, updatedAt: now }).where(eq(users.id, id));
}

/** The account's home sede (issue 47): where the booking form opens. */
export async function updateUserSede(db: UsersDb, id: number, sedeId: number, now: Date): Promise<void> {
  await db.update(users).set({ sedeId, updatedAt: now }).where(eq(users.id, id)); // triggers: NOTIFY bicielis_auth
}

/** Deletes a user's row (their bookings and payments are the caller's, before). */
export async function deleteUserRow(db: UsersDb, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id)); // triggers: contatori_delta, tempo_liberato, NOTIFY bicielis_tempo_liberato; its sessions' NOTIFY bicielis_auth
}

/** The no-shows so far stop counting; returns the row as a session sees it (undefined: no such user). */
export async function recordSuspensionLifted(db: UsersDb, id: number, now: Date) {
  const [row] = await db
    .update(users)
    .set({ sospensioneRevocataAt: now, updatedAt: now })
    .where(eq(users.id, id))
    .returning(sessionUserColumns);
  return row;
}

/** Stores a temporary password (hashed) valid until `expiresAt`; the current password keeps working. */
export async function setTemporaryPassword(db: UsersDb, id: number, temporaryHash: string, expiresAt: Date, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ tempPasswordHash: temporaryHash, tempPasswordExpiresAt: expiresAt, updatedAt: now })
    .where(eq(users.id, id));
}

/**
 * Sets a new password of an active user, clearing the temporary password and the forced
 * change; with `ifPasswordHash`, only while the password is still that one (of two changes
 * racing, one wins). True when the row was written.
 */
export async function replacePassword(
  db: UsersDb,
  id: number,
  passwordHash: string,
  now: Date,
  ifPasswordHash?: string,
): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ passwordHash, mustChangePassword: false, tempPasswordHash: null, tempPasswordExpiresAt: null, updatedAt: now })
    .where(
      ifPasswordHash === undefined
        ? and(eq(users.id, id), eq(users.attiva, true))
        : and(eq(users.id, id), eq(users.passwordHash, ifPasswordHash), eq(users.attiva, true)),
    )
    .returning({ id: users.id });
  return updated.length > 0;
}

/** A new second-factor secret (sealed), not active yet; its last step forgotten (decision 030). */
export async function storeTotpSecret(db: UsersDb, id: number, sealedSecret: string): Promise<void> {
  await db.update(users).set({ totpSegreto: sealedSecret, totpUltimoPasso: null }).where(eq(users.id, id));
}

/**
 * Records the time step of an accepted code, only when it is later than the last one used
 * (one statement: a code is never accepted twice, even by two requests at once). True when recorded.
 */
export async function recordTotpStep(db: UsersDb, id: number, step: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpUltimoPasso: step })
    .where(and(eq(users.id, id), or(isNull(users.totpUltimoPasso), lt(users.totpUltimoPasso, step))))
    .returning({ id: users.id });
  return updated.length === 1;
}

/** The second factor becomes active. */
export async function activateTotp(db: UsersDb, id: number, now: Date): Promise<void> {
  await db.update(users).set({ totpAttivoAt: now, updatedAt: now }).where(eq(users.id, id)); // triggers: NOTIFY bicielis_auth
}

/** The second factor is turned off: secret, activation and last step cleared. */
export async function clearTotp(db: UsersDb, id: number, now: Date): Promise<void> {
  await db.update(users).set({ totpSegreto: null, totpAttivoAt: null, totpUltimoPasso: null, updatedAt: now }).where(eq(users.id, id)); // triggers: NOTIFY bicielis_auth
}

/**
 * An admin's choice of a passkey as second factor (issue 49): on, or off (by the admin, or because
 * their last passkey went, in the same transaction as its removal). Counted by `dueFattori`.
 */
export async function setPasskeySecondFactor(db: UsersDb, id: number, attivo: boolean, now: Date): Promise<void> {
  await db.update(users).set({ passkeySecondoFattore: attivo, updatedAt: now }).where(eq(users.id, id)); // triggers: NOTIFY bicielis_auth
}

/**
 * A person's roles at the sedi become exactly `list` (issue 48): the old rows go, the new ones
 * come, duplicates once. In the caller's transaction (the admin's edit of the user); every row
 * written NOTIFYs `bicielis_auth` (triggers/incarichi.sql), so every process's cache reloads them.
 */
export async function replaceIncarichi(db: UsersDb, userId: number, list: readonly Incarico[], now: Date): Promise<void> {
  await db.delete(incarichi).where(eq(incarichi.userId, userId));
  const unique = new Map(list.map((i) => [`${i.sedeId}:${i.ruolo}`, i]));
  if (unique.size === 0) return;
  await db
    .insert(incarichi)
    .values([...unique.values()].map((i) => ({ userId, sedeId: i.sedeId, ruolo: i.ruolo, createdAt: now })))
    .onConflictDoNothing();
}
