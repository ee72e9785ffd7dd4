import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the modules' services are given, from the app's dependencies: a route file's `deps()`
 * returns it as the part its services declare (BookingDeps, AdminDeps, PrivacyDeps, …).
 */
export function serviceDeps(app: FastifyInstance) {
  return {
    db: app.deps.database.db,
    clock: app.deps.clock,
    config: app.deps.config,
    payments: app.deps.payments,
    mailer: app.deps.mailer,
    log: app.log,
    sessionCache: app.deps.sessionCache,
    rulesCache: app.deps.rulesCache,
    metrics: app.deps.metrics,
  };
}

/** An onSend hook: the answers of the routes it covers are never cached (a person's own data). */
export async function noStore(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header('Cache-Control', 'no-store');
  return payload;
}
