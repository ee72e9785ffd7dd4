import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { BODY_LIMIT_BYTES } from '../shared/constants.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { registerAuth } from './http/auth.js';
import { registerAdmission } from './http/admission.js';
import { closeIdleConnectionsSafely } from './http/connections.js';
import { frameworkErrorHandler, registerErrorHandler } from './http/errors.js';
import { DOCS_PREFIX, registerOpenApi } from './api-docs/openapi.js';
import { registerOriginCheck } from './http/origin.js';
import { postgresRateLimitStore } from './http/rate-limit-store.js';
import { inLinguaFile, PAGE_ROUTES, pageFor } from './pages/pages.js';
import { requestLingua } from './http/lingua.js';
import { PRIVACY_PAGE, privacyPageHtml } from './pages/privacy-page.js';
import { isServerRenderedPage, serverRenderedPages, type PageRenderer } from './pages/server-render.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { mailerFromConfig, type Mailer } from './integrations/mailer.js';
import { paymentProviderFromConfig, type PaymentProvider } from './integrations/payments/index.js';
import { lockProviderFromConfig, type LockProvider } from './integrations/locks/index.js';
import { PinDispatcher } from './modules/locks/index.js';
import { createPushSender } from './modules/notifications/index.js';
import type { Logger } from './logger.js';
import { registerMetrics } from './http/metrics.js';
import { COMPRESSION } from './http/precompressed.js';
import { createMetrics, type AppMetrics } from './metrics.js';
import type { SessionCache } from './modules/auth/index.js';
import { sessionStore } from './modules/auth/index.js';
import { needsTwoFactorEnrolment } from './modules/users/index.js';
import { tooManyAttempts } from './modules/auth/index.js';
import { inLingua, tFor } from '../shared/i18n/all.js';
import { adminRoutes } from './modules/admin/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { bookingRoutes } from './modules/bookings/routes.js';
import { lockRoutes } from './modules/locks/routes.js';
import { fleetRoutes } from './modules/fleet/routes.js';
import { interventiRoutes } from './modules/interventi/routes.js';
import { fleetPass } from './modules/fleet/index.js';
import { FreedTimeDispatcher } from './modules/waitlist/index.js';
import { waitlistRoutes } from './modules/waitlist/routes.js';
import { calendarRoutes } from './modules/calendar/routes.js';
import { attachRackHub, type RackHub } from './modules/rack/index.js';
import { rackRoutes } from './modules/rack/routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { profileRoutes } from './modules/profile/routes.js';
import { privacyRoutes } from './modules/privacy/routes.js';
import { statsRoutes } from './modules/stats/routes.js';
import { reportRoutes } from './modules/reports/routes.js';
import { sediRoutes } from './modules/sedi/routes.js';
import { systemRoutes } from './modules/system/routes.js';
import { twoFactorRoutes } from './modules/two-factor/routes.js';
import { oidcRoutes } from './modules/oidc/routes.js';
import { passkeyRoutes } from './modules/passkeys/routes.js';
import { ensureRulesRow, type RulesCache } from './modules/rules/index.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger?: Logger | false;
  /**
   * Recently used sessions (kept coherent by the database's notifications); without it
   * every authenticated request looks its session up in the database.
   */
  sessionCache?: SessionCache;
  /** The service's rules in memory (kept coherent the same way); without it every read loads them. */
  rulesCache?: RulesCache;
  /** Folder of the built web app (index.html + assets); absent in API-only tests. */
  webRoot?: string;
  /**
   * Renders /dashboard and /admin for a logged-in user with the user's data (issue 22,
   * decision 027): main.ts loads the built one (dist/ssr); without it those pages are the
   * pre-rendered files, as every other page.
   */
  pageRenderer?: PageRenderer;
  /** Email delivery; default: from the configuration (SMTP_URL, else the DATA_DIR/outbox folder). */
  mailer?: Mailer;
  /** Payment provider; default: from the configuration (Stripe keys, else the simulated one). */
  paymentProvider?: PaymentProvider;
  /** Smart-lock provider (decision 043); default: from the configuration (TTLock, else the simulated one). */
  lockProvider?: LockProvider;
  /** Told of every route as it is registered (tests list the whole API from the app itself). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Web push of the installed app: the reminders and the overdue notices go through it
   * besides email. Default: the web-push sender of modules/notifications/push.ts (VAPID keys from the
   * configuration or the database).
   */
  push?: { send(userId: number, payload: { title: string; body: string; url: string }): Promise<void> };
  /**
   * The Prometheus metrics of this app (decision 032); default: a registry of its own. The
   * services get it in their deps (http/service-deps.ts), main.ts hands it to the jobs.
   */
  metrics?: AppMetrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps & {
      mailer: Mailer;
      payments: PaymentProvider;
      locks: LockProvider;
      push: NonNullable<AppDeps['push']>;
      /** The VAPID public key browsers subscribe with; null when it cannot be had (push not offered). */
      pushPublicKey: () => Promise<string | null>;
      metrics: AppMetrics;
    };
    /**
     * The waitlist's freed-time dispatcher (decision 035): main.ts puts it on the process's
     * LISTEN connection; tests await `settled()` for the offers a change leads to.
     */
    freedTime: FreedTimeDispatcher;
    /**
     * The smart-lock PINs' dispatcher (decision 044): main.ts puts it on the LISTEN connection;
     * tests await `settled()` for the provider's calls a change leads to.
     */
    pins: PinDispatcher;
    /**
     * The rack board's streams of this process (issue 34, decision 044): main.ts puts it on the
     * LISTEN connection (a new link or a revocation closes the old link's streams everywhere).
     */
    rack: RackHub;
    /**
     * Starts the drain (decision 032): /api/ready answers 503 and every answer says
     * `Connection: close`. main.ts calls it as SIGTERM arrives; close() does it anyway.
     */
    beginDrain(): void;
    isDraining(): boolean;
  }
}

/** Smart-lock PINs are events too (decision 044): created, extended, revoked after the commit, by this process's dispatcher. */
function startPinDispatcher(app: FastifyInstance): void {
  const { database, clock, locks, mailer, config } = app.deps;
  const pins = new PinDispatcher({ db: database.db, clock, locks, mailer, publicUrl: config.publicUrl, log: app.log });
  app.decorate('pins', pins);
  app.addHook('onClose', () => pins.stop());
}

/**
 * Draining: from the moment the stop begins (SIGTERM in main.ts, else close()), every answer
 * (those in flight included) says `Connection: close`, so each keep-alive connection ends with its
 * last answer instead of holding the stop until its idle timeout, and /api/ready answers 503 so
 * that a load balancer sends nothing new. New connections are refused once close() runs.
 */
function registerDrain(app: FastifyInstance): void {
  let draining = false;
  app.decorate('beginDrain', () => {
    draining = true;
  });
  app.decorate('isDraining', () => draining);
  app.addHook('preClose', async () => {
    draining = true;
  });
  // A hook with a callback: it runs on every answer (issue 33: no promise per request).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  // The connections the stop closes are only those with no request unanswered (issue 32: Node's
  // own check cut an answer still being written, and a request already read, whose booking was
  // then stored unanswered).
  closeIdleConnectionsSafely(app.server);
}

/** Builds the whole HTTP application. `main.ts` listens with it; tests `inject` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // The service's rules exist from the first start, from the environment's defaults (issue 20).
  // main.ts has made the row already (a failure there stops the start); here it serves the apps
  // that tests and benchmarks build on a fresh database. A database that does not answer is
  // not this function's to report: /api/health says so.
  await ensureRulesRow(deps.database.db, deps.config).catch(() => undefined);
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.config.trustProxy,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    // While the server drains (SIGTERM), a request that arrives on a connection still open is
    // answered as usual rather than with a 503 (issue 12: no 5xx on a clean stop); see below.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  registerDrain(app);
  // First of the request hooks: a request over the limit costs nothing more (decision 058).
  registerAdmission(app, { limit: deps.config.pool.max + deps.config.pool.queueMax, log: app.log });

  // Metrics first: every later hook's request is timed; the services get them in their deps.
  const metrics = deps.metrics ?? createMetrics();
  metrics.watchPool(deps.database.pool);
  registerMetrics(app, metrics, deps.config.metricsToken);

  const mailer = deps.mailer ?? mailerFromConfig(deps.config, app.log, metrics);
  const payments =
    deps.paymentProvider ?? paymentProviderFromConfig(deps.config, deps.database.db, deps.clock, app.log);
  const pushSender = createPushSender({ db: deps.database.db, config: deps.config, log: app.log });
  const push = deps.push ?? pushSender;
  // The key is the same whichever sender is used: the configured pair or the stored one.
  const pushPublicKey = () =>
    pushSender.publicKey().catch((err: unknown) => {
      app.log.warn({ err }, 'chiave VAPID non disponibile: notifiche push non offerte');
      return null;
    });
  app.decorate('deps', { ...deps, mailer, payments, locks: deps.lockProvider ?? lockProviderFromConfig(deps.config, deps.clock), push, pushPublicKey, metrics });
  startPinDispatcher(app);
  // Freed time is one event (decision 035): this process's dispatcher runs the offer pass
  // and announces the offers with this app's mailer and push.
  const { rulesCache } = deps;
  const fleet = { db: deps.database.db, clock: deps.clock, payments, mailer, push, config: deps.config, log: app.log, metrics, rulesCache };
  const freedTime = new FreedTimeDispatcher({
    db: deps.database.db,
    clock: deps.clock,
    rulesCache,
    mailer,
    push,
    log: app.log,
    publicUrl: deps.config.publicUrl,
    timeZone: deps.config.timeZone,
    // The fleet heals itself first (issue 35): a freed bike goes to a booking whose bike is out
    // before any waitlist offer; a bike put out of use wakes this dispatcher too (its trigger).
    // A failed heal fails the round (logged): no offer goes out ahead of a booking it would move.
    beforePass: async () => void (await fleetPass(fleet)),
  });
  app.decorate('freedTime', freedTime);
  app.addHook('onClose', () => freedTime.stop());
  attachRackHub(app);
  // Emails still leaving in the background finish first; a mailer we made is released.
  app.addHook('onClose', () => (deps.mailer ? mailer.idle() : mailer.close()));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: without this Fastify would also accept text/plain bodies.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);

  const headers = registerSecurityHeaders(app, {
    secure: deps.config.secureCookies,
    stripe: Boolean(deps.config.stripe),
    docsPrefix: DOCS_PREFIX,
  });
  // Answers over 1 KB leave compressed (brotli at quality 4, else gzip); the built assets
  // are compressed once at build time and served as such by @fastify/static below.
  await app.register(fastifyCompress, COMPRESSION);
  await app.register(fastifyCookie);
  // Counters in PostgreSQL: every process on this database shares them (issue 12).
  await app.register(fastifyRateLimit, {
    global: false,
    store: postgresRateLimitStore(deps.database.pool),
    errorResponseBuilder: (req, ctx) => ({ statusCode: 429, message: inLingua(requestLingua(req), tooManyAttempts(ctx.ttl)) }),
  });
  registerOriginCheck(app, deps.config.publicOrigin);
  registerAuth(app, { ...sessionStore(deps.database.db), needsTwoFactorEnrolment });

  // Before the routes: @fastify/swagger learns them as they are registered (decision 031).
  await registerOpenApi(app);
  await app.register(systemRoutes, { prefix: '/api' });
  await app.register(sediRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(twoFactorRoutes, { prefix: '/api' });
  await app.register(oidcRoutes, { prefix: '/api' });
  await app.register(passkeyRoutes, { prefix: '/api' });
  await app.register(bookingRoutes, { prefix: '/api' });
  await app.register(lockRoutes, { prefix: '/api' });
  await app.register(fleetRoutes, { prefix: '/api' });
  await app.register(interventiRoutes, { prefix: '/api' });
  await app.register(waitlistRoutes, { prefix: '/api' });
  await app.register(paymentRoutes, { prefix: '/api' });
  await app.register(reportRoutes, { prefix: '/api' });
  await app.register(profileRoutes, { prefix: '/api' });
  await app.register(privacyRoutes, { prefix: '/api' });
  await app.register(calendarRoutes, { prefix: '/api' });
  await app.register(rackRoutes, { prefix: '/api' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  await app.register(statsRoutes, { prefix: '/api/admin/stats' });

  registerWebApp(app, deps.webRoot, headers.paymentPage, deps.pageRenderer);
  return app;
}

/** Pages whose HTML may load Stripe.js (security-headers.ts): the card form, `/payment/:id`. */
const PAYMENT_PAGE = /^\/payment\/[^/]+\/?$/;

function registerWebApp(
  app: FastifyInstance,
  webRoot: string | undefined,
  paymentPageHeaders: Record<string, string> | null,
  pageRenderer: PageRenderer | undefined,
) {
  const hasWeb = Boolean(webRoot && existsSync(path.join(webRoot, 'index.html')));
  const builtPages = new Set(hasWeb ? readdirSync(webRoot!).filter((file) => file.endsWith('.html')) : []);
  const sendRendered = hasWeb ? serverRenderedPages(app, webRoot!, pageRenderer) : null;
  const privacyHtml = hasWeb ? privacyPageHtml(webRoot!, app.deps.config.privacy) : null;
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webRoot!,
      // One route per built file, found once at start (the build never changes under a
      // running process). A page's path (`/dashboard`) then goes straight to the handler
      // below: with a wildcard route, each one first cost a failed file lookup, a
      // directory read and its stats (issue 33: about 1.2 s of every 8.4 s of CPU under
      // the dashboard's render load).
      wildcard: false,
      index: ['index.html'],
      // dist/web/**/*.br and *.gz, written by scripts/precompress.mjs after `vite build`.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const rel = path.relative(webRoot!, filePath);
        reply.header(
          'Cache-Control',
          rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  /** The page for a GET or HEAD of the web app's address. */
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (paymentPageHeaders && PAYMENT_PAGE.test(pathname)) reply.headers(paymentPageHeaders);
    const file = pageFor(pathname, (name) => builtPages.has(name));
    // Every page is in its reader's language (issue 36): the session's account, the `lingua`
    // cookie, Accept-Language. The answer depends on them.
    reply.header('Vary', 'Cookie, Accept-Language');
    // The answer depends on the session: the user's own page, in the account's language, or the pre-rendered one.
    if (isServerRenderedPage(file) && (await sendRendered!(request, reply, file))) return reply;
    const lingua = requestLingua(request);
    const localised = inLinguaFile(file, lingua);
    const built = builtPages.has(localised) ? localised : file;
    if (file === PRIVACY_PAGE && privacyHtml) {
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(privacyHtml[lingua] ?? privacyHtml.it);
    }
    // Each page's HTML holds its first screen pre-rendered (pages/pages.ts).
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile(built);
  };
  if (hasWeb) {
    // The pages of their own are routes, so that what is made per request (a page rendered for
    // its user, the privacy notice) leaves compressed like every route's answer: the not-found
    // handler below is no route, and @fastify/compress acts on routes only (issue 33: /admin's
    // HTML went out as 163 KB instead of about 20, and its first tap waited for the last byte).
    for (const url of PAGE_ROUTES) app.get(url, { schema: { hide: true } }, sendPage);
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return reply.status(404).send({ message: tFor(requestLingua(request))('http.notFound'), code: 'NOT_FOUND' });
    }
    // Any other address of the web app: a built page, sent as built (compressed at build time).
    if ((request.method === 'GET' || request.method === 'HEAD') && hasWeb) return sendPage(request, reply);
    return reply.status(404).send({ message: tFor(requestLingua(request))('http.notFound'), code: 'NOT_FOUND' });
  });
}
