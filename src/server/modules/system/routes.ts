import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { HealthStatus, PublicConfig } from '../../../shared/api-types.js';
import { publicConfig } from './public-config.js';

/** Health and the public configuration the page needs. */
export const systemRoutes: FastifyPluginAsync = async (app) => {
  const { config, database } = app.deps;

  app.get('/health', async (_request, reply) => {
    let dbOk = false;
    try {
      await Promise.race([
        database.db.execute(sql`select 1`),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
      dbOk = true;
    } catch (err) {
      app.log.warn({ err }, 'health check: database unreachable');
    }
    const body: HealthStatus = dbOk ? { status: 'ok', db: 'ok' } : { status: 'error', db: 'error' };
    return reply.status(dbOk ? 200 : 503).header('Cache-Control', 'no-store').send(body);
  });

  app.get('/config', async (): Promise<PublicConfig> => publicConfig(config, database.db));
};
