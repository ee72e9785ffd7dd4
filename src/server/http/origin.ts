import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent by another site's page (CSRF), on top of the
 * SameSite=Lax cookie: when the browser says where the request comes from (`Origin`, or
 * `Sec-Fetch-Site`), it must be this app. Requests without those headers (curl, the CLI,
 * the payment provider's webhook) are let through; they carry no ambient cookie anyway.
 */
export function registerOriginCheck(app: FastifyInstance, publicOrigin: string) {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin) {
      const own = `${request.protocol}://${request.host}`;
      if (origin !== publicOrigin && origin !== own) {
        throw forbidden('Richiesta non consentita da un altro sito', 'CROSS_ORIGIN');
      }
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw forbidden('Richiesta non consentita da un altro sito', 'CROSS_ORIGIN');
    }
  });
}
