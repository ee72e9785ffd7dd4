import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { HealthStatus, PublicConfig } from '../../../shared/api-types.js';
import { DB_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../http/errors.js';
import { inLingua } from '../../../shared/i18n/all.js';
import { requestLingua } from '../../http/lingua.js';
import { publicConfig } from './public-config.js';
import { checkReadiness, notReadySchema, readySchema } from './readiness.js';

/**
 * Health (liveness: the process answers, and says whether the database does), readiness
 * (decision 032: take traffic or not) and the public configuration the page needs.
 */
export const systemRoutes: FastifyPluginAsync = async (app) => {
  const { config, database } = app.deps;

  // Liveness only: 200 while the process runs, even with the database away (a restart), so
  // that a supervisor does not kill a process that is only waiting for it (issue 32).
  app.get('/health', async (_request, reply) => {
    let dbOk = false;
    if (database.reachability.up) {
      try {
        await Promise.race([
          database.db.execute(sql`select 1`),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
        ]);
        dbOk = true;
      } catch (err) {
        app.log.warn({ err }, 'health check: database unreachable');
      }
    }
    const body: HealthStatus = { status: 'ok', db: dbOk ? 'ok' : 'down' };
    return reply.status(200).header('Cache-Control', 'no-store').send(body);
  });

  // For a load balancer: 200 only when the database answers and every migration is applied;
  // 503 before that and from the moment a stop begins (SIGTERM), while the answers in flight finish.
  app.get('/ready', { schema: { response: { 200: readySchema, 503: notReadySchema } } }, async (request, reply) => {
    const answer = await checkReadiness(database.db, app.isDraining(), undefined, database.reachability.up);
    // A standby behind the address: the pool holds its requests until a primary answers.
    if (!answer.ready && answer.body.db === 'read-only') database.reachability.markDown();
    if (!answer.ready && answer.body.code === 'DB_UNAVAILABLE') reply.header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS));
    const body = answer.ready ? answer.body : { ...answer.body, message: inLingua(requestLingua(request), answer.body.message) };
    return reply.status(answer.ready ? 200 : 503).header('Cache-Control', 'no-store').send(body);
  });

  app.get('/config', async (): Promise<PublicConfig> => publicConfig(config, { db: database.db, rulesCache: app.deps.rulesCache }));
};
