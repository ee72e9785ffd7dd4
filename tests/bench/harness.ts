import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { build } from 'esbuild';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app.js';
import { systemClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/db/embedded.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { createLogger } from '../../src/server/logger.js';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { FREED_TIME_CHANNEL } from '../../src/server/modules/waitlist/dispatcher.js';
import { AUTH_CHANNEL, SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { ROOT } from '../helpers/server-process.js';
import type { LoadPlan } from './load-process.js';

export interface LoadResult {
  requestsPerSec: number;
  /** Requests completed, and over how many seconds. */
  total: number;
  seconds: number;
  p99Ms: number;
  p50Ms: number;
  non2xx: number;
  errors: number;
}

/**
 * Runs autocannon in its own process (tests/bench/load-process.ts, through autocannon's API,
 * so the load generator never shares the server's event loop) against `url` and returns its
 * summary. `bodies` and `cookies` vary the requests (see load-process.ts).
 */
export async function load(
  url: string,
  options: Omit<LoadPlan, 'url' | 'method' | 'headers'> & { method?: string; body?: string; headers?: Record<string, string> },
): Promise<LoadResult> {
  const { body, ...rest } = options;
  const plan: LoadPlan = {
    ...rest,
    url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(body !== undefined ? { bodies: [body] } : {}),
  };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-load-'));
  const planFile = path.join(dir, 'plan.json');
  await fs.writeFile(planFile, JSON.stringify(plan));
  try {
    const child = spawn(process.execPath, [path.join(await bundle(), 'load-process.mjs'), planFile], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`load generator failed (${String(code)}): ${err}`);
    const json = JSON.parse(out) as {
      requests: { average: number; total: number };
      latency: { p99: number; p50: number };
      duration: number;
      non2xx: number;
      errors: number;
      timeouts: number;
    };
    return {
      // A run of a fixed number of requests ends within a second: autocannon's average of whole
      // seconds would then read 1,000 requests in 4.3 s as 200 or 250 a second. Its duration
      // (10 ms steps) gives the rate itself.
      requestsPerSec: options.amount && json.duration > 0 ? json.requests.total / json.duration : json.requests.average,
      total: json.requests.total,
      seconds: json.duration,
      p99Ms: json.latency.p99,
      p50Ms: json.latency.p50,
      non2xx: json.non2xx,
      errors: json.errors + json.timeouts,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

let bundled: Promise<string> | undefined;

/**
 * The two child scripts (load-process.ts, app-process.ts) bundled with esbuild into
 * .tmp/bench/, as `npm run build` bundles the server: plain node runs them, without tsx's
 * loader thread (about 100 MB of RSS and CPU samples that production does not have).
 */
function bundle(): Promise<string> {
  bundled ??= (async () => {
    const outdir = path.join(ROOT, '.tmp', 'bench');
    await fs.rm(outdir, { recursive: true, force: true });
    await build({
      entryPoints: { 'load-process': path.join(import.meta.dirname, 'load-process.ts'), 'app-process': path.join(import.meta.dirname, 'app-process.ts') },
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      splitting: true,
      packages: 'external',
      logLevel: 'warning',
    });
    return outdir;
  })();
  return bundled;
}

/**
 * The V8 memory flags of `npm start` (package.json; decision 041), given to every server a
 * benchmark starts, the app's and the ceilings' alike, so that they run as production does.
 */
export const START_MEMORY_FLAGS: string[] = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(' ')
  .filter((a) => a.startsWith('--max-') || a.startsWith('--heap-'));

/** A server under load, in its own process (tests/bench/app-process.ts). */
export interface BenchServer {
  base: string;
  pid: number;
  /** Highest RSS of the server process seen since `resetPeakRss` (sampled every 100 ms), MB. */
  peakRssMb(): number;
  resetPeakRss(): void;
  /** The server process's RSS now, MB. */
  rssMb(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts tests/bench/app-process.ts with `env` (BENCH_MODE, DATABASE_URL, …). With
 * BENCH_CPU_PROF=1 in this process's environment the server writes a V8 CPU profile to
 * .tmp/cpu-prof/ when it stops.
 */
export async function startBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const profile = process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', '--cpu-prof-dir', path.join(ROOT, '.tmp', 'cpu-prof')] : [];
  const child = spawn(process.execPath, [...START_MEMORY_FLAGS, ...profile, path.join(await bundle(), 'app-process.mjs')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`bench server exited: ${out}`));
      }
    }, 20);
  });
  let peak = 0;
  const sample = async () => {
    const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  };
  const sampler = setInterval(() => void sample(), 100);
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    peakRssMb: () => peak,
    rssMb: async () => Number(/VmRSS:\s+(\d+)/.exec(await fs.readFile(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    resetPeakRss: () => {
      peak = 0;
    },
    async stop() {
      clearInterval(sampler);
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface BenchDb {
  database: Database;
  url: string;
  /** The CPU time (ms, user + system) PostgreSQL's processes have used so far: the postmaster's children, live ones. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** A process's CPU time (ms, user + system) from /proc/<pid>/stat, 0 once it has gone. */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return 0;
  // The fields after the command's closing parenthesis: utime is the 12th, stime the 13th (clock ticks, USER_HZ 100).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A fresh embedded PostgreSQL with a migrated database, for one benchmark. */
export async function benchDatabase(): Promise<BenchDb> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-bench-'));
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dir, createLogger('warn'));
  const database = connectDatabase(embedded.url, { max: 10 });
  await runMigrations(database.db);
  const postmaster = Number((await fs.readFile(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return {
    database,
    url: embedded.url,
    async cpuMs() {
      // Each connection is a child of the postmaster (its parent is the 4th field of stat).
      let total = await processCpuMs(postmaster);
      for (const entry of await fs.readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) total += await processCpuMs(Number(entry));
      }
      return total;
    },
    async close() {
      await database.close();
      await embedded.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The real app on `database`, listening on a free loopback port (with the built web app from `webRoot`). */
export async function listenApp(
  database: Database,
  url: string,
  options: { webRoot?: string } = {},
): Promise<{ app: FastifyInstance; base: string }> {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://bench', PUBLIC_URL: 'http://127.0.0.1' });
  // As in main.ts: the session cache, kept coherent by the database's notifications, and
  // freed time served by this process's dispatcher (decision 035).
  const sessionCache = new SessionCache();
  const app = await buildApp({
    config,
    database,
    sessionCache,
    clock: systemClock,
    logger: false,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  });
  const listener = listenForChanges(url, { [AUTH_CHANNEL]: sessionCache, [FREED_TIME_CHANNEL]: app.freedTime }, createLogger('warn'));
  await listener.ready;
  app.addHook('onClose', () => listener.stop());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, base: `http://127.0.0.1:${port}` };
}

/**
 * A bare Fastify process answering a constant (the same bytes the real route answered, with
 * the same compression plugin): the ceiling of this machine for comparison.
 */
export async function bareBaseline(
  options: Omit<Parameters<typeof load>[1], 'method'> & { method: 'GET' | 'POST' },
  constantBody: string,
): Promise<LoadResult & { rssMb: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-bare-'));
  const bodyFile = path.join(dir, 'body.json');
  await fs.writeFile(bodyFile, constantBody);
  const server = await startBenchServer({ BENCH_MODE: 'bare', BENCH_BARE_METHOD: options.method, BENCH_BARE_BODY: bodyFile });
  try {
    const result = await load(`${server.base}/const`, options);
    return { ...result, rssMb: server.peakRssMb() };
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function sqlQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
