import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import type { ApiErrorBody } from '../../shared/api-types.js';
import { BODY_LIMIT_BYTES } from '../../shared/constants.js';
import { PASSWORD_CHANGE_COOKIE, SESSION_COOKIE, TWO_FACTOR_COOKIE } from '../http/auth.js';
import { forbidden, notFound, unauthorized } from '../http/errors.js';
import { tooManyAttemptsMessage } from '../modules/auth/index.js';
import type { Operation } from '../http/operation.js';
import { operationIndex, TAGS } from './catalogue.js';
import { tFor } from '../../shared/i18n/all.js';

/**
 * The API's OpenAPI 3.1 document, generated at start-up from the routes the app registers and
 * the zod schemas they validate with (decision 031), served at /api/openapi.json, and its
 * reference page (Swagger UI, every file served from here) at /api/docs.
 */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/** The document's own routes and the page's: not part of the API they describe. */
export const isDocsRoute = (url: string) => url === OPENAPI_PATH || url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

/** Only the JSON API is described: not the SPA's pages, the static files, nor the docs themselves. */
export const isDocumentedRoute = (url: string) => url.startsWith('/api/') && !isDocsRoute(url);

/** The shared error body of errors.ts (behaviour.md §4), as its component schema. */
export const errorBodySchema = z
  .object({
    message: z.string().describe('Il motivo, in italiano, da mostrare alla persona'),
    code: z.string().optional().describe('Identificatore stabile (inglese), es. `VALIDATION_ERROR`, `CONFLICT`'),
    fields: z.record(z.string(), z.string()).optional().describe('Solo 400: un messaggio per ogni campo non valido'),
    requiresPasswordChange: z.boolean().optional().describe('Solo 403 del login: password da cambiare'),
    userId: z.number().int().optional().describe('Solo 403 del login: l’utente che deve cambiare la password'),
  })
  .describe('Risposta di errore');

// The schema and the type the web reads must stay the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const errorBodyMatches: Same<z.infer<typeof errorBodySchema>, ApiErrorBody> = true;
void errorBodyMatches;

/** The error body's JSON Schema, from its zod schema (without the `$schema` a component does not carry). */
function errorComponent(): OpenAPIV3_1.SchemaObject {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(errorBodySchema, { target: 'draft-2020-12' });
  return schema as OpenAPIV3_1.SchemaObject;
}

const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  sessione: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Cookie di sessione (HttpOnly), impostato da login e registrazione' },
  cambioPassword: {
    type: 'apiKey',
    in: 'cookie',
    name: PASSWORD_CHANGE_COOKIE,
    description: 'Cookie di 15 minuti dato dal login quando la password va cambiata; vale per un solo cambio',
  },
  secondoPasso: { type: 'apiKey', in: 'cookie', name: TWO_FACTOR_COOKIE, description: 'Cookie del login in attesa del codice di verifica (decisione 030)' },
  firmaWebhook: { type: 'apiKey', in: 'header', name: 'Stripe-Signature', description: 'Firma dell’evento del fornitore di pagamento' },
};

const SECURITY: Record<Operation['access'], OpenAPIV3_1.SecurityRequirementObject[]> = {
  public: [],
  token: [],
  user: [{ sessione: [] }],
  owner: [{ sessione: [] }],
  admin: [{ sessione: [] }],
  'password-change': [{ sessione: [] }, { cambioPassword: [] }],
  'second-factor': [{ secondoPasso: [] }],
  signature: [{ firmaWebhook: [] }],
};

const RETRY_AFTER: OpenAPIV3_1.HeaderObject = { description: 'Secondi da attendere', schema: { type: 'integer' } };

function errorResponse(description: string, example: ApiErrorBody, retryAfter = false): OpenAPIV3_1.ResponseObject {
  return {
    description,
    ...(retryAfter ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Errore' }, example } },
  };
}

/** The success answer and every refusal the route can give, with their Italian messages. */
export function responsesFor(op: Operation, operation: OpenAPIV3_1.OperationObject): OpenAPIV3_1.ResponsesObject {
  const ok = op.ok ?? 200;
  const responses: OpenAPIV3_1.ResponsesObject = {
    [ok]:
      ok === 204
        ? { description: op.returns ?? 'Fatto, nessun contenuto' }
        : {
            description: op.returns ?? 'Fatto',
            // No schema where the route declares none: its shape is the description (`returns`).
            content: op.media ? { [op.media]: { schema: { type: 'string', format: 'binary' } } } : { 'application/json': {} },
          },
  };
  const hasInput = Boolean(operation.requestBody || operation.parameters?.length);
  const italian = tFor('it');
  const errors = Object.fromEntries(
    Object.entries(op.errors ?? {}).map(([status, keys]) => [status, [keys].flat().map((key) => italian(key)).join(' · ')]),
  ) as Partial<Record<number, string>>;
  if (hasInput || errors[400]) {
    const message = errors[400] ?? italian('http.invalidData');
    responses[400] = errorResponse(
      `Dati non validi: \`message\` dice il primo problema, \`fields\` un messaggio per campo${errors[400] ? ` (es. «${errors[400]}»)` : ''}`,
      { message, code: 'VALIDATION_ERROR', fields: { campo: message } },
    );
  }
  if (op.access === 'user' || op.access === 'owner' || op.access === 'admin') {
    const { message, code } = unauthorized();
    responses[401] = errorResponse(message, { message, ...(code ? { code } : {}) });
  }
  if (op.access === 'admin' || op.access === 'password-change' || op.access === 'second-factor' || errors[403]) {
    const message = errors[403] ?? forbidden().message;
    responses[403] = errorResponse(message, { message, code: 'FORBIDDEN' });
  }
  if (op.access === 'owner' || op.access === 'token' || errors[404]) {
    const message = errors[404] ?? notFound().message;
    responses[404] = errorResponse(
      op.access === 'owner' ? `${message} (anche se è di un altro utente: la sua esistenza non trapela)` : message,
      { message, code: 'NOT_FOUND' },
    );
  }
  if (errors[409]) responses[409] = errorResponse(`Conflitto: ${errors[409]}`, { message: errors[409].split(' · ')[0]!, code: 'CONFLICT' });
  if (operation.requestBody) {
    responses[413] = errorResponse(`Corpo oltre ${BODY_LIMIT_BYTES / 1024} KB`, { message: italian('http.bodyTooLarge'), code: 'BODY_TOO_LARGE' });
    responses[415] = errorResponse('Corpo non JSON', { message: italian('http.unsupportedMediaType'), code: 'INVALID_MEDIA_TYPE' });
  }
  if (op.rateLimited) {
    responses[429] = errorResponse('Troppi tentativi', { message: tooManyAttemptsMessage(15 * 60_000), code: 'RATE_LIMITED' }, true);
  }
  responses[500] = errorResponse('Errore interno (mai dettagli tecnici)', { message: italian('http.internalError'), code: 'INTERNAL' });
  responses[503] = errors[503]
    ? errorResponse(`Non disponibile: ${errors[503]}`, { message: errors[503].split(' · ')[0]!, code: 'UNAVAILABLE' })
    : errorResponse('Servizio sovraccarico: riprovare dopo Retry-After', { message: italian('http.busy'), code: 'BUSY' }, true);
  // The success shape a route's own zod response schema gives (GET /api/ready) wins over the
  // generic one above; the description stays the table's.
  const success = (operation.responses as Record<string, OpenAPIV3_1.ResponseObject> | undefined)?.[ok];
  const declared = success?.content?.['application/json']?.schema;
  if (declared && Object.keys(declared).length > 0) responses[ok] = { description: op.returns ?? 'Fatto', content: success.content };
  return responses;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `/api/prenotazioni/{id}` → `/api/prenotazioni/:id`, the key of catalogue.ts. */
export const fastifyPath = (openapiPath: string) => openapiPath.replace(/\{(\w+)\}/g, ':$1');

/** Adds to each operation what the zod schemas do not say: summary, module, security, answers. */
export function describeOperations(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  const index = operationIndex();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      const op = index.get(`${method.toUpperCase()} ${fastifyPath(path)}`);
      // An undocumented route keeps only what its schemas say; tests/api/openapi.test.ts names it.
      if (!op) continue;
      operation.summary = op.summary;
      operation.tags = [op.tag];
      operation.security = SECURITY[op.access];
      operation.responses = responsesFor(op, operation) as typeof operation.responses;
    }
  }
  return document;
}

export async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'BiciElis API',
        // The contract's version, not the package's: it changes when a client must change.
        version: '1.0.0',
        description:
          'L’API JSON di BiciElis, generata dagli schemi zod con cui le rotte convalidano le richieste. ' +
          'Ogni errore ha la forma `Errore` con un messaggio in italiano. Le richieste che cambiano dati ' +
          'da un’altra origine sono rifiutate (controllo di `Origin`).',
      },
      tags: Object.values(TAGS).map((t) => ({ ...t })),
      components: {
        securitySchemes: SECURITY_SCHEMES,
        schemas: { Errore: errorComponent() },
      },
    },
    transform: (route) => (isDocumentedRoute(route.url) ? jsonSchemaTransform(route) : { schema: { hide: true }, url: route.url }),
    // Both typings (3.0 and 3.1) are accepted by the plugin's type; the document is 3.1.
    transformObject: (input) => describeOperations(jsonSchemaTransformObject(input) as OpenAPIV3_1.Document) as never,
  });

  // The reference page: Swagger UI's files from node_modules (no CDN), no inline script, so
  // it runs under the site's strict CSP unchanged (decision 031).
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, tryItOutEnabled: false },
    validatorUrl: false,
    theme: { title: 'BiciElis API' },
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send(app.swagger()),
  );
}
