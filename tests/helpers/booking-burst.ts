import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client.js';
import type { BurstAnswer, BurstPlan } from './burst-client.js';
import { allowedDay, readServiceDays } from './days.js';
import { ROOT } from './server-process.js';

/**
 * The booking burst of issues 19, 12 and 50: many users, a few bikes, one day, random 1–3 h
 * windows from 06:00 to 19:30, every attempt in flight at once. Shared by the two-process test
 * (many-processes.test.ts), the four-process one (four-processes.test.ts) and `npm run bench --
 * burst`, so that the three measure the same thing.
 */
export interface BurstAttempt {
  cookie: string;
  body: { dataPrenotazione: string; orarioInizio: string; orarioFine: string; destinazione: string; biciId: number };
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** `count` attempts from a fixed seed: the same attempts every run (a linear congruential generator). */
export function burstAttempts(options: { count: number; cookies: readonly string[]; bikeIds: readonly number[]; day: string; seed?: number }): BurstAttempt[] {
  let seed = options.seed ?? 12;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  return Array.from({ length: options.count }, () => {
    const start = 6 * 60 + 30 * random(28); // 06:00 … 19:30
    const end = start + 60 * (1 + random(3)); // 1 … 3 h
    return {
      cookie: options.cookies[random(options.cookies.length)]!,
      body: {
        dataPrenotazione: options.day,
        orarioInizio: hhmm(start),
        orarioFine: hhmm(end),
        destinazione: 'Centro',
        biciId: options.bikeIds[random(options.bikeIds.length)]!,
      },
    };
  });
}

/** `count` new bikes numbered `<prefix>-1…`, their ids. */
export async function burstBikes(db: Database['db'], prefix: string, count: number): Promise<number[]> {
  const rows = await db.execute<{ id: number }>(sql`
    insert into biciclette (numero, modello) select ${prefix} || '-' || g, 'City Bike' from generate_series(1, ${count}::int) g returning id`);
  return rows.rows.map((r) => r.id);
}

/** A day the rules allow from the burst's first window (06:00) to its last (21:30–22:30): tests/helpers/days.ts. */
export async function burstDay(db: Database['db']): Promise<string> {
  const windows = [{ orarioInizio: '06:00', orarioFine: '07:00' }, { orarioInizio: '21:30', orarioFine: '22:30' }];
  return allowedDay(await readServiceDays(db), { now: new Date(), windows });
}

/** What SQL finds after a burst: overlapping active bookings on a bike, users holding two active ones, and the active bookings. */
export async function burstInvariants(db: Database['db']): Promise<{ overlaps: number; doubles: number; active: number }> {
  const { rows } = await db.execute<{ overlaps: number; doubles: number; active: number }>(sql`
    select (select count(*) from prenotazioni a join prenotazioni b on a.bici_id = b.bici_id and a.id < b.id
             where a.stato = 'attiva' and b.stato = 'attiva'
               and tstzrange(a.inizio, a.fine, '[)') && tstzrange(b.inizio, b.fine, '[)'))::int as overlaps,
           (select count(*) from (select user_id from prenotazioni where stato = 'attiva' group by user_id having count(*) > 1) d)::int as doubles,
           (select count(*) from prenotazioni where stato = 'attiva')::int as active`);
  return rows[0]!;
}

/** Counts by status, in ascending order of status: `[[201, 21], [409, 19979]]`. */
export function countByStatus(statuses: Iterable<number>): [number, number][] {
  const by = new Map<number, number>();
  for (const s of statuses) by.set(s, (by.get(s) ?? 0) + 1);
  return [...by].sort((a, b) => a[0] - b[0]);
}

/** Each distinct text with how many times it came, most frequent first: `"409 La bici… ×19,000; 503 … ×12"`. */
export function countByMessage(texts: Iterable<string>): string {
  const by = new Map<string, number>();
  for (const t of texts) by.set(t, (by.get(t) ?? 0) + 1);
  return [...by].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ×${n.toLocaleString('en-US')}`).join('; ');
}

/** The q-quantile (0…1) of `values`, nearest rank; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * The resident memory of processes, read from outside (`/proc/<pid>/status`, VmRSS) every
 * `intervalMs`: what the kernel charges them, heap, buffers and code alike. `peakMb(pid)` is the
 * highest sample; `hwmMb(pid)` the kernel's own high-water mark (VmHWM), which a sample can miss.
 */
export function sampleRss(pids: readonly number[], intervalMs = 100) {
  const peaks = new Map<number, number>(pids.map((p) => [p, 0]));
  const status = (pid: number) => fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const mb = (text: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024;
  const sample = async () => {
    for (const pid of pids) peaks.set(pid, Math.max(peaks.get(pid)!, mb(await status(pid), 'VmRSS')));
  };
  const timer = setInterval(() => void sample(), intervalMs);
  return {
    peakMb: (pid: number) => peaks.get(pid) ?? 0,
    rssMb: async (pid: number) => mb(await status(pid), 'VmRSS'),
    hwmMb: async (pid: number) => mb(await status(pid), 'VmHWM'),
    stop: () => clearInterval(timer),
  };
}

/**
 * Runs `attempts` (attempt i at `servers[i % servers.length]`) from `clients` client processes
 * (tests/helpers/burst-client.ts, bundled at `clientScript`), all beginning at one instant, and
 * returns the answers in the attempts' order with the burst's wall time.
 */
export async function runBurst(options: {
  clientScript: string;
  servers: readonly string[];
  attempts: readonly BurstAttempt[];
  clients: number;
  workDir: string;
  /** Connections to each process from all the clients together (BurstPlan.socketsPerServer); default one per attempt. */
  connectionsPerServer?: number;
}): Promise<{ answers: BurstAnswer[]; seconds: number }> {
  const { clients, servers } = options;
  const shards: BurstPlan['attempts'][] = Array.from({ length: clients }, () => []);
  const where: [number, number][] = [];
  options.attempts.forEach((a, i) => {
    const shard = i % clients;
    where.push([shard, shards[shard]!.length]);
    shards[shard]!.push({ server: i % servers.length, cookie: a.cookie, body: a.body });
  });
  const children = await Promise.all(
    shards.map(async (attempts, k) => {
      const planFile = path.join(options.workDir, `burst-plan-${k}.json`);
      const outFile = path.join(options.workDir, `burst-answers-${k}.json`);
      const socketsPerServer = options.connectionsPerServer ? Math.ceil(options.connectionsPerServer / clients) : undefined;
      await fs.writeFile(planFile, JSON.stringify({ servers: [...servers], attempts, ...(socketsPerServer ? { socketsPerServer } : {}) } satisfies BurstPlan));
      const child = spawn(process.execPath, [options.clientScript, planFile, outFile], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      // Each client has read its plan before any begins.
      await Promise.race([
        new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('ready\n') && resolve())),
        exited.then((code) => Promise.reject(new Error(`burst client ${k} exited with ${code} before it was ready:\n${out}`))),
      ]);
      return { child, exited, outFile, output: () => out };
    }),
  );
  const started = performance.now();
  for (const c of children) c.child.stdin.end('go\n');
  const runs = await Promise.all(
    children.map(async (c, k) => {
      const code = await c.exited;
      if (code !== 0) throw new Error(`burst client ${k} exited with ${code}:\n${c.output()}`);
      return JSON.parse(await fs.readFile(c.outFile, 'utf8')) as BurstAnswer[];
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { answers: where.map(([shard, j]) => runs[shard]![j]!), seconds };
}

/**
 * Node's flags of `npm start` (package.json's `start` script: source maps, and decision 041's
 * young generation and heap growth), so that a process a burst starts runs as production does.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((a) => a.startsWith('--'));
}
