/**
 * `npm run soak` (issue 12): two app processes on one PostgreSQL under a mixed load for
 * SOAK_MINUTES (default 3), with one of them killed (`kill -9`) and restarted every
 * SOAK_KILL_SECONDS (default 45), alternately. Every 15 s it checks, with SQL, that no bike
 * has two overlapping active bookings and no user two active ones, and samples each
 * process's RSS. It fails on any 5xx, any broken invariant, a restart slower than 15 s, or
 * RSS growing by more than 100 MB between the first and the last sample of a process's life.
 *
 * The load, 24 clients spread over both processes: 60 % availability for a random window,
 * 25 % a booking (random user, bike and window: many 409s, as on a busy day), 15 % the
 * cancellation of a booking made earlier. A request to a process being restarted fails to
 * connect and is counted as "refused"; the client tries the other one next.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { benchDatabase, fmt } from '../bench/harness.js';
import { usersWithSessions } from '../helpers/bulk-users.js';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { bundleEntryPoints, freePort, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 3);
const KILL_EVERY_MS = Number(process.env.SOAK_KILL_SECONDS ?? 45) * 1000;
const CLIENTS = 24;
const BIKES = 20;
const USERS = 2000;

interface Interval {
  requests: number;
  ok: number;
  conflicts: number;
  otherClientErrors: number;
  serverErrors: number;
  refused: number;
}
const blank = (): Interval => ({ requests: 0, ok: 0, conflicts: 0, otherClientErrors: 0, serverErrors: 0, refused: 0 });

function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const bench = await benchDatabase();
const bundle = await bundleEntryPoints('soak');
const slots: (ServerProcess | undefined)[] = [undefined, undefined];
const lives: { slot: number; pid: number; rss: number[] }[] = [];
const restarts: number[] = [];
const failures: string[] = [];

async function startSlot(slot: number): Promise<number> {
  const port = String(await freePort());
  const server = await startServer(['node', bundle.file('main')], {
    PORT: port,
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    DATABASE_URL: bench.url,
    DATA_DIR: path.join(bundle.dir, `data-${slot}`),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  slots[slot] = server;
  lives.push({ slot, pid: server.child.pid!, rss: [] });
  return server.readyMs;
}

try {
  const { db } = bench.database;
  await db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, ${BIKES}::int) g`);
  const bikeIds = (await db.execute<{ id: number }>(sql`select id from biciclette order by id`)).rows.map((r) => r.id);
  const { cookies } = await usersWithSessions(db, 'soak', USERS);
  await startSlot(0);
  await startSlot(1);

  // A week of days the rules allow from 06:00 to 22:30 (tests/helpers/days.ts).
  const windows = [{ orarioInizio: '06:00', orarioFine: '07:00' }, { orarioInizio: '21:30', orarioFine: '22:30' }];
  const days = allowedDays(await readServiceDays(db), { now: new Date(), count: 7, windows });
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const window = () => {
    const start = 6 * 60 + 30 * Math.floor(Math.random() * 28);
    const end = start + 30 * (1 + Math.floor(Math.random() * 6));
    return { dataPrenotazione: pick(days), orarioInizio: hhmm(start), orarioFine: hhmm(end) };
  };
  /** Bookings made, by the cookie of their owner: what the cancellations cancel. */
  const made: { cookie: string; id: number }[] = [];

  const intervals: Interval[] = [blank()];
  const current = () => intervals[intervals.length - 1]!;
  const endAt = Date.now() + MINUTES * 60_000;
  let turn = 0;

  const client = async () => {
    while (Date.now() < endAt) {
      const server = slots[turn++ % 2] ?? slots[turn % 2];
      if (!server) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const dice = Math.random();
      let method = 'POST';
      let url = '/api/biciclette/available';
      let cookie = pick(cookies);
      let body: unknown = window();
      if (dice >= 0.6 && dice < 0.85) {
        url = '/api/prenotazioni';
        body = { ...window(), destinazione: 'Centro', biciId: pick(bikeIds) };
      } else if (dice >= 0.85 && made.length > 0) {
        const booking = made.splice(Math.floor(Math.random() * made.length), 1)[0]!;
        method = 'DELETE';
        url = `/api/prenotazioni/${booking.id}`;
        cookie = booking.cookie;
        body = undefined;
      }
      const stats = current();
      stats.requests++;
      try {
        const res = await fetch(`${server.url}${url}`, {
          method,
          headers: { origin: server.url, cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const answer = (await res.json().catch(() => ({}))) as { id?: number };
        if (res.status >= 500) {
          stats.serverErrors++;
          failures.push(`${res.status} on ${method} ${url}`);
        } else if (res.status === 409) stats.conflicts++;
        else if (res.status >= 400) stats.otherClientErrors++;
        else {
          stats.ok++;
          if (url === '/api/prenotazioni' && res.status === 201 && answer.id) made.push({ cookie, id: answer.id });
        }
      } catch {
        stats.refused++;
      }
    }
  };

  const checker = async () => {
    let nextKill = Date.now() + KILL_EVERY_MS;
    let victim = 0;
    while (Date.now() < endAt) {
      await new Promise((r) => setTimeout(r, 15_000));
      for (const life of lives) if (slots[life.slot]?.child.pid === life.pid) life.rss.push(rssMb(life.pid));
      const overlaps = await db.execute<{ n: number }>(sql`
        select count(*)::int as n from prenotazioni a join prenotazioni b on a.bici_id = b.bici_id and a.id < b.id
         where a.stato = 'attiva' and b.stato = 'attiva' and tstzrange(a.inizio, a.fine, '[)') && tstzrange(b.inizio, b.fine, '[)')`);
      const doubles = await db.execute<{ n: number }>(sql`
        select count(*)::int as n from (select user_id from prenotazioni where stato = 'attiva' group by user_id having count(*) > 1) d`);
      if (overlaps.rows[0]!.n > 0) failures.push(`${overlaps.rows[0]!.n} overlapping active bookings`);
      if (doubles.rows[0]!.n > 0) failures.push(`${doubles.rows[0]!.n} users with two active bookings`);
      const i = current();
      const rss = slots.map((s) => (s ? `${Math.round(rssMb(s.child.pid!))} MB` : '—')).join(' / ');
      console.log(
        `  ${String(intervals.length * 15).padStart(4)} s  ${fmt(i.requests).padStart(6)} req  ${fmt(i.ok).padStart(6)} 2xx  ` +
          `${fmt(i.conflicts).padStart(5)} 409  ${String(i.otherClientErrors).padStart(4)} other 4xx  ${String(i.serverErrors).padStart(3)} 5xx  ` +
          `${String(i.refused).padStart(4)} refused  RSS ${rss}  invariants ${overlaps.rows[0]!.n + doubles.rows[0]!.n === 0 ? 'ok' : 'BROKEN'}`,
      );
      intervals.push(blank());
      if (Date.now() >= nextKill && Date.now() < endAt - 10_000) {
        const dying = slots[victim]!;
        slots[victim] = undefined;
        process.kill(dying.child.pid!, 'SIGKILL');
        await waitForExit(dying.child);
        const readyMs = await startSlot(victim);
        restarts.push(readyMs);
        console.log(`         kill -9 of process ${victim + 1}; restarted, answering in ${Math.round(readyMs)} ms`);
        victim = 1 - victim;
        nextKill = Date.now() + KILL_EVERY_MS;
      }
    }
  };

  console.log(`\n## Soak: two app processes on one PostgreSQL, ${CLIENTS} clients, ${MINUTES} min, kill -9 every ${KILL_EVERY_MS / 1000} s`);
  await Promise.all([checker(), ...Array.from({ length: CLIENTS }, client)]);

  const total = intervals.reduce((sum, i) => ({
    requests: sum.requests + i.requests,
    ok: sum.ok + i.ok,
    conflicts: sum.conflicts + i.conflicts,
    otherClientErrors: sum.otherClientErrors + i.otherClientErrors,
    serverErrors: sum.serverErrors + i.serverErrors,
    refused: sum.refused + i.refused,
  }));
  const growth = lives.filter((l) => l.rss.length >= 2).map((l) => l.rss[l.rss.length - 1]! - l.rss[0]!);
  console.log(
    `\n  total ${fmt(total.requests)} requests: ${fmt(total.ok)} 2xx, ${fmt(total.conflicts)} 409, ${total.otherClientErrors} other 4xx, ` +
      `${total.serverErrors} 5xx, ${total.refused} refused (process down)`,
  );
  console.log(`  restarts: ${restarts.map((ms) => `${Math.round(ms)} ms`).join(', ') || 'none'}`);
  console.log(`  RSS growth within a process's life: ${growth.map((g) => `${g >= 0 ? '+' : ''}${Math.round(g)} MB`).join(', ') || 'n/a'}`);
  if (restarts.some((ms) => ms > 15_000)) failures.push('a restart took more than 15 s');
  if (growth.some((g) => g > 100)) failures.push('RSS grew by more than 100 MB');
  for (const f of [...new Set(failures)].slice(0, 20)) console.log(`FAIL  ${f}`);
  console.log(failures.length === 0 ? 'PASS  no 5xx, invariants held at every check, restarts < 15 s, RSS steady' : 'FAIL');
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  for (const s of slots) {
    if (!s) continue;
    stopGroup(s.child, 'SIGTERM');
    await waitForExit(s.child).catch(() => stopGroup(s.child, 'SIGKILL'));
  }
  await bench.close();
  await bundle.remove();
}
