import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app.js';
import { systemClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/db/embedded.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { createLogger } from '../../src/server/logger.js';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { AUTH_CHANNEL, SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { AVAILABILITY_CHANNEL, availabilityCacheFor } from '../../src/server/modules/bookings/availability-cache.js';
import { ROOT } from '../helpers/server-process.js';

export interface LoadResult {
  requestsPerSec: number;
  p99Ms: number;
  p50Ms: number;
  non2xx: number;
  errors: number;
}

/**
 * Runs autocannon in its own process (so the load generator does not share the server's
 * event loop) against `url` and returns its summary.
 */
export async function load(
  url: string,
  options: { connections: number; seconds: number; method?: string; body?: string; headers?: Record<string, string> },
): Promise<LoadResult> {
  const args = ['-c', String(options.connections), '-d', String(options.seconds), '-j', '--renderStatusCodes'];
  if (options.method) args.push('-m', options.method);
  if (options.body) args.push('-b', options.body);
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(url);
  const child = spawn(path.join(ROOT, 'node_modules/.bin/autocannon'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.on('exit', resolve));
  const json = JSON.parse(out) as {
    requests: { average: number };
    latency: { p99: number; p50: number };
    non2xx: number;
    errors: number;
  };
  return {
    requestsPerSec: json.requests.average,
    p99Ms: json.latency.p99,
    p50Ms: json.latency.p50,
    non2xx: json.non2xx,
    errors: json.errors,
  };
}

export interface BenchDb {
  database: Database;
  url: string;
  close(): Promise<void>;
}

/** A fresh embedded PostgreSQL with a migrated database, for one benchmark. */
export async function benchDatabase(): Promise<BenchDb> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-bench-'));
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dir, createLogger('warn'));
  const database = connectDatabase(embedded.url, { max: 10 });
  await runMigrations(database.db);
  return {
    database,
    url: embedded.url,
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
  // As in main.ts: the session and availability caches, kept coherent by the database's notifications.
  const sessionCache = new SessionCache();
  const listener = listenForChanges(
    url,
    { [AUTH_CHANNEL]: sessionCache, [AVAILABILITY_CHANNEL]: availabilityCacheFor(database.db) },
    createLogger('warn'),
  );
  await listener.ready;
  const app = await buildApp({
    config,
    database,
    sessionCache,
    clock: systemClock,
    logger: false,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  });
  app.addHook('onClose', () => listener.stop());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, base: `http://127.0.0.1:${port}` };
}

/** A bare Fastify route returning a constant: the ceiling of this machine for comparison. */
export async function bareBaseline(
  connections: number,
  seconds: number,
  method: 'GET' | 'POST',
  constantBody: string,
): Promise<LoadResult> {
  const app = Fastify({ logger: false });
  // The same bytes the real route answered, sent as a constant.
  app.route({ method, url: '/const', handler: async (_req, reply) => reply.type('application/json; charset=utf-8').send(constantBody) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const result = await load(`http://127.0.0.1:${port}/const`, {
    connections,
    seconds,
    method,
    ...(method === 'POST' ? { body: '{"a":1}', headers: { 'content-type': 'application/json' } } : {}),
  });
  await app.close();
  return result;
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
