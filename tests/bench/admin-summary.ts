/**
 * The /admin summary's sequential read time at the scale bench's two sizes (issue 51, decision
 * 065): `npm run bench -- admin-summary` (SCALE_ONLY=1 or 10 for one size; BENCH_ROUNDS, 3).
 * Seeds each size as `npm run bench -- scale` does (seedScale), then times, back to back in
 * alternating rounds of 15 calls, the summary as it was before decision 065 (every active row
 * read, every person counted, the rollup read a row a day) and as it is, after checking that the
 * two say the same. Prints the medians with the load average; then (unless WRITE_COST=0) what
 * the active bookings' counter costs a booking and its cancellation.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { systemClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import { adminSummary, startOfDay } from '../../src/server/modules/admin/lists.js';
import { asOf } from '../../src/server/modules/bookings/index.js';
import { currentRules, lifecycleMinutes } from '../../src/server/modules/rules/index.js';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { benchDatabase } from './harness.js';
import { seedScale, SIZES } from './scale.js';

type Deps = Parameters<typeof adminSummary>[0];

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLS = 15;

/** The summary's statement before decision 065, as it was at 05eaa98 (the same result). */
async function summaryBefore(deps: Deps): Promise<Record<string, number>> {
  const now = deps.clock.now();
  const today = zonedToday(now, deps.config.timeZone);
  const dayStart = startOfDay(today, deps.config.timeZone).toISOString();
  // eslint-disable-next-line test-days/no-day-offset -- the summary's own bounds of today in TZ_APP, not a day booked
  const dayEnd = startOfDay(addDays(today, 1), deps.config.timeZone).toISOString();
  const at = now.toISOString();
  const minutes = lifecycleMinutes(await currentRules(deps));
  const result = await deps.db.execute<Record<string, number>>(sql`
    with bikes as (select ${asOf.bikeStateAsOf(at, minutes)} as stato from biciclette b),
    active as (
      select p.inizio, p.fine, p.ritirata_at, ${asOf.voidAsOf(at, minutes)} as void
        from prenotazioni p where p.stato = 'attiva'),
    totals as (select coalesce(sum(rides), 0)::int as rides, coalesce(sum(cancellations), 0)::int as cancellations from (
      select rides, cancellations from stats_giornaliere where kind = 'day'
      union all
      select rides, cancellations from stats_delta where kind = 'day') t)
    select
      (select count(*) from active where not void and inizio <= ${at}::timestamptz and fine > ${at}::timestamptz)::int as "inUso",
      (select count(*) from active where not void)::int as "attive",
      (select rides from totals) - (select count(*) from active)::int as "completate",
      (select cancellations from totals) + (select count(*) from active where void)::int as "cancellate",
      (select count(*) from prenotazioni p
        where p.stato = 'completata' and p.data_prenotazione between ${addDays(today, -1)}::date and ${today}::date
          and p.fine >= ${dayStart}::timestamptz and p.fine < ${dayEnd}::timestamptz)::int as "oggi",
      (select count(*) from users)::int as "utenti",
      (select count(*) from bikes)::int as "bici",
      (select count(*) from active where ritirata_at is not null and fine <= ${at}::timestamptz)::int as "ritardi",
      (select count(*) from interventi d where d.chiuso_at is null)::int as "danniAperti"`);
  return result.rows[0]!;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadAverage = () => os.loadavg().map((x) => x.toFixed(1)).join(' / ');

async function timed(read: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await read();
    times.push(performance.now() - t);
  }
  return times;
}

/**
 * What the active bookings' counter costs a booking (its three statement triggers): pairs of a
 * single-row booking insert and its cancellation, each in its own transaction as the API's are,
 * with the counter's triggers on and off in alternating rounds on the same database.
 */
async function writeCost(): Promise<string> {
  const bench = await benchDatabase();
  try {
    const { pool } = bench.database;
    await pool.query(`insert into biciclette (numero, modello) values ('W1', 'City Bike')`);
    await pool.query(`insert into users (nome, cognome, email, password_hash, is_residente) values ('Wanda', 'W', 'w@example.it', 'x', true)`);
    const pair = async () => {
      const { rows } = await pool.query<{ id: number }>(
        `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine)
         values (1, 1, current_date + 1, '10:00', '11:00', current_date + 1 + time '09:00', current_date + 1 + time '10:00') returning id`,
      );
      await pool.query(`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente' where id = $1`, [rows[0]!.id]);
    };
    const triggers = ['prenotazioni_attive_ins', 'prenotazioni_attive_upd', 'prenotazioni_attive_del'];
    const times = { on: [] as number[], off: [] as number[] };
    for (let i = 0; i < 100; i++) await pair();
    for (let r = 0; r < 2 * ROUNDS; r++) {
      const mode = r % 2 === 0 ? 'on' : 'off';
      for (const t of triggers) await pool.query(`alter table prenotazioni ${mode === 'on' ? 'enable' : 'disable'} trigger ${t}`);
      const t0 = performance.now();
      for (let i = 0; i < 500; i++) await pair();
      times[mode].push((performance.now() - t0) / 500);
    }
    // The same pairs inside the server, 2,000 in one DO block a round: the triggers' own cost,
    // without the round trips and commits that the shared machine's noise sits on.
    const inside = { on: [] as number[], off: [] as number[] };
    for (let r = 0; r < 2 * ROUNDS; r++) {
      const mode = r % 2 === 0 ? 'on' : 'off';
      for (const t of triggers) await pool.query(`alter table prenotazioni ${mode === 'on' ? 'enable' : 'disable'} trigger ${t}`);
      const t0 = performance.now();
      await pool.query(`do $$ declare b int; begin
        for i in 1..2000 loop
          insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine)
          values (1, 1, current_date + 1, '10:00', '11:00', current_date + 1 + time '09:00', current_date + 1 + time '10:00') returning id into b;
          update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente' where id = b;
        end loop;
      end $$`);
      inside[mode].push((performance.now() - t0) / 2000);
    }
    const each = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
    return (
      `booking + cancellation, ms a pair (median of ${ROUNDS} rounds of 500): counter's triggers on ${median(times.on).toFixed(3)}, ` +
      `off ${median(times.off).toFixed(3)} (rounds: on ${each(times.on)}; off ${each(times.off)})\n` +
      `the same inside the server (2,000 pairs in a DO block, median of ${ROUNDS}): on ${median(inside.on).toFixed(3)}, off ${median(inside.off).toFixed(3)} ` +
      `(rounds: on ${each(inside.on)}; off ${each(inside.off)}; load average ${loadAverage()})`
    );
  } finally {
    await bench.close();
  }
}

export async function benchAdminSummary(): Promise<boolean> {
  const only = process.env.SCALE_ONLY;
  const rows: string[] = [];
  for (const size of SIZES.filter((s) => !only || s.name === `${only}×`)) {
    const bench = await benchDatabase();
    try {
      const t = performance.now();
      await seedScale(bench.database, size, zonedToday(new Date(), 'Europe/Rome'), 0);
      console.log(`${size.name} seeded in ${((performance.now() - t) / 1000).toFixed(0)} s (load average ${loadAverage()})`);
      const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: bench.url, PUBLIC_URL: 'http://127.0.0.1' });
      const deps = { db: bench.database.db, clock: systemClock, config };
      const [before, after] = [await summaryBefore(deps), await adminSummary(deps)];
      const same =
        before.inUso === after.biciInUsoOra && before.attive === after.prenotazioniAttive && before.completate === after.bookingsByStato.completata &&
        before.cancellate === after.bookingsByStato.cancellata && before.oggi === after.completateOggi && before.utenti === after.utentiTotali &&
        before.ritardi === after.ritardi;
      if (!same) throw new Error(`the two summaries differ: ${JSON.stringify(before)} vs ${JSON.stringify(after)}`);
      console.log(`${size.name}: ${after.prenotazioniAttive} active, ${after.utentiTotali} people, ${after.bookingsByStato.completata} completed, the same both ways`);
      const times = { before: [] as number[], after: [] as number[] };
      for (let i = 0; i < 3; i++) await Promise.all([summaryBefore(deps), adminSummary(deps)]);
      for (let r = 0; r < ROUNDS; r++) {
        times.before.push(...(await timed(() => summaryBefore(deps))));
        times.after.push(...(await timed(() => adminSummary(deps))));
        console.log(`  round ${r + 1}: load average ${loadAverage()}`);
      }
      rows.push(`| ${size.name} | ${median(times.before).toFixed(1)} | ${median(times.after).toFixed(1)} | ${loadAverage()} |`);
    } finally {
      await bench.close();
    }
  }
  console.log(`\n| size | before ms (median of ${ROUNDS * CALLS}) | after ms | load average (1 / 5 / 15 min) at the end |`);
  console.log('|---|--:|--:|---|');
  for (const r of rows) console.log(r);
  if (process.env.WRITE_COST !== '0') console.log(`\n${await writeCost()}`);
  // A measure of the two sizes side by side, with its baseline: no target of its own (the scale bench has them).
  return true;
}
