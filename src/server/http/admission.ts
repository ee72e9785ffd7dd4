import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { tFor } from '../../shared/i18n/all.js';
import { BUSY_RETRY_AFTER_SECONDS } from './errors.js';
import { requestLingua } from './lingua.js';

/**
 * Routes never turned away at the door: a load balancer's questions (answered without the
 * pool, or by a probe of its own) and the rack board's event stream, which stays open for
 * hours and would hold a place for nothing.
 */
const ALWAYS_ADMITTED = new Set(['/api/health', '/api/ready', '/api/rastrelliera/:token/eventi']);

/**
 * The door of a process under a burst (issue 50, decision 058): at most `limit` API requests
 * are served at once; one more is answered 503 with Retry-After at once, before its body is
 * read, its session looked up or its statement queued.
 *
 * Why at the door and not at the pool's queue (DATABASE_POOL_QUEUE_MAX, decision 023) alone:
 * a burst's requests are all read in a few turns of the event loop, and each passes the
 * session, the rules and the window check before it asks for a connection, so the pool's
 * queue counted them only once they had done that work and had been promoted into the old
 * generation. 5,000 requests at one process waited up to the 5 s bound and were then answered
 * 503 anyway; their promoted garbage carried the process to 230–280 MB. Turned away here, such
 * a request costs its parse and a short answer, and the process keeps what it can serve.
 *
 * `limit` is the pool's connections plus its queue bound: as many requests as may hold or wait
 * for a connection. Fewer shed words in the log: one warning a second at most, with the count.
 */
export function registerAdmission(app: FastifyInstance, options: { limit: number; log?: FastifyBaseLogger }): void {
  const { limit } = options;
  let inFlight = 0;
  // One listener for every answer of this app (no closure per request, as connections.ts).
  const answered = () => {
    inFlight -= 1;
  };
  let shed = 0;
  let lastWarned = 0;
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api/') || ALWAYS_ADMITTED.has(request.routeOptions.url ?? '')) return done();
    if (inFlight >= limit) {
      shed += 1;
      const now = performance.now();
      if (now - lastWarned >= 1_000) {
        options.log?.warn({ shed, inFlight, limit }, 'requests over the limit in flight: answered 503');
        lastWarned = now;
        shed = 0;
      }
      void reply
        .status(503)
        .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
        .send({ message: tFor(requestLingua(request))('http.busy'), code: 'BUSY' });
      return;
    }
    inFlight += 1;
    reply.raw.on('close', answered);
    done();
  });
}
