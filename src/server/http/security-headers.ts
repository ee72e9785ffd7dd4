import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * What the card form needs of Stripe (Stripe.js and Elements), and nothing more: its script
 * and frames, the 3-D Secure frames, its API. Allowed only on the HTML of `/payment/*`, and
 * only with Stripe configured (decision 012); every other answer has the strict policy.
 */
export const STRIPE_CSP = {
  scriptSrc: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connectSrc: ['https://api.stripe.com'],
} as const;

export function helmetOptions(secure: boolean, allowStripe = false): HelmetOptions {
  const stripe = (list: readonly string[]) => (allowStripe ? list : []);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripe(STRIPE_CSP.scriptSrc)],
        frameSrc: ["'self'", ...stripe(STRIPE_CSP.frameSrc)],
        connectSrc: ["'self'", ...stripe(STRIPE_CSP.connectSrc)],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        formAction: ["'self'"],
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
export function securityHeaders(secure: boolean, allowStripe = false): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(secure, allowStripe))({} as never, res as never, () => undefined);
  return headers;
}

/**
 * Sets the strict headers on every reply. Returns the payment page's headers (the same,
 * with Stripe allowed), which the SPA fallback sets on `/payment/*` HTML; null without Stripe.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { secure: boolean; stripe: boolean },
): { paymentPage: Record<string, string> | null } {
  const headers = securityHeaders(options.secure);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  return { paymentPage: options.stripe ? securityHeaders(options.secure, true) : null };
}
