import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/server/app.js';
import { ManualClock } from '../../src/server/clock.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { createTestDatabase } from './db.js';

export const TEST_NOW = new Date('2026-11-21T09:00:00Z');

export interface TestContext {
  app: FastifyInstance;
  clock: ManualClock;
  config: Config;
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'postgres://unused@localhost/unused',
    DATA_DIR: '.tmp/test-data',
    PUBLIC_URL: 'http://localhost:3000',
    ...env,
  });
}

/** The real app on a database of its own, with a clock that stands still at TEST_NOW. */
export async function createTestApp(
  options: { env?: Record<string, string>; deps?: Partial<AppDeps>; register?: (app: FastifyInstance) => void } = {},
): Promise<TestContext> {
  const database = await createTestDatabase();
  const clock = new ManualClock(TEST_NOW);
  const config = testConfig(options.env);
  const app = await buildApp({ config, database, clock, logger: false, ...options.deps });
  options.register?.(app);
  await app.ready();
  return {
    app,
    clock,
    config,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
