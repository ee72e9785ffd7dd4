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
        // blob: the previews of the photos a person picks for a report (issue 48), read from their own device.
        imgSrc: ["'self'", 'data:', 'blob:'],
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
 * The headers of a data answer (every route under `/api/` but the API's own documentation
 * pages): JSON, or a file sent as an attachment (CSV, PDF, ICS). A browser never renders one
 * as a page of ours, so the page's policies (scripts, styles, frames, referrer, opener, DNS
 * prefetch) have nothing to act on. What does act on a data answer is kept (OWASP's REST
 * security cheat sheet): no content sniffing, no embedding, not readable by another site's
 * page (CORP), a CSP that allows nothing should one be opened, and the pages' HSTS (https).
 * Issue 33: 4 headers of 168 bytes in place of helmet's 11 of 640 on every JSON answer.
 */
export function dataHeaders(page: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(page['strict-transport-security'] ? { 'strict-transport-security': page['strict-transport-security'] } : {}),
  };
}

/** Whether a request's answer is data (dataHeaders) rather than a page: under `/api/`, not the API's documentation. */
export function isDataPath(url: string, docsPrefix: string): boolean {
  return underPrefix(url, '/api') && !underPrefix(url, docsPrefix);
}

/** `url` is `prefix` itself or below it (with a query or not). */
function underPrefix(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */;
}

/**
 * Sets the security headers on every reply, in the app's first onRequest hook (so that an
 * answer a later hook gives, a 401 or a 403, has them too): a data answer's (isDataPath) those of
 * dataHeaders, every other one helmet's strict ones. Returns the payment page's headers (the
 * strict ones with Stripe allowed), which the SPA fallback sets on `/payment/*` HTML; null
 * without Stripe.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { secure: boolean; stripe: boolean; docsPrefix: string },
): { paymentPage: Record<string, string> | null } {
  const page = securityHeaders(options.secure);
  const data = dataHeaders(page);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isDataPath(request.url, options.docsPrefix) ? data : page);
    done();
  });
  return { paymentPage: options.stripe ? securityHeaders(options.secure, true) : null };
}
