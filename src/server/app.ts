import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { BODY_LIMIT_BYTES } from '../shared/constants.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { registerErrorHandler } from './http/errors.js';
import { registerOriginCheck } from './http/origin.js';
import type { Logger } from './logger.js';
import { systemRoutes } from './modules/system/routes.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger?: Logger | false;
  /** Folder of the built web app (index.html + assets); absent in API-only tests. */
  webRoot?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

const STRIPE_ORIGINS = ['https://js.stripe.com', 'https://*.stripe.com'];

/** Builds the whole HTTP application. `main.ts` listens with it; tests `inject` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.config.trustProxy,
    disableRequestLogging: false,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: without this Fastify would also accept text/plain bodies.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);

  await app.register(fastifyHelmet, {
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
        upgradeInsecureRequests: deps.config.secureCookies ? [] : null,
      },
    },
    strictTransportSecurity: deps.config.secureCookies,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Troppi tentativi. Riprova tra ${Math.max(1, Math.ceil(ctx.ttl / 60_000))} minuti.`,
    }),
  });
  registerOriginCheck(app, deps.config.publicOrigin);

  await app.register(systemRoutes, { prefix: '/api' });

  registerWebApp(app, deps.webRoot);
  return app;
}

function registerWebApp(app: FastifyInstance, webRoot: string | undefined) {
  const hasWeb = Boolean(webRoot && existsSync(path.join(webRoot, 'index.html')));
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webRoot!,
      wildcard: true,
      index: false,
      setHeaders(reply, filePath) {
        const rel = path.relative(webRoot!, filePath);
        reply.header(
          'Cache-Control',
          rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Risorsa non trovata', code: 'NOT_FOUND' });
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && hasWeb) {
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.status(404).send({ message: 'Risorsa non trovata', code: 'NOT_FOUND' });
  });
}
