import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { isLoopback, tokenMatches, type AppMetrics } from '../metrics.js';
import { tFor } from '../../shared/i18n/all.js';
import { requestLingua } from './lingua.js';

/** Requests Fastify matched to no route (404s, probes): one label, never the raw URL. */
const UNMATCHED = 'unmatched';

/**
 * Times every request into `bicielis_http_request_duration_seconds` by its route's pattern
 * (`/api/prenotazioni/:id`, never `/api/prenotazioni/42` nor the calendar feed's token), and
 * serves `GET /metrics` (decision 032).
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, token: string | undefined): void {
  // Each route is timed by a hook of its own that knows its pattern and holds its recorder
  // (issue 33: Fastify's `request.routeOptions` builds an object of 13 fields on every read, and
  // prom-client's `observe` hashes the labels on every call), with a callback, not a promise.
  // Requests matched to no route are timed by the app-wide hook.
  app.addHook('onRoute', (route) => {
    const record = metrics.httpDuration.forRoute(route.url);
    const timer: onResponseHookHandler = (request, reply, done) => {
      record(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = route.onResponse ? [...[route.onResponse].flat(), timer] : [timer];
  });
  const recordUnmatched = metrics.httpDuration.forRoute(UNMATCHED);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) recordUnmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    const refusal = metricsAccess(request, token);
    if (refusal) return refusal(reply);
    const body = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}

/**
 * Who may scrape: a client on this machine (the socket's own address is loopback, and no proxy
 * header says the request came from elsewhere), or anyone presenting `METRICS_TOKEN` as a
 * bearer token. The socket's address, not `request.ip`: with TRUST_PROXY, `request.ip` is
 * what X-Forwarded-For says, which a client writes. And a proxy on this machine makes every
 * forwarded request come from loopback: its X-Forwarded-For / Forwarded header marks it as
 * not local. A session cookie, even an admin's, is not enough.
 */
function metricsAccess(request: FastifyRequest, token: string | undefined): ((reply: FastifyReply) => FastifyReply) | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (token && match && tokenMatches(match[1]!, token)) return null;
    return (reply) =>
      reply.status(403).send({ message: tFor(requestLingua(request))('http.metricsBadToken'), code: 'METRICS_FORBIDDEN' });
  }
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (!proxied && isLoopback(request.socket.remoteAddress)) return null;
  if (!token) {
    return (reply) =>
      reply.status(403).send({ message: tFor(requestLingua(request))('http.metricsLocalOnly'), code: 'METRICS_FORBIDDEN' });
  }
  return (reply) =>
    reply
      .status(401)
      .header('WWW-Authenticate', 'Bearer realm="metrics"')
      .send({ message: tFor(requestLingua(request))('http.metricsTokenRequired'), code: 'METRICS_UNAUTHENTICATED' });
}
