import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/server/app.js';
import { ManualClock } from '../../src/server/clock.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { AUTH_CHANNEL, SessionCache } from '../../src/server/modules/auth/session-cache.js';
import { createTestDatabase } from './db.js';
import { collectingLogger, FUZZ_HEADER, noteRequestSecrets, noteResponseSecrets, noteSecret } from './leak-scan.js';

export const TEST_NOW = new Date('2026-11-21T09:00:00Z');

export interface TestContext {
  app: FastifyInstance;
  clock: ManualClock;
  config: Config;
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  /** With `sessionCache: true`: the cache, kept coherent by its own LISTEN connection. */
  sessionCache?: SessionCache;
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_APP_LOG ?? 'silent',
    DATABASE_URL: 'postgres://unused@localhost/unused',
    DATA_DIR: '.tmp/test-data',
    PUBLIC_URL: 'http://localhost:3000',
    ...env,
  });
}

/** One registered route of the app (its method and full URL, e.g. `DELETE /api/prenotazioni/:id`). */
export interface RouteEntry {
  method: string;
  url: string;
}

/**
 * The real app on a database of its own, with a clock that stands still at TEST_NOW.
 * It logs (pino, level debug) into the test file's collector, and notes every token and
 * password that goes through it, for the leak scan after the file (tests/helpers/leak-scan.ts).
 * `routes` lists every route the app registered, as Fastify's onRoute saw it. With
 * `sessionCache`, sessions are cached as in production (main.ts): the cache and the LISTEN
 * connection that keeps it coherent, stopped by `close()`.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    deps?: Partial<AppDeps>;
    register?: (app: FastifyInstance) => void;
    sessionCache?: boolean;
  } = {},
): Promise<TestContext & { routes: RouteEntry[] }> {
  const database = await createTestDatabase();
  const sessionCache = options.sessionCache ? new SessionCache() : undefined;
  const listener = sessionCache
    ? listenForChanges(database.url, { [AUTH_CHANNEL]: sessionCache }, collectingLogger('warn'))
    : undefined;
  await listener?.ready;
  const clock = new ManualClock(TEST_NOW);
  const config = testConfig(options.env);
  const routes: RouteEntry[] = [];
  const app = await buildApp({
    config,
    database,
    clock,
    logger: collectingLogger(),
    ...(sessionCache ? { sessionCache } : {}),
    ...options.deps,
    onRoute: (route) => {
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        routes.push({ method, url: route.url });
      }
    },
  });
  // Passwords and secret keys of the configuration must not show up either.
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (/PASSWORD|SECRET/.test(key)) noteSecret(value);
  }
  app.addHook('preHandler', async (request) => {
    // A fuzzed body's "password" is hostile input, not a credential: it may well be echoed
    // legitimately elsewhere (the same string fuzzed into a name), so it is not noted.
    noteRequestSecrets(request.cookies, request.headers[FUZZ_HEADER] ? undefined : request.body);
  });
  app.addHook('onSend', async (_request, reply) => noteResponseSecrets(reply.getHeader('set-cookie')));
  options.register?.(app);
  await app.ready();
  return {
    app,
    routes,
    clock,
    config,
    database,
    ...(sessionCache ? { sessionCache } : {}),
    async close() {
      await app.close();
      await listener?.stop();
      await database.drop();
    },
  };
}
