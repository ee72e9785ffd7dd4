/**
 * The server side of a load benchmark, run as its own process by `harness.ts`
 * (`startBenchServer`) so that its CPU and RSS are its own and it can be profiled
 * (`BENCH_CPU_PROF=1 npm run bench -- availability` writes .cpuprofile files to .tmp/cpu-prof).
 *
 * BENCH_MODE=app: the real app on DATABASE_URL, as main.ts builds it (the session cache kept
 * coherent by notifications; every availability request queries PostgreSQL).
 * BENCH_MODE=bare: a bare Fastify process with the same compression plugin and options as
 * the app, answering `BENCH_BARE_METHOD /const` with the bytes of the file BENCH_BARE_BODY.
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
  const { RULES_CHANNEL, rulesCacheFor } = await import('../../src/server/modules/rules/store.js');
  const { FREED_TIME_CHANNEL } = await import('../../src/server/modules/waitlist/dispatcher.js');
  const app = await buildApp({ config, database, sessionCache, clock: systemClock, logger: false });
  // As main.ts wires it: the sessions and the service's rules kept in memory, told of changes,
  // and freed time served by this process's dispatcher (decision 035).
  const listener = listenForChanges(
    url,
    { [AUTH_CHANNEL]: sessionCache, [RULES_CHANNEL]: rulesCacheFor(database.db), [FREED_TIME_CHANNEL]: app.freedTime },
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

const app =
  process.env.BENCH_MODE === 'bare'
    ? await bareServer(process.env.BENCH_BARE_METHOD === 'GET' ? 'GET' : 'POST', fs.readFileSync(process.env.BENCH_BARE_BODY!, 'utf8'))
    : await appServer(process.env.DATABASE_URL!);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
