import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.js';
import { testo } from '../../shared/i18n/index.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent by another site's page (CSRF), on top of the
 * SameSite=Lax cookie: when the browser says where the request comes from (`Origin`, or
 * `Sec-Fetch-Site`), it must be this app. Requests without those headers (curl, the CLI,
 * the payment provider's webhook) are let through; they carry no ambient cookie anyway.
 */
export function registerOriginCheck(app: FastifyInstance, publicOrigin: string) {
  // A hook with a callback, not an async one: it runs on every request, and most are reads
  // that it lets through at once (issue 33: no promise for them).
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    if (origin) {
      const own = `${request.protocol}://${request.host}`;
      if (origin !== publicOrigin && origin !== own) return done(crossOrigin());
      return done();
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') return done(crossOrigin());
    done();
  });
}

const crossOrigin = () => forbidden(testo('http.crossOrigin'), 'CROSS_ORIGIN');
