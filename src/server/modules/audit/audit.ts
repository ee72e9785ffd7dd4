import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from './tables.js';

/** Who made an admin change: the logged-in admin (id and email, kept even if the account goes). */
export interface Actor {
  id: number;
  email: string;
  /** The role they acted in (issue 48): `admin`, or a staff role at the sede acted on. */
  ruolo?: 'admin' | 'portineria' | 'officina';
}

/**
 * The service itself (issue 35): the fleet's heal moves and cancels bookings with nobody's
 * account. Its entries have no actor id, and `Sistema` where an admin's email would be.
 */
export const SYSTEM_ACTOR = { id: null, email: 'Sistema' } as const;

export type AuditAction =
  | 'booking.delete'
  | 'user.update'
  | 'user.delete'
  | 'bike.update'
  | 'bike.create'
  | 'bike.lock'
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
  | 'two_factor.disable'
  | 'rack.create'
  | 'rack.revoke'
  | 'booking.move'
  | 'booking.cancel_fleet'
  | 'sede.create'
  | 'sede.update'
  | 'sede.archive'
  | 'sede.reactivate'
  | 'booking.pickup_for_user'
  | 'booking.return_for_user'
  | 'ticket.update'
  | 'auth.login_passkey'
  | 'auth.login_oidc'
  | 'passkey.create'
  | 'passkey.delete'
  | 'passkey.second_factor'
  | 'college_account.link'
  | 'college_account.unlink';

/** A database handle or a transaction. */
export type AuditTx = Pick<Db, 'insert' | 'execute'>;

export type AuditEntity = 'booking' | 'user' | 'bike' | 'damage' | 'rules' | 'closure' | 'maintenance' | 'rack' | 'sede' | 'ticket';

/** A thing's ids as an entry's `before` may still hold them once the thing is deleted. */
interface Remembered {
  biciId?: unknown;
  sedeId?: unknown;
  userId?: unknown;
  biciNumero?: unknown;
  nome?: unknown;
  cognome?: unknown;
}

const idOf = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A bike as the staff know it: `Bici 07`. */
const bikeName = (numero: string | null) => (numero === null ? null : `Bici ${numero}`);
/** A person by name, as the rest of /admin names them. */
const personName = (nome: string | null, cognome: string | null) => {
  const name = [nome, cognome].filter((p): p is string => p !== null).join(' ').trim();
  return name === '' ? null : name;
};

/** The bike and the person of a booking, a damage or a maintenance (null ids: none). */
async function namesOf(tx: AuditTx, bikeId: number | null, userId: number | null): Promise<{ bike: string | null; person: string | null }> {
  const { rows } = await tx.execute<{ numero: string | null; nome: string | null; cognome: string | null }>(sql`
    select (select numero from biciclette where id = ${bikeId}) as numero,
           (select nome from users where id = ${userId}) as nome,
           (select cognome from users where id = ${userId}) as cognome`);
  const row = rows[0];
  return { bike: bikeName(row?.numero ?? null), person: personName(row?.nome ?? null, row?.cognome ?? null) };
}

/** The ids of the bike and the person an entry is about, read from its row (or, once deleted, from `before`). */
async function idsOf(tx: AuditTx, entity: AuditEntity, id: number, before: Remembered): Promise<{ bikeId: number | null; userId: number | null }> {
  const source =
    entity === 'booking'
      ? sql`select bici_id, user_id from prenotazioni where id = ${id}`
      : entity === 'damage' || entity === 'ticket'
        ? sql`select bici_id, null::int as user_id from interventi where id = ${id}`
        : sql`select bici_id, null::int as user_id from manutenzioni where id = ${id}`;
  const { rows } = await tx.execute<{ bici_id: number | null; user_id: number | null }>(source);
  const row = rows[0];
  return row ? { bikeId: row.bici_id, userId: row.user_id } : { bikeId: idOf(before.biciId), userId: idOf(before.userId) };
}

/**
 * The entry's subject as the staff know it (issue 31): `Bici 07` for a bike (and a damage, a ticket or a
 * maintenance of it), the person's name for a user, `Bici 07 per Maria Rossi` for a booking.
 * Read in the writer's transaction, so a thing deleted by the same change is named from its
 * `before`. Null for the rules, a closure and an import: the screen names those by kind.
 */
export async function readableSubject(tx: AuditTx, entity: AuditEntity, entityId: number | null, before: unknown): Promise<string | null> {
  if (entityId === null || entity === 'rules' || entity === 'closure' || entity === 'rack') return null;
  const remembered: Remembered = before && typeof before === 'object' ? (before as Remembered) : {};
  if (entity === 'user') {
    const { rows } = await tx.execute<{ nome: string; cognome: string }>(sql`select nome, cognome from users where id = ${entityId}`);
    const row = rows[0];
    return row ? personName(row.nome, row.cognome) : personName(textOf(remembered.nome), textOf(remembered.cognome));
  }
  if (entity === 'bike') return (await namesOf(tx, entityId, null)).bike;
  if (entity === 'sede') {
    const { rows } = await tx.execute<{ nome: string }>(sql`select nome from sedi where id = ${entityId}`);
    return rows[0]?.nome ?? textOf(remembered.nome);
  }
  const ids = await idsOf(tx, entity, entityId, remembered);
  const names = await namesOf(tx, ids.bikeId, ids.userId);
  const bike = names.bike ?? bikeName(textOf(remembered.biciNumero));
  if (entity !== 'booking' || names.person === null) return bike;
  return bike === null ? names.person : `${bike} per ${names.person}`;
}

/** A bike's sede, as SQL (null: no such bike). */
const sedeOfBike = (bikeId: unknown) => sql`(select sede_id from biciclette where id = ${idOf(bikeId)})`;

/**
 * The sede of what an entry is about (issue 47), as SQL evaluated in the entry's insert: the
 * thing's row if it still stands, else what its `before` remembers (its sede, or its bike's).
 * Null for the install's own things (the rules, an import, a closure of every sede).
 */
function sedeOf(entity: AuditEntity, id: number | null, before: Remembered) {
  if (id === null) return sql`null::int`;
  const remembered = sql`coalesce(${idOf(before.sedeId)}::int, ${sedeOfBike(before.biciId)})`;
  switch (entity) {
    case 'sede':
      return sql`${id}::int`;
    case 'bike':
      return sql`coalesce(${sedeOfBike(id)}, ${idOf(before.sedeId)}::int)`;
    case 'booking':
      return sql`coalesce((select sede_id from prenotazioni where id = ${id}), ${remembered})`;
    case 'user':
      return sql`coalesce((select sede_id from users where id = ${id}), ${idOf(before.sedeId)}::int)`;
    case 'closure':
      return sql`coalesce((select sede_id from chiusure where id = ${id}), ${idOf(before.sedeId)}::int)`;
    case 'maintenance':
      return sql`coalesce((select b.sede_id from manutenzioni m join biciclette b on b.id = m.bici_id where m.id = ${id}), ${remembered})`;
    case 'damage':
    case 'ticket':
      return sql`coalesce((select sede_id from interventi where id = ${id}), ${remembered})`;
    case 'rack':
      return sql`(select sede_id from rastrelliera_link where id = ${id})`;
    case 'rules':
      return sql`null::int`;
  }
}

/**
 * Writes one audit row (behaviour.md §8) in the caller's transaction, so the change and its
 * record commit or roll back together, with its subject as the staff know it (readableSubject). `before`/`after` are API shapes: never a password hash.
 */
export async function writeAudit(
  tx: AuditTx,
  actor: Actor | typeof SYSTEM_ACTOR,
  entry: { action: AuditAction; entity: AuditEntity; entityId: number | null; before?: unknown; after?: unknown; sedeId?: number | null },
  now: Date,
): Promise<void> {
  const soggetto = await readableSubject(tx, entry.entity, entry.entityId, entry.before);
  const remembered: Remembered = entry.before && typeof entry.before === 'object' ? (entry.before as Remembered) : {};
  await tx.insert(auditLog).values({
    // Given (a rack link's), or derived here, so every caller's entry carries its sede without saying it.
    sedeId: entry.sedeId ?? sql`${sedeOf(entry.entity, entry.entityId, remembered)}`,
    actorId: actor.id,
    actorEmail: actor.email,
    actorRuolo: actor.id === null ? null : ('ruolo' in actor && actor.ruolo) || 'admin',
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === null ? null : String(entry.entityId),
    soggetto,
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: now,
  });
}
