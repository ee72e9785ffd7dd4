import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { createTestDatabase } from '../helpers/db.js';
import { bundleEntryPoints, freePort, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';
import { loadDays, slotBooking, until as waitUntil } from '../helpers/booking-load.js';

/**
 * Issue 32, "a graceful shutdown loses no answer": the app as a real process (today's source,
 * bundled as `npm run build` bundles it) on a PostgreSQL of its own, under a booking load from
 * 32 keep-alive clients, stopped with SIGTERM; 20 times in a row. Every attempt carries a
 * marker of its own (its `destinazione`), so the database tells afterwards whether an attempt
 * that got no answer was stored: such an attempt is an answer lost (the person would not know
 * they have a booking). A request the app will not serve may be refused or cut before it is
 * read, never after it was stored.
 */
const CYCLES = 20;
const CLIENTS = 32;
/** Attempts a cycle may make at most: each one has a user and a window of its own. */
const PER_CYCLE = 400;
const BIKES = 50;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
let server: ServerProcess | undefined;
let cookies: string[];
/** The days the attempts book, allowed by the rules (tests/helpers/days.ts). */
let days: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  bundle = await bundleEntryPoints('graceful-shutdown');
  await database.db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, ${BIKES}::int) g`);
  ({ cookies } = await usersWithSessions(database.db, 'sigterm', CYCLES * PER_CYCLE));
  days = await loadDays(database.db, CYCLES * PER_CYCLE, BIKES);
}, 180_000);

afterAll(async () => {
  if (server) {
    stopGroup(server.child, 'SIGKILL');
    await waitForExit(server.child).catch(() => undefined);
  }
  await database?.drop();
  await bundle?.remove();
});

async function start(): Promise<ServerProcess> {
  const port = String(await freePort());
  server = await startServer(['node', bundle.file('main')], {
    PORT: port,
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: path.join(bundle.dir, 'data'),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: 'false',
  });
  return server;
}

const marker = (n: number) => `sigterm-${n}`;

/** Attempt n: a bike, day and hour of its own and the marker, so that every attempt may succeed. */
const bookingBody = (n: number) => slotBooking(n, days, BIKES, marker(n));

interface Attempt {
  n: number;
  /** The status of a whole answer (headers and body read), or the error that came instead. */
  status?: number;
  retryAfter?: string | null;
  id?: number;
  error?: string;
  /** performance.now() when the answer (or the error) came. */
  at: number;
}

/** What an error of fetch says about the connection: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET… */
function errorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/**
 * 32 clients (fetch: keep-alive connections) booking one after another with attempts
 * first…first+count until `stop()`. A client stops at a refused connection (the port is
 * closed: the process is going); after any other error it asks again.
 */
function bookingLoad(target: ServerProcess, first: number, count: number) {
  const attempts: Attempt[] = [];
  let next = first;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < first + count) {
      const n = next++;
      try {
        const res = await fetch(`${target.url}/api/prenotazioni`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: target.url, cookie: cookies[n]! },
          body: JSON.stringify(bookingBody(n)),
        });
        // The answer counts once its body is read: a connection cut mid-body is no answer.
        const body = (await res.json()) as { id?: number };
        attempts.push({ n, status: res.status, retryAfter: res.headers.get('retry-after'), id: body.id, at: performance.now() });
      } catch (err) {
        const error = errorCode(err);
        attempts.push({ n, error, at: performance.now() });
        if (error === 'ECONNREFUSED') return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, worker));
  return {
    attempts,
    created: () => attempts.filter((a) => a.status === 201).length,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

const until = (condition: () => boolean, timeoutMs?: number) => waitUntil(condition, timeoutMs, 5);

describe('SIGTERM under a booking load, 20 times in a row', () => {
  it('answers every request it stored, refuses or cuts only what it did not store, exits 0', { timeout: 300_000 }, async () => {
    const lost: Attempt[] = [];
    const unexpected: Attempt[] = [];
    const totals = { created: 0, afterSignal: 0, cutUnstored: 0, refused: 0, unavailable: 0 };
    const cutCodes = new Map<string, number>();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const running = await start();
      const first = cycle * PER_CYCLE;
      const load = bookingLoad(running, first, PER_CYCLE);
      // A few rounds of answers first, so that every client holds a keep-alive connection
      // and the signal finds requests at every stage: being read, in a transaction, answered.
      await until(() => load.created() >= 2 * CLIENTS || load.attempts.some((a) => a.error !== undefined));
      const signalledAt = performance.now();
      process.kill(running.child.pid!, 'SIGTERM');
      const code = await waitForExit(running.child);
      await load.stop();
      expect(code, running.output().slice(-2000)).toBe(0);
      server = undefined;

      // What the database holds for this cycle's attempts, by marker.
      const stored = await database.db.execute<{ id: number; destinazione: string }>(
        sql`select id, destinazione from prenotazioni where destinazione like 'sigterm-%'
              and substr(destinazione, 9)::int >= ${first} and substr(destinazione, 9)::int < ${first + PER_CYCLE}`,
      );
      const byMarker = new Map(stored.rows.map((r) => [r.destinazione, r.id]));
      for (const a of load.attempts) {
        const id = byMarker.get(marker(a.n));
        if (a.error !== undefined) {
          if (id !== undefined) lost.push(a);
          else if (a.error === 'ECONNREFUSED') totals.refused++;
          else {
            totals.cutUnstored++;
            cutCodes.set(a.error, (cutCodes.get(a.error) ?? 0) + 1);
          }
        } else if (a.status === 201) {
          totals.created++;
          if (a.at >= signalledAt) totals.afterSignal++;
          if (id !== a.id) unexpected.push(a);
        } else if (a.status === 503 && a.retryAfter && id === undefined) {
          totals.unavailable++;
        } else {
          unexpected.push(a);
        }
      }
      // Nothing stored that no attempt of this cycle made.
      expect(stored.rows.length).toBe(load.attempts.filter((a) => a.status === 201).length + lost.filter((a) => a.n >= first).length);
    }
    console.log(
      `      ${CYCLES} SIGTERMs: ${totals.created} bookings answered 201 (${totals.afterSignal} after the signal), ` +
        `${totals.unavailable} answered 503, ${totals.refused} refused at the closed port, ` +
        `${totals.cutUnstored} cut before being read (not stored${cutCodes.size ? `: ${[...cutCodes].map(([c, k]) => `${k} ${c}`).join(', ')}` : ''}), ${lost.length} stored without an answer (lost)`,
    );
    expect(lost).toEqual([]);
    expect(unexpected).toEqual([]);
    // The signal found requests in flight, and they were answered.
    expect(totals.afterSignal).toBeGreaterThan(0);
  });
});
