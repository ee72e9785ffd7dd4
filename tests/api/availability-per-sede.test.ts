import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetPictureStatement } from '../../src/server/modules/bookings/availability.js';
import { planNodes, rowsRead, type PlanNode } from '../helpers/plan-reads.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { allowedDay, readServiceDays } from '../helpers/days.js';
import { createLoggedInUser } from '../helpers/factories.js';

/**
 * Issue 51, decision 064: availability's fleet picture is one sede's. Reading it for a sede reads
 * that sede's bikes, active rows and maintenance, through the indexes that begin with the sede,
 * so its cost is the same with one sede or ten. Before, one picture held every sede: at ten
 * times today's data it read the 30,000 active rows of ten sedi on each change (61 → 258 ms in
 * the scale bench). Here ten sedi of 50 bikes hold 2,000 active rows each, with a history behind
 * them, and the plan of one sede's statement is counted (EXPLAIN ANALYZE): a statement that reads
 * another sede's rows, or scans the active rows of all of them, fails. And the batcher reads a
 * sede's picture only when that sede is asked about, once until something changes.
 */

const SEDI = 10;
const BIKES_PER_SEDE = 50;
const ACTIVE_PER_SEDE = 2_000;
const HISTORY = 100_000;

let ctx: TestContext;
let cookie: string;
let sedi: number[];
let day: string;

async function explainPicture(sede: number) {
  const now = TEST_NOW;
  const cover = new Date(now.getTime() - 15 * 60_000).toISOString();
  const statement = fleetPictureStatement(sede, now.toISOString(), { hold: 30, noShow: 30 }, cover);
  const { rows } = await ctx.database.db.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    sql`explain (analyze, format json) ${statement}`,
  );
  return rows[0]!['QUERY PLAN'][0].Plan;
}

beforeAll(async () => {
  ctx = await createTestApp();
  ctx.clock.set(TEST_NOW);
  const { db } = ctx.database;
  ({ cookie } = await createLoggedInUser(ctx.app, db, { email: 'per-sede@example.it', isResidente: true }));
  const first = (await db.execute<{ id: number }>(sql`select min(id)::int as id from sedi`)).rows[0]!.id;
  const others = (
    await db.execute<{ id: number }>(sql`
      insert into sedi (nome) select 'Sede ' || g from generate_series(2, ${SEDI}::int) g returning id`)
  ).rows.map((r) => r.id);
  sedi = [first, ...others];
  await db.execute(sql`
    insert into biciclette (numero, modello, sede_id)
    select s.n || '-' || g, 'City Bike', s.id
      from unnest(${`{${sedi.join(",")}}`}::int[]) with ordinality s(id, n), generate_series(1, ${BIKES_PER_SEDE}::int) g`);
  await db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', 'N' || g, 'sede-' || g || '@example.it', 'x', true from generate_series(1, ${SEDI * ACTIVE_PER_SEDE}::int) g`);
  // Written as the scale bench writes its data (triggers off: the sede given). Each bike's
  // active bookings follow one another from tomorrow on, each person has one; the history is past.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      with bikes as (select id, sede_id, row_number() over (order by id) - 1 as k from biciclette)
      insert into prenotazioni (user_id, bici_id, sede_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at)
      select u.id, b.id, b.sede_id, (t)::date, '10:00', '11:00', t, t + interval '1 hour', 'attiva', ${TEST_NOW.toISOString()}::timestamptz - interval '1 day'
        from (select g, ${TEST_NOW.toISOString()}::timestamptz + interval '1 day' + (g / ${SEDI * BIKES_PER_SEDE}::int) * interval '2 hours' as t
                from generate_series(0, ${SEDI * ACTIVE_PER_SEDE - 1}::int) g) s
        join bikes b on b.k = s.g % ${SEDI * BIKES_PER_SEDE}::int
        join (select id, row_number() over (order by id) - 1 as k from users where email like 'sede-%') u on u.k = s.g`);
    await tx.execute(sql`
      insert into prenotazioni (user_id, bici_id, sede_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
      select null, b.id, b.sede_id, (t - interval '1 hour')::date, '10:00', '11:00', t - interval '1 hour', t, 'completata'
        from (select g, ${TEST_NOW.toISOString()}::timestamptz - interval '2 hours' - g * interval '3 minutes' as t
                from generate_series(1, ${HISTORY}::int) g) s
        join (select id, sede_id, row_number() over (order by id) - 1 as k from biciclette) b on b.k = s.g % ${SEDI * BIKES_PER_SEDE}::int`);
  });
  // A history of maintenance (ten past periods a bike), and one planned ahead on one bike of every sede.
  await db.execute(sql`
    insert into manutenzioni (bici_id, inizio, fine, motivo)
    select b.id, ${TEST_NOW.toISOString()}::timestamptz - k * interval '2 days', ${TEST_NOW.toISOString()}::timestamptz - k * interval '2 days' + interval '1 day', 'Revisione'
      from biciclette b, generate_series(1, 10) k`);
  await db.execute(sql`
    insert into manutenzioni (bici_id, inizio, fine, motivo)
    select min(b.id), ${TEST_NOW.toISOString()}::timestamptz + interval '3 days', ${TEST_NOW.toISOString()}::timestamptz + interval '4 days', 'Freni'
      from biciclette b group by b.sede_id`);
  await db.execute(sql`analyze`);
  day = allowedDay(await readServiceDays(db), { now: TEST_NOW });
}, 240_000);

afterAll(async () => {
  await ctx.close();
});

describe('one sede\'s fleet picture (decision 064)', () => {
  it('reads that sede\'s rows only, along the indexes that begin with the sede', async () => {
    const { db } = ctx.database;
    const active = async (sede: number) =>
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where sede_id = ${sede} and stato = 'attiva'`)).rows[0]!.n;
    expect(await active(sedi[0]!)).toBe(ACTIVE_PER_SEDE);
    for (const sede of [sedi[0]!, sedi[SEDI - 1]!]) {
      const plan = await explainPicture(sede);
      const read = rowsRead(plan, { indexes: true });
      if (process.env.PRINT_PLAN) console.log(JSON.stringify(plan, null, 1));
      // Its own active rows once (the busy intervals, the overdue rides and the next instant share
      // one scan), and a few for the bikes' states: not another sede's 2,000 each.
      expect(read.prenotazioni ?? 0, `prenotazioni rows read for sede ${sede}`).toBeLessThanOrEqual(ACTIVE_PER_SEDE + 50);
      expect(read.prenotazioni ?? 0).toBeGreaterThanOrEqual(ACTIVE_PER_SEDE);
      // No index walked over every sede's active rows (the active rows' `fine` index: 20,000 entries).
      for (const [index, n] of Object.entries(read).filter(([k]) => k.startsWith('prenotazioni_'))) {
        expect(n, `${index} entries read for sede ${sede}`).toBeLessThanOrEqual(ACTIVE_PER_SEDE);
      }
      // Its bikes, once for the list and once for its maintenance (not the 500 of ten sedi).
      expect(read.biciclette ?? 0, `biciclette rows read for sede ${sede}`).toBeLessThanOrEqual(2 * BIKES_PER_SEDE);
      // The maintenance still ahead, found by its `fine` index (a few rows: one a sede here), not the history (5,000).
      expect(read.manutenzioni ?? 0, `manutenzioni rows read for sede ${sede}`).toBeLessThanOrEqual(SEDI + 2);
      // And the scan of the active rows goes by the sede, through an index.
      const scans = planNodes(plan).filter((n) => n['Index Cond']?.includes('sede_id'));
      expect(scans.length, 'an index scan keyed on sede_id').toBeGreaterThan(0);
    }
  });

  it('answers a sede from its own picture, read once until something changes', async () => {
    const pool = ctx.database.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> };
    // The pictures the requests read (the one statement with pg_current_snapshot()), each as the sedi of its bikes.
    const pictures: number[][] = [];
    const query = pool.query.bind(pool);
    pool.query = async (q: unknown, values?: unknown, ...rest: unknown[]) => {
      const text = typeof q === 'string' ? q : ((q as { text?: string }).text ?? '');
      const result = (await query(q, values, ...rest)) as { rows?: { bikes?: { sedeId: number }[] }[] };
      if (text.includes('pg_current_snapshot()::text as snapshot')) pictures.push([...new Set((result.rows?.[0]?.bikes ?? []).map((x) => x.sedeId))]);
      return result;
    };
    const ask = async (sedeId: number) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/biciclette/available',
        headers: { cookie },
        payload: { dataPrenotazione: day, orarioInizio: '11:00', orarioFine: '12:00', sedeId },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ id: number; sedeId: number }[]>();
    };
    try {
      const [a, b] = [sedi[0]!, sedi[1]!];
      const first = await ask(a);
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((bike) => bike.sedeId === a)).toBe(true);
      expect(pictures).toEqual([[a]]);
      await ask(b);
      expect(pictures).toEqual([[a], [b]]);
      // Nothing changed: both answered from their pictures, after the check.
      await ask(a);
      await ask(b);
      expect(pictures).toEqual([[a], [b]]);
      // A write anywhere (the change row names no sede) makes each picture read again at its
      // sede's next request, and only then: sede b's is not read while a is asked about.
      const bike = first[0]!;
      await ctx.database.db.execute(sql`update biciclette set stato = 'fuori_servizio' where id = ${bike.id}`);
      const after = await ask(a);
      expect(after.map((x) => x.id)).not.toContain(bike.id);
      expect(pictures).toEqual([[a], [b], [a]]);
      await ask(a);
      expect(pictures).toEqual([[a], [b], [a]]);
      await ask(b);
      expect(pictures).toEqual([[a], [b], [a], [b]]);

      // Concurrent requests for several sedi share a batch and one check of their pictures: the
      // first leaves alone, the others wait and go together (decision 018).
      const c = sedi[2]!;
      const together = () => Promise.all([ask(a), ask(b), ask(c), ask(a), ask(b)]);
      const [a1, b1, c1] = await together();
      expect(pictures.slice(4)).toEqual([[c]]);
      expect(c1!.every((x) => x.sedeId === c)).toBe(true);
      const again = await together();
      expect(pictures).toHaveLength(5);
      expect(again.slice(0, 3)).toEqual([a1, b1, c1]);
      // A write in sede b: every picture the batch holds is stale, each read again once.
      const bBike = b1![0]!;
      await ctx.database.db.execute(sql`update biciclette set stato = 'fuori_servizio' where id = ${bBike.id}`);
      const [a2, b2, c2] = await together();
      expect(pictures.slice(5).map((x) => x[0]).sort()).toEqual([a, b, c].sort());
      expect(b2!.map((x) => x.id)).not.toContain(bBike.id);
      expect(b2).toHaveLength(b1!.length - 1);
      expect([a2, c2]).toEqual([a1, c1]);
    } finally {
      pool.query = query;
    }
  });
});
