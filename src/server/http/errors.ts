import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { isPoolBusy, pgConstraint, pgErrorCode } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/outage.js';
import { isTesto, type Testo } from '../../shared/i18n/index.js';
import { inLingua, localise, tFor } from '../../shared/i18n/all.js';
import { setSharedTranslator } from '../../shared/i18n/current.js';
import { requestLingua } from './lingua.js';

/**
 * An error meant for the person using the app, safe to show. Its message is Italian (`message`,
 * for the logs) or a `Testo` (`text`); the error handler answers it in the request's language
 * (issue 36: an Italian string the catalogue knows is put into it too).
 */
export class AppError extends Error {
  public readonly text: string | Testo;
  constructor(
    public readonly statusCode: number,
    message: string | Testo,
    public readonly code?: string,
    public readonly extra?: Record<string, unknown>,
  ) {
    super(isTesto(message) ? inLingua('it', message) : message);
    this.text = message;
    this.name = 'AppError';
  }
}

export const badRequest = (message: string | Testo, code = 'BAD_REQUEST', extra?: Record<string, unknown>) =>
  new AppError(400, message, code, extra);
export const unauthorized = () => new AppError(401, 'Non autenticato', 'UNAUTHENTICATED');
export const forbidden = (message: string | Testo = 'Non hai i permessi per questa operazione', code = 'FORBIDDEN') =>
  new AppError(403, message, code);
export const notFound = (message: string | Testo = 'Risorsa non trovata', code = 'NOT_FOUND') => new AppError(404, message, code);
export const conflict = (message: string | Testo, code = 'CONFLICT') => new AppError(409, message, code);

/**
 * Messages for PostgreSQL constraint violations that reach the handler unmapped.
 * Services map the ones they expect with a more precise message; this is the safety net.
 */
const CONSTRAINT_MESSAGES: Record<string, string> = {
  prenotazioni_no_overlap: 'La bicicletta non è disponibile nella fascia oraria scelta',
  prenotazioni_one_active_per_user: 'Hai già una prenotazione attiva',
  users_email_unique: 'Email già registrata',
  users_sigla_residente_unique: 'Questa sigla è già associata a un account',
  biciclette_numero_unique: 'Esiste già una bicicletta con questo numero',
  pagamenti_one_per_booking: 'Il pagamento di questa prenotazione esiste già',
  provider_events_pkey: 'Evento già elaborato',
  azioni_offline_pkey: "Questa azione è già stata usata per un'altra operazione",
};

function mapDatabaseError(err: unknown): AppError | undefined {
  const code = pgErrorCode(err);
  if (code === '23P01' || code === '23505') {
    const constraint = pgConstraint(err) ?? '';
    return conflict(CONSTRAINT_MESSAGES[constraint] ?? 'Operazione in conflitto con dati esistenti', 'CONFLICT');
  }
  if (code === '23503') return conflict('Operazione in conflitto con dati collegati', 'CONFLICT');
  if (code === '23514' || code === '22P02' || code === '22007' || code === '22008' || code === '22001') {
    return badRequest('Dati non validi', 'INVALID_DATA');
  }
  // A NUL character (JSON allows "\u0000") or one the database's encoding cannot hold: the
  // text cannot be stored or compared, so it is invalid input, not a server error.
  if (code === '22021' || code === '22P05') return badRequest('Dati non validi: il testo contiene caratteri non ammessi', 'INVALID_DATA');
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

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Richiesta troppo grande (massimo 64 KB)'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Formato non supportato: invia i dati come JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Richiesta non valida'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Il corpo della richiesta JSON è vuoto'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'JSON non valido'],
};

/**
 * Errors Fastify raises before any route runs (a URL that is not valid percent-encoding),
 * which the error handler never sees: Fastify's own answer is English and echoes the URL.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const lingua = requestLingua(request);
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send({ message: localise('Indirizzo della richiesta non valido', lingua), code: 'BAD_URL' });
  }
  return reply.status(400).send({ message: localise('Richiesta non valida', lingua), code: 'BAD_REQUEST' });
}

export const MSG_BUSY = 'Servizio momentaneamente occupato, riprova tra qualche secondo';
/** Seconds a client is asked to wait after a 503 for overload (decision 023). */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export const MSG_DB_UNAVAILABLE = 'Servizio momentaneamente non disponibile, riprova tra qualche secondo';
/** Seconds a client is asked to wait while the database is away (a restart takes about one). */
export const DB_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The answer while the database is away (issue 32, decision 038): for the error handler and the pages. */
export function sendDatabaseUnavailable(reply: FastifyReply) {
  return reply
    .status(503)
    .header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS))
    .header('cache-control', 'no-store')
    .send({ message: localise(MSG_DB_UNAVAILABLE, requestLingua(reply.request)), code: 'DB_UNAVAILABLE' });
}

/** An answer's fields (`{ campo: messaggio }`) in `lingua`. */
function localiseFields(fields: Record<string, string>, lingua: ReturnType<typeof requestLingua>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, message]) => [key, localise(message, lingua)]));
}

/** Turns any error into behaviour.md §4's JSON body. 5xx never shows internals. */
export function registerErrorHandler(app: FastifyInstance) {
  // The shared schemas write their messages in Italian here; the handler answers in the request's language.
  setSharedTranslator(tFor('it'));
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    // Every message below is written in Italian (or as a Testo) and answered in the request's language (issue 36).
    const lingua = requestLingua(request);
    if (error instanceof AppError) {
      const extra = error.extra?.fields ? { ...error.extra, fields: localiseFields(error.extra.fields as Record<string, string>, lingua) } : error.extra;
      return reply
        .status(error.statusCode)
        .send({ message: localise(error.text, lingua), ...(error.code ? { code: error.code } : {}), ...extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const v of error.validation) {
        const key = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[key] ??= v.message ?? 'Valore non valido';
      }
      const localised = localiseFields(fields, lingua);
      const first = Object.values(localised)[0];
      return reply.status(400).send({ message: first ?? localise('Dati non validi', lingua), code: 'VALIDATION_ERROR', fields: localised });
    }
    if (error instanceof ZodError) {
      const fields = localiseFields(zodFields(error.issues), lingua);
      return reply
        .status(400)
        .send({ message: Object.values(fields)[0] ?? localise('Dati non validi', lingua), code: 'VALIDATION_ERROR', fields });
    }
    if (isPoolBusy(error)) {
      // No database connection within the bound: an overload, not a fault. The step that
      // needed the connection did not run; every transaction is whole or absent.
      request.log.warn({ err: error }, 'database pool busy: answered 503');
      return reply
        .status(503)
        .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
        .send({ message: localise(MSG_BUSY, lingua), code: 'BUSY' });
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
      return reply.status(mapped.statusCode).send({ message: localise(mapped.text, lingua), code: mapped.code });
    }
    const fe = error as FastifyError;
    if (fe.code && FASTIFY_MESSAGES[fe.code]) {
      const [status, message] = FASTIFY_MESSAGES[fe.code]!;
      return reply.status(status).send({ message: localise(message, lingua), code: fe.code.replace(/^FST_ERR_CTP_/, '') });
    }
    if (fe.statusCode === 429) {
      return reply.status(429).send({ message: localise(fe.message, lingua), code: 'RATE_LIMITED' });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      // Other client errors from Fastify or a plugin (e.g. a malformed body): the message is
      // English and technical, so it is replaced.
      return reply.status(fe.statusCode).send({ message: localise('Richiesta non valida', lingua), code: 'BAD_REQUEST' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: localise('Errore interno del server', lingua), code: 'INTERNAL' });
  });
}
