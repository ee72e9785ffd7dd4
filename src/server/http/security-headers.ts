import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const STRIPE_ORIGINS = ['https://js.stripe.com', 'https://*.stripe.com'];

export function helmetOptions(secure: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...STRIPE_ORIGINS],
        frameSrc: ["'self'", ...STRIPE_ORIGINS],
        connectSrc: ["'self'", 'https://api.stripe.com'],
        imgSrc: ["'self'", 'data:', ...STRIPE_ORIGINS],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        formAction: ["'self'", 'https://checkout.stripe.com'],
        upgradeInsecureRequests: secure ? [] : null,
      },
    },
    strictTransportSecurity: secure,
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * Helmet's headers, computed once at start-up (they never vary per request) and set on
 * every reply. @fastify/helmet rebuilds them, CSP parsing included, on every request.
 */
export function securityHeaders(secure: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(secure))({} as never, res as never, () => undefined);
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, secure: boolean) {
  const headers = securityHeaders(secure);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
