import net from 'node:net';
import { Writable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { ManualClock } from '../../src/server/clock.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { createLogger, logFormatFor } from '../../src/server/logger.js';
import { createTestApp, TEST_NOW, testConfig, type TestContext } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { freePort, startServer, stopGroup, waitForExit } from '../helpers/server-process.js';

/**
 * GET /api/ready (issue 24, decision 032): what a load balancer asks before sending traffic.
 * 200 only when the database answers and every migration of the journal is applied; 503 before
 * that, and from the moment a stop begins. /api/health (liveness) keeps its answers.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const ready = (app: TestContext['app']) => app.inject({ method: 'GET', url: '/api/ready' });

describe('readiness', () => {
  it('200 on a migrated database, never cached; /api/health unchanged', async () => {
    const res = await ready(ctx.app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ status: 'ready', db: 'ok' });
    expect(body.migrations).toBeGreaterThan(10);
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('503 on a database with no migrations, then 200 once they are applied', async () => {
    const empty = await createTestDatabase({ empty: true });
    const app = await buildApp({ config: testConfig(), database: empty, clock: new ManualClock(TEST_NOW), logger: false });
    try {
      const before = await ready(app);
      expect(before.statusCode).toBe(503);
      expect(before.headers['cache-control']).toBe('no-store');
      expect(before.json()).toEqual({ message: 'Servizio non ancora pronto: aggiornamento del database in corso', code: 'MIGRATIONS_PENDING' });
      // Alive all the same: liveness is not readiness.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await runMigrations(empty.db);
      expect((await ready(app)).statusCode).toBe(200);
    } finally {
      await app.close();
      await empty.drop();
    }
  });

  it('503 while one migration of the journal is missing from the applied list', async () => {
    const { rows } = await ctx.database.db.execute<{ id: number; hash: string; created_at: string }>(
      sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const last = rows[0]!;
    await ctx.database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    try {
      const res = await ready(ctx.app);
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('MIGRATIONS_PENDING');
    } finally {
      await ctx.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, ${last.hash}, ${last.created_at}::bigint)`,
      );
    }
    expect((await ready(ctx.app)).statusCode).toBe(200);
  });

  it('503 with the reason when the database does not answer', async () => {
    const gone = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database: gone, clock: new ManualClock(TEST_NOW), logger: false });
    try {
      await gone.drop();
      const res = await ready(app);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Servizio momentaneamente non disponibile, riprova tra qualche secondo', code: 'DB_UNAVAILABLE', db: 'down' });
      expect(res.headers['retry-after']).toBe('2');
    } finally {
      await app.close();
    }
  });

  it('503 from the moment the drain begins, answers in flight still given', async () => {
    const own = await createTestApp();
    try {
      expect((await ready(own.app)).statusCode).toBe(200);
      own.app.beginDrain();
      const res = await ready(own.app);
      expect(res.statusCode).toBe(503);
      expect(res.headers.connection).toBe('close');
      expect(res.json()).toEqual({ message: 'Servizio in arresto: invia le richieste a un altro server', code: 'SHUTTING_DOWN' });
      expect((await own.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('readiness of a real process receiving SIGTERM', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('503 from the signal on, through DRAIN_DELAY_MS and while a slow request keeps the drain going; then a clean stop', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const server = await startServer(['node', '--import', 'tsx', 'src/server/main.ts'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: path.join(os.tmpdir(), `bicielis-ready-${port}`),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      DRAIN_DELAY_MS: '1500',
    });
    const readyUrl = `${server.url}/api/ready`;
    let slow: net.Socket | undefined;
    try {
      expect((await fetch(readyUrl)).status).toBe(200);
      // A request whose body is still coming: the drain cannot end before it is answered.
      slow = net.connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => slow!.once('connect', () => resolve()));
      let slowAnswer = '';
      slow.on('data', (d: Buffer) => (slowAnswer += d.toString()));
      const body = JSON.stringify({ email: 'lento@example.it', password: 'Password-Lenta-1' });
      slow.write(
        `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((r) => setTimeout(r, 100));

      const signalled = Date.now();
      process.kill(server.child.pid!, 'SIGTERM');
      // Polled from the signal on: 200 until the signal is handled, then 503 until the port closes.
      let answer = await fetch(readyUrl);
      while (answer.status === 200 && Date.now() - signalled < 1_000) answer = await fetch(readyUrl);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('connection')).toBe('close');
      expect(await answer.json()).toEqual({ message: 'Servizio in arresto: invia le richieste a un altro server', code: 'SHUTTING_DOWN' });
      // Later polls within the delay say the same: the load balancer has time to see it.
      await new Promise((r) => setTimeout(r, 300));
      expect((await fetch(readyUrl)).status).toBe(503);

      // Past the delay the port is closed, but the process still waits for the slow request.
      await new Promise((r) => setTimeout(r, Math.max(0, signalled + 2_500 - Date.now())));
      await expect(fetch(readyUrl)).rejects.toThrow();
      expect(server.child.exitCode).toBeNull();
      slow.write(body.slice(10));
      expect(await waitForExit(server.child, 30_000)).toBe(0);
      expect(slowAnswer).toMatch(/^HTTP\/1\.1 (401|400|429) /);
      expect(slowAnswer.toLowerCase()).toContain('connection: close');
    } finally {
      slow?.destroy();
      stopGroup(server.child, 'SIGKILL');
    }
  });
});

describe('log format', () => {
  it('readable at a terminal, JSON into a pipe or a file, LOG_FORMAT overrides both', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty');
    expect(logFormatFor(undefined, false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
    expect(testConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => testConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('the readable lines hide what the JSON ones hide: authorization, cookies, the calendar token, SQL', () => {
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const log = createLogger('info', sink, 'pretty');
    log.info(
      { req: { method: 'GET', url: '/api/calendario/tok-calendario-segreto.ics', headers: { authorization: 'Bearer tok-metriche-segreto', cookie: 'bicielis_session=tok-sessione' } } },
      'request completed',
    );
    const failed = Object.assign(new Error('Failed query: select * from users where email = $1\nparams: persona@example.it'), {
      cause: new Error('connection refused'),
    });
    log.error({ err: failed }, 'query failed');
    expect(out).toContain('INFO');
    expect(out).toContain('request completed');
    expect(out).toContain('/api/calendario/***');
    expect(out).toContain('connection refused');
    expect(out).not.toMatch(/^\{/);
    for (const secret of ['tok-metriche-segreto', 'tok-sessione', 'tok-calendario-segreto', 'persona@example.it', 'select *']) {
      expect(out, secret).not.toContain(secret);
    }
  });
});
