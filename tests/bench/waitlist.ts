/**
 * Waitlist benchmark (issue 21). The availability benchmark's data (50 bikes, 3,000 future
 * active bookings, 20,000 past ones) plus every bike taken at 06:00–06:45 on days 1–25 of the
 * horizon (1,250 more bookings, the "full" windows). Measured twice, each server in a fresh
 * process and the load generator in another:
 *   - before: no one waiting;
 *   - after: 500 waiting entries, 20 on each full window (nobody can be offered a bike).
 * Each time: POST /api/biciclette/available (2,000 random windows, 200 sessions, 50 clients,
 * 10 s) and POST /api/prenotazioni (2,000 bookings, each its own user, bike and quarter hour
 * between 00:00 and 05:00, 50 clients). Rounds (BENCH_ROUNDS, default 5) alternate the two;
 * each round's after/before ratio, median reported. Targets: bookings ≥ 90 % (that median);
 * availability ≥ 90 % measured one request at a time in-process (600 calls, alternately with
 * and without the waits, 3 times): under load on a 2-core machine its rounds swing ±40 %, so
 * the load figure is reported, not gated.
 * Then offer latency: 200 bookings of the full windows (8 a day) cancelled one after the other through
 * the API; for each, from the cancellation's instant (its `updated_at`) to the offer row's
 * `created_at` (the pass's instant, after the cancel committed): p50 and p99 reported, and
 * every cancel must have made exactly one offer, to the first in line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client.js';
import { zonedToday } from '../../src/shared/time.js';
import { growHistory, horizonDays, randomWindows, seedBase, seedFuture } from './availability.js';
import { systemClock } from '../../src/server/clock.js';
import { availableBikes } from '../../src/server/modules/bookings/service.js';

/** The bench's people live at the install's first sede (an unknown home gives the first open one). */
const FIRST_SEDE = { home: 1 };
import { benchDatabase, fmt, load, startBenchServer } from './harness.js';

const TZ = 'Europe/Rome';
const CONNECTIONS = 50;
const BIKES = 50;
const FULL_DAYS = 25;
const WAITS_PER_WINDOW = 20;
const BOOKINGS = 2000;
const CANCELS = 200;

/** Users with a session each, made with SQL; returns their ids and cookies. */
async function usersWithSessions(database: Database, prefix: string, count: number): Promise<{ ids: number[]; cookies: string[] }> {
  const inserted = await database.db.execute<{ id: number }>(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Utente', ${prefix} || g, ${prefix} || g || '@example.it', 'x', true from generate_series(1, ${count}::int) g
    returning id`);
  const ids = inserted.rows.map((r) => r.id);
  const tokens = ids.map(() => randomBytes(32).toString('base64url'));
  const rows = tokens.map((t, i) => ({ h: createHash('sha256').update(t).digest('hex'), u: ids[i]! }));
  await database.db.execute(sql`
    insert into sessions (token_hash, user_id, kind, created_at, last_seen_at, expires_at)
    select r.h, r.u, 'session', now(), now(), now() + interval '30 days' from json_to_recordset(${JSON.stringify(rows)}::json) as r(h text, u int)`);
  return { ids, cookies: tokens.map((t) => `bicielis_session=${t}`) };
}

const quarter = (q: number) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;

/** Booking n of a run: bike 1 + n mod 50, a quarter hour between 00:00 and 05:00 of its own, on a day of `days`. */
function bookingBody(n: number, days: readonly string[]): string {
  const slot = Math.floor(n / BIKES);
  return JSON.stringify({
    dataPrenotazione: days[Math.floor(slot / 20)],
    orarioInizio: quarter(slot % 20),
    orarioFine: quarter((slot % 20) + 1),
    destinazione: null,
    biciId: 1 + (n % BIKES),
  });
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
};

export async function benchWaitlist(): Promise<boolean> {
  const bench = await benchDatabase();
  const { database } = bench;
  try {
    const today = zonedToday(new Date(), TZ);
    await seedBase(database);
    const days = await horizonDays(database);
    await seedFuture(database, days);
    await growHistory(database, 0, 20_000);
    const readers = await usersWithSessions(database, 'lettore', 200);
    // Every bike taken at 06:00–06:45 on days 1–25 (the seeded bookings start at 07:00 or later).
    const holders = await usersWithSessions(database, 'pieno', BIKES * FULL_DAYS);
    await database.db.execute(sql`
      insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
      select h.u, 1 + (h.k % ${BIKES}::int), d.day, '06:00', '06:45',
             (d.day + time '06:00') at time zone ${TZ}, (d.day + time '06:45') at time zone ${TZ}, 'attiva'
        from unnest(${`{${holders.ids.join(',')}}`}::int[]) with ordinality as h(u, k)
        join lateral (select (${today}::date + (1 + ((h.k - 1) / ${BIKES}::int))::int) as day) d on true`);
    await database.db.execute(sql`vacuum analyze prenotazioni`);
    const windows = randomWindows(days, 2000).map((w) => JSON.stringify(w));
    const headers = { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'same-origin' };

    let bookingRun = 0;
    const measure = async (label: string) => {
      // The previous run's bookings counted by the planner, so that each run starts alike.
      await database.db.execute(sql`vacuum analyze prenotazioni`);
      const server = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: bench.url });
      try {
        const plan = { connections: CONNECTIONS, method: 'POST', headers: { ...headers, origin: server.base } };
        await load(`${server.base}/api/biciclette/available`, { ...plan, seconds: 2, bodies: windows, cookies: readers.cookies });
        const availability = await load(`${server.base}/api/biciclette/available`, { ...plan, seconds: 10, bodies: windows, cookies: readers.cookies });
        const bookers = await usersWithSessions(database, `prenota${bookingRun}-`, BOOKINGS);
        const bodies = Array.from({ length: BOOKINGS }, (_, i) => bookingBody(bookingRun * BOOKINGS + i, days));
        bookingRun += 1;
        const bookings = await load(`${server.base}/api/prenotazioni`, {
          ...plan,
          seconds: 0,
          amount: BOOKINGS,
          bodies,
          bodyOrder: 'sequence',
          cookies: bookers.cookies,
          cookieOrder: 'sequence',
        });
        console.log(
          `      ${label}: availability ${fmt(availability.requestsPerSec)} req/s (p99 ${availability.p99Ms} ms, ${availability.non2xx} non-2xx); ` +
            `bookings ${fmt(bookings.total / bookings.seconds)}/s (p99 ${bookings.p99Ms} ms, ${bookings.non2xx} non-2xx)`,
        );
        return { availability, bookings };
      } finally {
        await server.stop();
      }
    };

    const waiters = await usersWithSessions(database, 'attesa', FULL_DAYS * WAITS_PER_WINDOW);
    const addWaits = async () => {
      await database.db.execute(sql`
        insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, created_at)
        select w.u, d.day, '06:00', '06:45', (d.day + time '06:00') at time zone ${TZ}, (d.day + time '06:45') at time zone ${TZ},
               now() - interval '1 hour' + w.k * interval '1 second'
          from unnest(${`{${waiters.ids.join(',')}}`}::int[]) with ordinality as w(u, k)
          join lateral (select (${today}::date + (1 + ((w.k - 1) % ${FULL_DAYS}::int))::int) as day) d on true`);
      await database.db.execute(sql`analyze attese`);
    };
    // Rounds interleaved (the same machine, moments apart), medians compared.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
    const befores: Awaited<ReturnType<typeof measure>>[] = [];
    const afters: Awaited<ReturnType<typeof measure>>[] = [];
    for (let round = 0; round < rounds; round++) {
      await database.db.execute(sql`delete from attese`);
      befores.push(await measure(`round ${round + 1}, no one waiting`));
      await addWaits();
      afters.push(await measure(`round ${round + 1}, ${FULL_DAYS * WAITS_PER_WINDOW} waiting`));
    }
    const mid = (runs: typeof befores, pick: (r: (typeof befores)[number]) => number) => percentile(runs.map(pick), 0.5);
    const summary = (runs: typeof befores) => ({
      availability: {
        requestsPerSec: mid(runs, (r) => r.availability.requestsPerSec),
        p99Ms: mid(runs, (r) => r.availability.p99Ms),
        non2xx: runs.reduce((n, r) => n + r.availability.non2xx, 0),
      },
      bookings: {
        // Bookings end when the last is made: the total over autocannon's exact duration (its
        // per-second average is counted in whole seconds).
        requestsPerSec: mid(runs, (r) => r.bookings.total / r.bookings.seconds),
        p99Ms: mid(runs, (r) => r.bookings.p99Ms),
        non2xx: runs.reduce((n, r) => n + r.bookings.non2xx, 0),
      },
    });
    // The request's own work, without the machine's swings under load: 600 availability calls
    // in this process, one after the other (each its own query), over 60 of the windows,
    // alternately with and without the waits, 3 times each; medians.
    const deps = { db: database.db, clock: systemClock, config: { timeZone: TZ, stripe: undefined } };
    const sample = randomWindows(days, 60);
    const sequential = async () => {
      for (const w of sample.slice(0, 20)) await availableBikes(deps, w, true, FIRST_SEDE);
      const t = performance.now();
      for (let i = 0; i < 600; i++) await availableBikes(deps, sample[i % sample.length]!, true, FIRST_SEDE);
      return (performance.now() - t) / 600;
    };
    const seqBefore: number[] = [];
    const seqAfter: number[] = [];
    for (let round = 0; round < 3; round++) {
      await database.db.execute(sql`delete from attese`);
      seqBefore.push(await sequential());
      await addWaits();
      seqAfter.push(await sequential());
    }
    const perRequestBefore = percentile(seqBefore, 0.5);
    const perRequestAfter = percentile(seqAfter, 0.5);

    const before = summary(befores);
    const after = summary(afters);
    // Each round's "after" against its own "before" (moments apart): the median of those ratios.
    const pairedAvailability = percentile(afters.map((a, i) => a.availability.requestsPerSec / befores[i]!.availability.requestsPerSec), 0.5);
    const pairedBookings = percentile(
      afters.map((a, i) => a.bookings.total / a.bookings.seconds / (befores[i]!.bookings.total / befores[i]!.bookings.seconds)),
      0.5,
    );

    // Offer latency: cancels of the full windows, one after the other, through the API.
    const server = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: bench.url });
    const roundTrips: number[] = [];
    const plainTrips: number[] = [];
    try {
      // The baseline: cancels nobody waits for (the seeded bookings of days 26–30).
      const plain = await database.db.execute<{ id: number; user_id: number }>(sql`
        select p.id, p.user_id from prenotazioni p join users u on u.id = p.user_id
         where p.stato = 'attiva' and p.data_prenotazione > ${days[FULL_DAYS - 1]!}::date and u.email like 'bench%' and u.is_residente
         order by p.id limit 50`);
      for (const c of plain.rows) {
        const token = randomBytes(32).toString('base64url');
        await database.db.execute(sql`
          insert into sessions (token_hash, user_id, kind, created_at, last_seen_at, expires_at)
          values (${createHash('sha256').update(token).digest('hex')}, ${c.user_id}, 'session', now(), now(), now() + interval '1 day')`);
        const t = performance.now();
        const res = await fetch(`${server.base}/api/prenotazioni/${c.id}`, { method: 'DELETE', headers: { cookie: `bicielis_session=${token}`, origin: server.base } });
        plainTrips.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`cancel ${c.id}: ${res.status} ${await res.text()}`);
      }
      const cancels = await database.db.execute<{ id: number; user_id: number }>(sql`
        select id, user_id from (
          select p.id, p.user_id, p.data_prenotazione, p.bici_id,
                 row_number() over (partition by p.data_prenotazione order by p.bici_id) as n
            from prenotazioni p
           where p.orario_inizio = '06:00' and p.stato = 'attiva' and p.data_prenotazione <= ${days[FULL_DAYS - 1]!}::date) x
         where n <= ${CANCELS / FULL_DAYS}
         order by n, data_prenotazione`);
      const cookieOf = new Map(holders.ids.map((id, i) => [id, holders.cookies[i]!]));
      for (const c of cancels.rows) {
        const t = performance.now();
        const res = await fetch(`${server.base}/api/prenotazioni/${c.id}`, { method: 'DELETE', headers: { cookie: cookieOf.get(c.user_id)!, origin: server.base } });
        roundTrips.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`cancel ${c.id}: ${res.status} ${await res.text()}`);
      }
    } finally {
      await server.stop();
    }
    const latency = await database.db.execute<{ ms: number }>(sql`
      select extract(epoch from (o.created_at - c.updated_at)) * 1000 as ms
        from prenotazioni o
        join prenotazioni c on c.bici_id = o.bici_id and c.inizio = o.inizio and c.stato = 'cancellata' and c.motivo_cancellazione = 'utente'
       where o.stato = 'offerta'`);
    const offerMs = latency.rows.map((r) => Number(r.ms));
    // On every day, the offers went to the first in line: its waits read in line order are
    // some 'offerta' then only 'in_attesa'.
    const line = await database.db.execute<{ day: string; states: string[] }>(sql`
      select data_prenotazione::text as day, array_agg(stato order by created_at, id) as states from attese group by 1`);
    const inOrder = line.rows.every((r) => r.states.join(',').replace(/^(offerta,?)*/, '').split(',').every((x) => x === 'in_attesa' || x === ''));
    const okOffers = offerMs.length === CANCELS && inOrder;

    const pct = (a: number, b: number) => `${fmt((a / b) * 100, 1)} %`;
    // Gated on the request's own work (the load figures swing ±40 % between rounds on a 2-core
    // machine shared by server, database and load generator); the load figures are reported.
    const okAvailability = perRequestAfter <= perRequestBefore / 0.9 && after.availability.non2xx === 0;
    const okBookings = pairedBookings >= 0.9 && after.bookings.non2xx === 0 && before.bookings.non2xx === 0;
    console.log(
      `\n## Waitlist: ${BIKES} bikes, ${FULL_DAYS} full windows, ${FULL_DAYS * WAITS_PER_WINDOW} waiting entries; ${CONNECTIONS} clients\n` +
        '| measure (median of ' + String(rounds) + ' rounds) | no one waiting | 500 waiting | ratio |\n|---|--:|--:|--:|\n' +
        `| availability req/s (2,000 windows, 10 s) | ${fmt(before.availability.requestsPerSec)} | ${fmt(after.availability.requestsPerSec)} | ${pct(after.availability.requestsPerSec, before.availability.requestsPerSec)} |\n` +
        `| availability p99 ms | ${before.availability.p99Ms} | ${after.availability.p99Ms} | |\n` +
        `| bookings/s (${BOOKINGS}, 201 each) | ${fmt(before.bookings.requestsPerSec)} | ${fmt(after.bookings.requestsPerSec)} | ${pct(after.bookings.requestsPerSec, before.bookings.requestsPerSec)} |\n` +
        `| bookings p99 ms | ${before.bookings.p99Ms} | ${after.bookings.p99Ms} | |`,
    );
    console.log(
      `\n      offer latency (cancel's instant → offer stored), ${offerMs.length} cancels: p50 ${percentile(offerMs, 0.5).toFixed(1)} ms, ` +
        `p99 ${percentile(offerMs, 0.99).toFixed(1)} ms; the cancel's round trip p50 ${percentile(roundTrips, 0.5).toFixed(1)} ms, p99 ${percentile(roundTrips, 0.99).toFixed(1)} ms ` +
        `(a cancel nobody waits for: p50 ${percentile(plainTrips, 0.5).toFixed(1)} ms, p99 ${percentile(plainTrips, 0.99).toFixed(1)} ms)`,
    );
    console.log(
      `      availability, one request at a time in-process (600 calls × 3 rounds, median): ${perRequestBefore.toFixed(3)} ms with no one waiting, ` +
        `${perRequestAfter.toFixed(3)} ms with 500 waiting`,
    );
    console.log(
      `${okAvailability ? 'PASS' : 'FAIL'}  availability with 500 waiting: ${pct(perRequestBefore, perRequestAfter)} of the throughput one request at a time (target ≥ 90 %); ` +
        `under load ${pct(pairedAvailability, 1)} (median of the rounds' ratios, reported)`,
    );
    console.log(`${okBookings ? 'PASS' : 'FAIL'}  bookings with 500 waiting: ${pct(pairedBookings, 1)} of before, median of the rounds' ratios (target ≥ 90 %), every one 201`);
    console.log(`${okOffers ? 'PASS' : 'FAIL'}  every cancel made one offer, to the first in line (${offerMs.length} of ${CANCELS})`);
    return okAvailability && okBookings && okOffers;
  } finally {
    await bench.close();
  }
}
