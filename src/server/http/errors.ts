import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { isPoolBusy, pgConstraint, pgErrorCode } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/outage.js';
import { testo, type Lingua, type Testo } from '../../shared/i18n/index.js';
import type { PlainKey } from '../../shared/schemas/message.js';
import { inLingua, tFor } from '../../shared/i18n/all.js';
import { setSharedTranslator } from '../../shared/i18n/current.js';
import { requestLingua } from './lingua.js';

/** What an AppError may carry besides its text: `fields` are per-field refusals, put into the reader's language too. */
type Extra = { fields?: Record<string, Testo> } & Record<string, unknown>;

/**
 * An error meant for the person using the app, safe to show: a catalogue key and its values
 * (decision 051), put into the request's language by the error handler. `message` is its
 * Italian, for the logs.
 */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly text: Testo,
    public readonly code?: string,
    public readonly extra?: Extra,
  ) {
    super(inLingua('it', text));
    this.name = 'AppError';
  }
}

export const badRequest = (text: Testo, code = 'BAD_REQUEST', extra?: Extra) => new AppError(400, text, code, extra);
export const unauthorized = () => new AppError(401, testo('errors.unauthenticated'), 'UNAUTHENTICATED');
export const forbidden = (text = testo('http.forbidden'), code = 'FORBIDDEN') => new AppError(403, text, code);
export const notFound = (text = testo('http.notFound'), code = 'NOT_FOUND') => new AppError(404, text, code);
export const conflict = (text: Testo, code = 'CONFLICT') => new AppError(409, text, code);

/**
 * Keys for PostgreSQL constraint violations that reach the handler unmapped.
 * Services map the ones they expect with a more precise message; this is the safety net.
 */
const CONSTRAINT_MESSAGES: Record<string, PlainKey> = {
  prenotazioni_no_overlap: 'bookingsApi.bikeUnavailable',
  prenotazioni_one_active_per_user: 'bookingsApi.alreadyActive',
  users_email_unique: 'http.emailTaken',
  users_sigla_residente_unique: 'http.residentCodeTaken',
  biciclette_numero_unique: 'http.bikeNumberTaken',
  pagamenti_one_per_booking: 'http.paymentExists',
  provider_events_pkey: 'http.eventProcessed',
  azioni_offline_pkey: 'bookingsApi.actionReused',
};

function mapDatabaseError(err: unknown): AppError | undefined {
  const code = pgErrorCode(err);
  if (code === '23P01' || code === '23505') {
    return conflict(testo(CONSTRAINT_MESSAGES[pgConstraint(err) ?? ''] ?? 'http.conflictExisting'), 'CONFLICT');
  }
  if (code === '23503') return conflict(testo('http.conflictLinked'), 'CONFLICT');
  // Issue 49: the removal of a person's last way in (users/triggers/users.sql).
  if (code === '23514' && pgConstraint(err) === 'users_una_via_di_accesso') return conflict(testo('http.lastWayIn'), 'LAST_WAY_IN');
  if (code === '23514' || code === '22P02' || code === '22007' || code === '22008' || code === '22001') {
    return badRequest(testo('http.invalidData'), 'INVALID_DATA');
  }
  // A NUL character (JSON allows "\u0000") or one the database's encoding cannot hold: the
  // text cannot be stored or compared, so it is invalid input, not a server error.
  if (code === '22021' || code === '22P05') return badRequest(testo('http.invalidCharacters'), 'INVALID_DATA');
  return undefined;
}

function zodFields(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

const FASTIFY_MESSAGES: Record<string, [number, PlainKey]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'http.bodyTooLarge'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'http.unsupportedMediaType'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'http.badRequest'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'http.emptyJsonBody'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'http.invalidJson'],
};

/**
 * Errors Fastify raises before any route runs (a URL that is not valid percent-encoding),
 * which the error handler never sees: Fastify's own answer is English and echoes the URL.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const t = tFor(requestLingua(request));
  if (error.code === 'FST_ERR_BAD_URL') return reply.status(400).send({ message: t('http.badUrl'), code: 'BAD_URL' });
  return reply.status(400).send({ message: t('http.badRequest'), code: 'BAD_REQUEST' });
}

/** Seconds a client is asked to wait after a 503 for overload (decision 023). */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** Seconds a client is asked to wait while the database is away (a restart takes about one). */
export const DB_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The answer while the database is away (issue 32, decision 038): for the error handler and the pages. */
export function sendDatabaseUnavailable(reply: FastifyReply) {
  return reply
    .status(503)
    .header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS))
    .header('cache-control', 'no-store')
    .send({ message: tFor(requestLingua(reply.request))('http.dbUnavailable'), code: 'DB_UNAVAILABLE' });
}

/**
 * The language of the request being validated, for the shared schemas' messages (`tShared`): zod
 * puts them into words while it validates, which Fastify does in the same synchronous run as the
 * preValidation hook below; anywhere else (the CLI, the configuration, a parse after an await) they
 * are Italian. A plain variable, not an AsyncLocalStorage: entering one on every request cost the
 * availability read about a fifth of its throughput on Node 20 (the guard, issue 46).
 */
let validating: Lingua = 'it';

/** Turns any error into behaviour.md §4's JSON body. 5xx never shows internals. */
export function registerErrorHandler(app: FastifyInstance) {
  setSharedTranslator((key, ...values) => tFor(validating)(key, ...values));
  app.addHook('preValidation', (request, _reply, done) => {
    validating = requestLingua(request);
    try {
      done();
    } finally {
      validating = 'it';
    }
  });
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    // Every message below is a catalogue key, answered in the request's language (decision 051).
    const lingua = requestLingua(request);
    const t = tFor(lingua);
    if (error instanceof AppError) {
      const { fields, ...extra } = error.extra ?? {};
      const inWords = fields ? { fields: Object.fromEntries(Object.entries(fields).map(([k, text]) => [k, inLingua(lingua, text)])) } : {};
      return reply
        .status(error.statusCode)
        .send({ message: inLingua(lingua, error.text), ...(error.code ? { code: error.code } : {}), ...extra, ...inWords });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const v of error.validation) {
        const key = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[key] ??= v.message ?? t('http.invalidValue');
      }
      return reply.status(400).send({ message: Object.values(fields)[0] ?? t('http.invalidData'), code: 'VALIDATION_ERROR', fields });
    }
    if (error instanceof ZodError) {
      const fields = zodFields(error.issues);
      return reply.status(400).send({ message: Object.values(fields)[0] ?? t('http.invalidData'), code: 'VALIDATION_ERROR', fields });
    }
    if (isPoolBusy(error)) {
      // No database connection within the bound: an overload, not a fault. The step that
      // needed the connection did not run; every transaction is whole or absent.
      request.log.warn({ err: error }, 'database pool busy: answered 503');
      return reply
        .status(503)
        .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
        .send({ message: t('http.busy'), code: 'BUSY' });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is away (a restart, a cut connection): nothing of this request was
      // applied, or its transaction's fate was settled before this answer (decision 038).
      request.log.warn({ err: error }, 'database unavailable: answered 503');
      return sendDatabaseUnavailable(reply);
    }
    const mapped = mapDatabaseError(error);
    if (mapped) {
      request.log.info({ err: error }, 'database constraint refused the request');
      return reply.status(mapped.statusCode).send({ message: inLingua(lingua, mapped.text), code: mapped.code });
    }
    const fe = error as FastifyError;
    if (fe.code && FASTIFY_MESSAGES[fe.code]) {
      const [status, key] = FASTIFY_MESSAGES[fe.code]!;
      return reply.status(status).send({ message: t(key), code: fe.code.replace(/^FST_ERR_CTP_/, '') });
    }
    if (fe.statusCode === 429) {
      return reply.status(429).send({ message: fe.message, code: 'RATE_LIMITED' });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      // Other client errors from Fastify or a plugin (e.g. a malformed body): the message is
      // English and technical, so it is replaced.
      return reply.status(fe.statusCode).send({ message: t('http.badRequest'), code: 'BAD_REQUEST' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: t('http.internalError'), code: 'INTERNAL' });
  });
}
