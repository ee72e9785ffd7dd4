import { eq, sql } from 'drizzle-orm';
import type { AdminSedeDto, SedeWrite } from '../../../shared/schemas/sedi.js';
import { testo } from '../../../shared/i18n/index.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { pgConstraint, pgErrorCode } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { type Actor, writeAudit } from '../audit/index.js';
import { moveHomeSede } from '../users/index.js';
import { sedeDto } from './service.js';
import { type Sede, sedi } from './tables.js';

/** What /admin → Sedi needs. */
export interface SediAdminDeps {
  db: Db;
  clock: Clock;
}

/** What stands at each sede now: its bikes, its bookings and offers not yet ended, its people. */
const countsSql = (at: string) => sql`
  select s.id,
         (select count(*) from biciclette b where b.sede_id = s.id)::int as bici,
         (select count(*) from prenotazioni p
           where p.sede_id = s.id and p.stato in ('attiva', 'offerta') and p.fine > ${at}::timestamptz)::int as prenotazioni,
         (select count(*) from users u where u.sede_id = s.id)::int as persone
    from sedi s`;

type Counts = { id: number; bici: number; prenotazioni: number; persone: number };

/** GET /api/admin/sedi: every sede, archived too (the open first, each in the order made), with what stands there. */
export async function adminSedi(deps: SediAdminDeps): Promise<AdminSedeDto[]> {
  const at = deps.clock.now().toISOString();
  const [rows, counts] = await Promise.all([
    deps.db.select().from(sedi).orderBy(sql`${sedi.archiviataAt} is not null`, sedi.id),
    deps.db.execute<Counts>(countsSql(at)),
  ]);
  const byId = new Map(counts.rows.map((c) => [c.id, c]));
  return rows.map((s) => withCounts(s, byId.get(s.id)));
}

const withCounts = (s: Sede, c: Counts | undefined): AdminSedeDto => ({
  ...sedeDto(s),
  bici: c?.bici ?? 0,
  prenotazioniFuture: c?.prenotazioni ?? 0,
  persone: c?.persone ?? 0,
});

/** One sede with its counts, read in `db` (a transaction sees its own writes). */
async function oneWithCounts(db: Pick<Db, 'select' | 'execute'>, id: number, now: Date): Promise<AdminSedeDto> {
  const [row] = await db.select().from(sedi).where(eq(sedi.id, id));
  if (!row) throw notFound(testo('sediApi.notFound'), 'SEDE_NOT_FOUND');
  const { rows } = await db.execute<Counts>(sql`select * from (${countsSql(now.toISOString())}) c where c.id = ${id}`);
  return withCounts(row, rows[0]);
}

/** A name taken (case-insensitive, `sedi_nome_unique`) is a 409 in the person's language. */
function nameTaken(err: unknown): never {
  if (!(err instanceof AppError) && pgErrorCode(err) === '23505' && pgConstraint(err) === 'sedi_nome_unique') {
    throw conflict(testo('sediApi.nameTaken'), 'SEDE_NAME_TAKEN');
  }
  throw err;
}

const written = (input: SedeWrite) => ({
  nome: input.nome,
  indirizzo: input.indirizzo ?? '',
  notaRastrelliera: input.notaRastrelliera ?? null,
});

/** POST /api/admin/sedi → 201; 409 when the name is taken. */
export async function createSede(deps: SediAdminDeps, actor: Actor, input: SedeWrite): Promise<AdminSedeDto> {
  const now = deps.clock.now();
  try {
    return await runTransaction(deps.db, async (tx) => {
      const [row] = await tx.insert(sedi).values({ ...written(input), createdAt: now, updatedAt: now }).returning();
      await writeAudit(tx, actor, { action: 'sede.create', entity: 'sede', entityId: row!.id, after: sedeDto(row!) }, now);
      return withCounts(row!, undefined);
    });
  } catch (err) {
    return nameTaken(err);
  }
}

/** PUT /api/admin/sedi/:id: name, address, rack note; 404 unknown, 409 name taken. */
export async function updateSede(deps: SediAdminDeps, actor: Actor, id: number, input: SedeWrite): Promise<AdminSedeDto> {
  const now = deps.clock.now();
  try {
    return await runTransaction(deps.db, async (tx) => {
      const { row: before } = await lockSede(tx, id);
      const [row] = await tx
        .update(sedi)
        .set({ ...written(input), updatedAt: now })
        .where(eq(sedi.id, id))
        .returning();
      await writeAudit(tx, actor, { action: 'sede.update', entity: 'sede', entityId: id, before: sedeDto(before), after: sedeDto(row!) }, now);
      return oneWithCounts(tx, id, now);
    });
  } catch (err) {
    return nameTaken(err);
  }
}

/**
 * The open sedi locked in id order, then the one asked for (404 unknown). Locking the row also
 * holds back, until the commit, any bike, person or booking about to be given this sede (their
 * foreign keys' share lock waits for it).
 */
async function lockSede(tx: Tx, id: number): Promise<{ row: Sede; openCount: number }> {
  const rows = await tx
    .select()
    .from(sedi)
    .where(sql`${sedi.archiviataAt} is null or ${sedi.id} = ${id}`)
    .orderBy(sedi.id)
    .for('update');
  const row = rows.find((r) => r.id === id);
  if (!row) throw notFound(testo('sediApi.notFound'), 'SEDE_NOT_FOUND');
  return { row, openCount: rows.filter((r) => r.archiviataAt === null).length };
}

/**
 * POST /api/admin/sedi/:id/archivia. Refused (409) while a bike stands there or a booking or an
 * offer there has not ended, and for the last open sede. Its people get the first open sede
 * as their home, in the same transaction. Archiving an archived sede changes nothing.
 */
export async function archiveSede(deps: SediAdminDeps, actor: Actor, id: number): Promise<AdminSedeDto> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const { row, openCount } = await lockSede(tx, id);
    if (row.archiviataAt !== null) return oneWithCounts(tx, id, now);
    if (openCount <= 1) throw conflict(testo('sediApi.lastOpen'), 'LAST_OPEN_SEDE');
    const counts = await oneWithCounts(tx, id, now);
    if (counts.bici > 0 || counts.prenotazioniFuture > 0) {
      throw conflict(testo('sediApi.notEmpty', { bici: counts.bici, prenotazioni: counts.prenotazioniFuture }), 'SEDE_NOT_EMPTY');
    }
    const [first] = await tx
      .select({ id: sedi.id })
      .from(sedi)
      .where(sql`${sedi.archiviataAt} is null and ${sedi.id} <> ${id}`)
      .orderBy(sedi.id)
      .limit(1);
    const moved = await moveHomeSede(tx, id, first!.id, now);
    await tx.update(sedi).set({ archiviataAt: now, updatedAt: now }).where(eq(sedi.id, id));
    await writeAudit(
      tx,
      actor,
      { action: 'sede.archive', entity: 'sede', entityId: id, before: sedeDto(row), after: { archiviata: true, personeSpostate: moved, nuovaSede: first!.id } },
      now,
    );
    return oneWithCounts(tx, id, now);
  });
}

/** POST /api/admin/sedi/:id/riattiva: open again (an open sede: nothing changes); 404 unknown. */
export async function reactivateSede(deps: SediAdminDeps, actor: Actor, id: number): Promise<AdminSedeDto> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    const { row } = await lockSede(tx, id);
    if (row.archiviataAt === null) return oneWithCounts(tx, id, now);
    await tx.update(sedi).set({ archiviataAt: null, updatedAt: now }).where(eq(sedi.id, id));
    await writeAudit(tx, actor, { action: 'sede.reactivate', entity: 'sede', entityId: id, before: sedeDto(row), after: { archiviata: false } }, now);
    return oneWithCounts(tx, id, now);
  });
}
