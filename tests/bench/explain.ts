/**
 * Where the availability read's time goes in PostgreSQL (issue 33): `npm run bench -- explain`
 * seeds the guard's data (50 bikes, 5,000 users, 200,000 past and 3,000 future bookings, every
 * rule, open offers) and prints `EXPLAIN (ANALYZE, BUFFERS)` figures, median of 5 runs each:
 *
 * - the batched statement the read used before decision 040 (one row per window, the as-of-now
 *   conditions in it), for 1, 10 and 50 windows;
 * - what the read runs now: the check that nothing changed (one indexed query per batch) and
 *   the picture's reading (when something did, or an instant passed);
 * - the ceiling's query (one row by primary key).
 *
 * A benchmark, not a test: it measures, it asserts only that each statement ran.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.js';
import { fleetPictureStatement } from '../../src/server/modules/bookings/availability.js';
import { bikeStateAsOf, voidAsOf } from '../../src/server/modules/bookings/lifecycle.js';
import { randomWindows } from './availability.js';
import { seedGuardReads } from './guard.js';
import { benchDatabase, fmt } from './harness.js';
import { zonedInstant, zonedToday } from '../../src/shared/time.js';

const TZ = 'Europe/Rome';
const RUNS = 5;
const minutes = { hold: 30, noShow: 30 };

interface Plan {
  'Execution Time': number;
  'Planning Time': number;
  Plan: { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number };
}

async function explain(db: Db, statement: SQL): Promise<{ ms: number; planMs: number; buffers: number }> {
  const runs: { ms: number; planMs: number; buffers: number }[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const { rows } = await db.execute<{ 'QUERY PLAN': Plan[] }>(sql`explain (analyze, buffers, format json) ${statement}`);
    const plan = rows[0]!['QUERY PLAN'][0]!;
    if (i === 0) continue; // warm-up
    runs.push({
      ms: plan['Execution Time'],
      planMs: plan['Planning Time'],
      buffers: (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0),
    });
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ms: median(runs.map((r) => r.ms)), planMs: median(runs.map((r) => r.planMs)), buffers: median(runs.map((r) => r.buffers)) };
}

/** The batched statement of decision 018 as it stood before decision 040 (git e9cafd2, service.ts). */
function batchedStatement(at: string, starts: string[], ends: string[]) {
  return sql`
    select coalesce((
        select json_agg(json_build_object(
                 'id', b.id, 'numero', b.numero, 'modello', b.modello, 'stato', ${bikeStateAsOf(at, minutes)},
                 'updatedAt', to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
               order by lpad(b.numero, 20, '0'), b.numero)
          from biciclette b
         where (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))
           and not exists (select 1 from manutenzioni m
                            where m.bici_id = b.id and tstzrange(m.inizio, m.fine, '[)') && tstzrange(w.starts, w.ends, '[)'))
           and b.id <> all (array(
             select p.bici_id from prenotazioni p
              where p.stato = 'attiva' and tstzrange(p.inizio, p.fine, '[)') && tstzrange(w.starts, w.ends, '[)')
                and not ${voidAsOf(at, minutes)}
             union all
             select p.bici_id from prenotazioni p
              where p.stato = 'offerta' and tstzrange(p.inizio, p.fine, '[)') && tstzrange(w.starts, w.ends, '[)')
             union all
             select p.bici_id from prenotazioni p
              where p.stato = 'attiva' and p.fine <= ${at}::timestamptz and p.ritirata_at is not null))
      ), '[]')::text as json
      from unnest(${`{${starts.join(',')}}`}::timestamptz[], ${`{${ends.join(',')}}`}::timestamptz[]) with ordinality as w(starts, ends, i)
     order by w.i`;
}

export async function benchExplain(): Promise<boolean> {
  const reads = await benchDatabase();
  try {
    const { db } = reads.database;
    const today = zonedToday(new Date(), TZ);
    const days = await seedGuardReads(reads.database, today);
    await db.execute(sql`analyze`);
    const now = new Date();
    const at = now.toISOString();
    const windows = randomWindows(days, 50).map((w) => ({
      start: zonedInstant(w.dataPrenotazione, w.orarioInizio, TZ)!.toISOString(),
      end: zonedInstant(w.dataPrenotazione, w.orarioFine, TZ)!.toISOString(),
    }));
    console.log(`\n## Where the availability read's time goes (EXPLAIN (ANALYZE, BUFFERS), median of ${RUNS})\n`);
    console.log('| statement | execution ms | planning ms | buffers |');
    console.log('|---|--:|--:|--:|');
    const row = (name: string, r: { ms: number; planMs: number; buffers: number }) =>
      console.log(`| ${name} | ${r.ms.toFixed(2)} | ${r.planMs.toFixed(2)} | ${fmt(r.buffers)} |`);
    for (const n of [1, 10, 50]) {
      const w = windows.slice(0, n);
      const r = await explain(db, batchedStatement(at, w.map((x) => x.start), w.map((x) => x.end)));
      row(`before 040: batched statement, ${n} window${n > 1 ? 's' : ''} (${(r.ms / n).toFixed(2)} ms a window)`, r);
    }
    const { rows } = await db.execute<{ snapshot: string; xmin: string }>(
      sql`select pg_current_snapshot()::text as snapshot, pg_snapshot_xmin(pg_current_snapshot())::text as xmin`,
    );
    const { snapshot, xmin } = rows[0]!;
    row(
      'after 040: the check, nothing changed (any number of windows)',
      await explain(db, sql`select exists (select 1 from disponibilita_modifiche c where c.xid >= ${xmin}::bigint
        and not pg_visible_in_snapshot(c.xid::text::xid8, ${snapshot}::pg_snapshot)) as changed`),
    );
    // The check with the rows a burst of bookings leaves (one per transaction), all visible.
    await db.execute(sql`insert into disponibilita_modifiche (xid) select g from generate_series(1, 2000) g on conflict do nothing`);
    row(
      'after 040: the check, 2,000 change rows in the table',
      await explain(db, sql`select exists (select 1 from disponibilita_modifiche c where c.xid >= ${xmin}::bigint
        and not pg_visible_in_snapshot(c.xid::text::xid8, ${snapshot}::pg_snapshot)) as changed`),
    );
    const cover = new Date(now.getTime() - 5 * 60_000).toISOString();
    const sede = (await db.execute<{ id: number }>(sql`select min(id)::int as id from sedi`)).rows[0]!.id;
    row('after 064: reading one sede\'s picture (something changed)', await explain(db, fleetPictureStatement(sede, at, minutes, cover)));
    row('ceiling: one row by primary key', await explain(db, sql`select id, numero from biciclette where id = 17`));
    return true;
  } finally {
    await reads.close();
  }
}
