/**
 * Booking benchmark (issue 11): POST /api/prenotazioni under 50 concurrent clients, every
 * request a booking that must succeed — its own user (own session cookie, no active booking
 * yet) and its own bike and window: request n books bike 1 + n mod 50, in the n div 50-th
 * one-hour slot of the horizon (16 a day from 06:00, on the days the rules allow: tests/helpers/days.ts), so at any
 * moment the 50 requests in flight are on 50 different bikes and nothing overlaps. Half the
 * users are residents, half externals (whose booking also creates a pending payment).
 * The app runs as deployed (session cache on) in its own process; the load generator in another;
 * a bare Fastify process answering a constant of the same size is measured in each round.
 * Afterwards every request must have been a 201 and the database must hold exactly that
 * many active bookings. Rounds: BENCH_ROUNDS (default 3, at most 3: the horizon has 24,000
 * bike-hours), each with bookings, users and slots of its own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/server/modules/rules/index.js';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { printTable, type Row } from './availability.js';
import { bareBaseline, benchDatabase, fmt, load, startBenchServer } from './harness.js';

const CONNECTIONS = 50;
const BIKES = 50;
const SLOTS_PER_DAY = 16;
/** Bookings per measured run (and as many users); the warm-up uses its own. */
const AMOUNT = 6000;
const WARMUP = 1000;

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** The body of request n: bike, day (of `days`, from `bookingDays`) and hour of its own. */
export function bookingBody(n: number, days: readonly string[]): string {
  const slot = Math.floor(n / BIKES);
  const day = days[Math.floor(slot / SLOTS_PER_DAY)];
  if (!day) throw new Error('more bookings than slots in the open days of the horizon');
  const hour = 6 + (slot % SLOTS_PER_DAY);
  return JSON.stringify({ dataPrenotazione: day, orarioInizio: hh(hour), orarioFine: hh(hour + 1), destinazione: 'Centro', biciId: 1 + (n % BIKES) });
}

/** The days `requests` bodies need, each allowed by the rules in `db` from 06:00 to the last slot. */
export async function bookingDays(db: Executor, requests: number): Promise<string[]> {
  const windows = [{ orarioInizio: hh(6), orarioFine: hh(7) }, { orarioInizio: hh(5 + SLOTS_PER_DAY), orarioFine: hh(6 + SLOTS_PER_DAY) }];
  return allowedDays(await readServiceDays(db), { now: new Date(), count: Math.ceil(requests / BIKES / SLOTS_PER_DAY), windows });
}

export async function benchBookings(): Promise<boolean> {
  const bench = await benchDatabase();
  const { db } = bench.database;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  try {
    const total = rounds * (AMOUNT + WARMUP);
    const days = await bookingDays(db, total);
    await db.execute(sql`
      insert into biciclette (numero, modello)
      select g::text, (array['City Bike', 'Hybrid Sport', 'Mountain Bike'])[1 + g % 3] from generate_series(1, ${BIKES}::int) g`);
    await db.execute(sql`
      insert into users (nome, cognome, email, password_hash, is_residente)
      select 'Utente', 'N' || g, 'book' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, ${total}::int) g`);
    // One session per user, inserted at once (tokens made here, only their hashes stored).
    const tokens = Array.from({ length: total }, () => randomBytes(32).toString('base64url'));
    const rows = tokens.map((t, i) => ({ h: createHash('sha256').update(t).digest('hex'), u: i + 1 }));
    await db.execute(sql`
      insert into sessions (token_hash, user_id, kind, created_at, last_seen_at, expires_at)
      select r.h, r.u, 'session', now(), now(), now() + interval '30 days'
        from json_to_recordset(${JSON.stringify(rows)}::json) as r(h text, u int)`);
    const cookies = tokens.map((t) => `bicielis_session=${t}`);
    const headers = { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'same-origin' };

    const rowsOut: Row[] = [
      { scenario: 'POST /api/prenotazioni (app, 201 each)', runs: [] },
      { scenario: 'bare Fastify + same compression, constant answer', runs: [] },
    ];
    let sampleAnswer = '';
    for (let round = 0; round < rounds; round++) {
      // Each round its own users and slots: request n of the whole run is user n + 1, slot n.
      const first = round * (AMOUNT + WARMUP);
      const warmBodies = Array.from({ length: WARMUP }, (_, i) => bookingBody(first + AMOUNT + i, days));
      const bodies = Array.from({ length: AMOUNT }, (_, i) => bookingBody(first + i, days));
      const server = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: bench.url });
      let app;
      try {
        const plan = { connections: CONNECTIONS, seconds: 0, method: 'POST', headers: { ...headers, origin: server.base } };
        const warm = await load(`${server.base}/api/prenotazioni`, {
          ...plan,
          amount: WARMUP,
          bodies: warmBodies,
          bodyOrder: 'sequence',
          cookies: cookies.slice(first + AMOUNT, first + AMOUNT + WARMUP),
          cookieOrder: 'sequence',
        });
        if (warm.non2xx > 0 || warm.errors > 0) throw new Error(`warm-up: ${warm.non2xx} non-2xx, ${warm.errors} errors`);
        if (!sampleAnswer) {
          const res = await fetch(`${server.base}/api/prenotazioni/user`, { headers: { cookie: cookies[first + AMOUNT]! } });
          sampleAnswer = JSON.stringify(((await res.json()) as unknown[])[0]);
        }
        server.resetPeakRss();
        app = await load(`${server.base}/api/prenotazioni`, {
          ...plan,
          amount: AMOUNT,
          bodies,
          bodyOrder: 'sequence',
          cookies: cookies.slice(first, first + AMOUNT),
          cookieOrder: 'sequence',
        });
        app = { ...app, rssMb: server.peakRssMb() };
      } finally {
        await server.stop();
      }
      const created = await db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where stato = 'attiva'`);
      const expected = (round + 1) * (AMOUNT + WARMUP);
      if (created.rows[0]!.n !== expected) throw new Error(`${created.rows[0]!.n} active bookings, expected ${expected}`);
      const bare = await bareBaseline(
        { connections: CONNECTIONS, seconds: 10, method: 'POST', headers, bodies, cookies: cookies.slice(0, 200) },
        sampleAnswer,
      );
      rowsOut[0]!.runs.push({ ...app, ratio: app.requestsPerSec / bare.requestsPerSec });
      rowsOut[1]!.runs.push({ ...bare, ratio: 1 });
      console.log(`      round ${round + 1}: app ${fmt(app.requestsPerSec)} bookings/s (p99 ${app.p99Ms} ms), bare ${fmt(bare.requestsPerSec)} req/s`);
    }
    console.log(
      `\n## Bookings: POST /api/prenotazioni — ${CONNECTIONS} clients, ${fmt(AMOUNT)} bookings per run (each its own user, ` +
        `bike and hour), ${BIKES} bikes, half residents; median of ${rounds} rounds\n`,
    );
    printTable(rowsOut);
    const okErrors = rowsOut[0]!.runs.every((r) => r.errors === 0 && r.non2xx === 0);
    console.log(`\n${okErrors ? 'PASS' : 'FAIL'}  every booking created (201), as many active bookings in the database`);
    return okErrors;
  } finally {
    await bench.close();
  }
}
