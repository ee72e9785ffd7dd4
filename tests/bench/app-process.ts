/**
 * The server side of a load benchmark, run as its own process by `harness.ts`
 * (`startBenchServer`) so that its CPU and RSS are its own and it can be profiled
 * (`BENCH_CPU_PROF=1 npm run bench -- availability` writes .cpuprofile files to .tmp/cpu-prof).
 *
 * BENCH_MODE=app: the real app on DATABASE_URL, as main.ts builds it (the session cache kept
 * coherent by notifications; every availability request queries PostgreSQL).
 * BENCH_MODE=bare: a bare Fastify process with the same compression plugin and options as
 * the app, answering `BENCH_BARE_METHOD /const` with the bytes of the file BENCH_BARE_BODY.
 * BENCH_MODE=bare-query: the ceiling of a route that must ask the database (TechEmpower's
 * "single query"): bare Fastify, the same compression, a pool of 10, and per request one
 * indexed query (a bike by its primary key, a random one of 50) sent back as JSON.
 * BENCH_MODE=bare-insert: the ceiling of a write: per request one transaction that inserts a
 * row (`begin; insert …; commit`) into `guard_ceiling`, answered 201.
 * BENCH_MODE=bare-booking: the database's own share of a booking (booking-floor.ts): bare
 * Fastify, a pool of 10, per request one transaction that inserts the next booking of the
 * sequence `floor_n` into `prenotazioni`, its constraints and triggers included, answered 201;
 * none of the app's reads, checks or locks.
 * With BENCH_WEB=1 the app serves the built web app and renders /dashboard and /admin on the
 * server (dist/web, dist/ssr: `npm run build` first), as main.ts does.
 *
 * Prints `PORT <n>` once listening; closes cleanly on SIGTERM (so a CPU profile is written).
 */
import fs from 'node:fs';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';

async function appServer(url: string): Promise<FastifyInstance> {
  // Loaded only here: the bare process should not carry the app's modules in its RSS.
  const { buildApp } = await import('../../src/server/app.js');
  const { systemClock } = await import('../../src/server/clock.js');
  const { loadConfig } = await import('../../src/server/config.js');
  const { connectDatabase } = await import('../../src/server/db/client.js');
  const { listenForChanges } = await import('../../src/server/db/notifications.js');
  const { createLogger } = await import('../../src/server/logger.js');
  const { AUTH_CHANNEL, SessionCache } = await import('../../src/server/modules/auth/session-cache.js');
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: url, PUBLIC_URL: 'http://127.0.0.1' });
  const database = connectDatabase(url);
  const sessionCache = new SessionCache();
  const { RULES_CHANNEL, RulesCache } = await import('../../src/server/modules/rules/store.js');
  const rulesCache = new RulesCache();
  const { FREED_TIME_CHANNEL } = await import('../../src/server/modules/waitlist/dispatcher.js');
  const web = process.env.BENCH_WEB === '1';
  const path = await import('node:path');
  const { projectRoot } = await import('../../src/server/db/migrate.js');
  const { loadPageRenderer } = await import('../../src/server/pages/server-render.js');
  const app = await buildApp({
    config,
    database,
    sessionCache,
    rulesCache,
    clock: systemClock,
    logger: false,
    ...(web
      ? {
          webRoot: path.join(projectRoot, 'dist', 'web'),
          pageRenderer: await loadPageRenderer(path.join(projectRoot, 'dist', 'ssr', 'entry-server.js'), createLogger('warn')),
        }
      : {}),
  });
  // As main.ts wires it: the sessions and the service's rules kept in memory, told of changes,
  // and freed time served by this process's dispatcher (decision 035).
  const listener = listenForChanges(
    url,
    { [AUTH_CHANNEL]: sessionCache, [RULES_CHANNEL]: rulesCache, [FREED_TIME_CHANNEL]: app.freedTime },
    createLogger('warn'),
  );
  await listener.ready;
  app.addHook('onClose', async () => {
    await listener.stop();
    await database.close();
  });
  return app;
}

async function bareServer(method: 'GET' | 'POST', body: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  // The same compression as the app (src/server/app.ts), so both send the same bytes.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  app.route({ method, url: '/const', handler: async (_req, reply) => reply.type('application/json; charset=utf-8').send(body) });
  return app;
}

/** Bare Fastify, the same compression, and per request one statement of the database's. */
/**
 * The next booking of `bare-booking`: row n of the sequence `floor_n` (the bench makes it) is user
 * BENCH_FLOOR_FIRST_USER + n on bike 1 + n % 50, in its own half hour from 06:00 to 22:00 of the
 * days from 2031-01-06: every insert a new row that conflicts with none. The instants, the day
 * and the hours are as the app writes them (Europe/Rome), the sede its bike's.
 */
const bookingInsert = () => ({
  name: 'ceiling_booking',
  text: `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, sede_id)
         select $1::int + s.n, 1 + s.n % 50, (w.t at time zone 'Europe/Rome')::date,
                to_char(w.t at time zone 'Europe/Rome', 'HH24:MI'), to_char((w.t + interval '30 minutes') at time zone 'Europe/Rome', 'HH24:MI'),
                w.t, w.t + interval '30 minutes', 'Centro', 'attiva', (select b.sede_id from biciclette b where b.id = 1 + s.n % 50)
           from (select nextval('floor_n')::int - 1 as n) s,
                lateral (select timestamptz '2031-01-06 06:00 Europe/Rome'
                                + make_interval(days => s.n / 50 / 32, mins => (s.n / 50 % 32) * 30) as t) w
         returning id`,
  values: [Number(process.env.BENCH_FLOOR_FIRST_USER)],
});

async function ceilingServer(url: string, method: 'GET' | 'POST', kind: 'query' | 'insert' | 'booking'): Promise<FastifyInstance> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify({ logger: false });
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  let n = 0;
  app.route({
    method,
    url: '/const',
    handler: async (_req, reply) => {
      if (kind === 'query') {
        const { rows } = await pool.query({
          name: 'ceiling_query',
          text: 'select id, numero, modello, stato from biciclette where id = $1',
          values: [1 + Math.floor(Math.random() * 50)],
        });
        return reply.type('application/json; charset=utf-8').send(rows[0] ?? {});
      }
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } =
          kind === 'booking'
            ? await client.query(bookingInsert())
            : await client.query({ name: 'ceiling_insert', text: 'insert into guard_ceiling (n) values ($1) returning id', values: [n++] });
        await client.query('commit');
        return reply.status(201).type('application/json; charset=utf-8').send(rows[0]);
      } finally {
        client.release();
      }
    },
  });
  app.addHook('onClose', async () => pool.end());
  return app;
}

const mode = process.env.BENCH_MODE;
const method = process.env.BENCH_BARE_METHOD === 'GET' ? 'GET' : 'POST';
const app =
  mode === 'bare'
    ? await bareServer(method, fs.readFileSync(process.env.BENCH_BARE_BODY!, 'utf8'))
    : mode === 'bare-query' || mode === 'bare-insert' || mode === 'bare-booking'
      ? await ceilingServer(process.env.DATABASE_URL!, method, mode === 'bare-query' ? 'query' : mode === 'bare-insert' ? 'insert' : 'booking')
      : await appServer(process.env.DATABASE_URL!);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
