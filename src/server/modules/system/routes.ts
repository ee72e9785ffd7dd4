import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { HealthStatus, PublicConfig } from '../../../shared/api-types.js';
import { APP_VERSION } from '../../../shared/constants.js';
import { currentRules } from '../rules/store.js';

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

  app.get('/config', async (): Promise<PublicConfig> => {
    // The horizon and the no-show minutes are the service's rules (issue 20), as of now.
    const rules = await currentRules(database.db);
    return {
    version: APP_VERSION,
    production: config.env === 'production',
    payment: config.stripe
      ? { provider: 'stripe', publishableKey: config.stripe.publishableKey }
      : { provider: 'simulated', publishableKey: null },
    timeZone: config.timeZone,
    bookingHorizonDays: rules.orizzonteGiorni,
    noShowMinutes: rules.mancatoRitiroMinuti,
    };
  });
};
