import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { createRequire } from 'node:module';
import type pinoPrettyModule from 'pino-pretty';

export type Logger = PinoLogger;

/** What a logged error may show: never the SQL of a failed query or its parameters. */
export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  constraint?: string;
  statusCode?: number;
  /** The frames of the stack (`at …` lines) without its first line, which repeats the message. */
  stack?: string;
}

/**
 * The `err` of a log line. An error of the database driver carries the SQL text and its
 * parameters (which may be an email, a password hash or a token): they are not written.
 * Drizzle's "Failed query: …" wraps the driver's error, whose own message names the problem
 * without the SQL. The stack's frames are kept, for whoever has to find the bug behind a 500;
 * its first line is not, as it repeats the unfiltered message. (Responses never carry
 * either: http/errors.ts.)
 */
export function serializeError(value: unknown): LoggedError | unknown {
  if (!(value instanceof Error)) return value;
  const err = value as Error & { code?: unknown; constraint?: unknown; statusCode?: unknown; query?: unknown };
  let message = err.message;
  if (typeof err.query === 'string' || /^Failed query:/.test(message)) {
    message = err.cause instanceof Error ? err.cause.message : 'query failed';
  }
  const cause = err.cause as { code?: unknown; constraint?: unknown } | undefined;
  const code = typeof err.code === 'string' ? err.code : typeof cause?.code === 'string' ? cause.code : undefined;
  const constraint =
    typeof err.constraint === 'string' ? err.constraint : typeof cause?.constraint === 'string' ? cause.constraint : undefined;
  const frames = err.stack
    ?.split('\n')
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 15)
    .join('\n');
  return {
    type: err.constructor?.name ?? 'Error',
    message: message.split('\n')[0]!.slice(0, 500),
    ...(code ? { code } : {}),
    ...(constraint ? { constraint } : {}),
    ...(typeof err.statusCode === 'number' ? { statusCode: err.statusCode } : {}),
    ...(frames ? { stack: frames } : {}),
  };
}

/** The calendar feed's token is in its path (decision 022): logged URLs show `***` instead. */
const CALENDAR_FEED_PATH = /(\/api\/calendario\/)[^?#]*/gi;
/** So is the rack board's (issue 34): `/api/rastrelliera/***` and `/rastrelliera/***`, its stream's too. */
const RACK_PATH = /(\/rastrelliera\/)[^?#/]*/gi;

/** A request URL as a log line may show it: the calendar feed's and the rack board's tokens masked. */
export function maskUrl(url: string): string {
  return url.replace(CALENDAR_FEED_PATH, '$1***').replace(RACK_PATH, '$1***');
}

interface LoggableRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * The `req` of a log line: Fastify's own request serializer (method, url, version, host,
 * remote address and port), with the URL masked by maskUrl. Fastify lets the logger
 * instance's serializers override its defaults, so this one is used for every request line.
 */
export function serializeRequest(req: LoggableRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? maskUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * How log lines look: `json` (one object a line, for files, journald, collectors) or `pretty`
 * (readable lines, for a person at a terminal). Unset: pretty when stdout is a terminal.
 */
export function logFormatFor(format: 'json' | 'pretty' | undefined, stdoutIsTty = Boolean(process.stdout.isTTY)): 'json' | 'pretty' {
  return format ?? (stdoutIsTty ? 'pretty' : 'json');
}

/**
 * JSON logs on stdout (pino), or on `destination` (tests collect them); with `format` pretty
 * (or unset at a terminal), readable lines through pino-pretty, in this process (no worker
 * thread), colours only at a terminal. Secrets in requests are never written, nor the calendar
 * feed's token (serializeRequest); errors are written without SQL (serializeError): redaction
 * and serializers run before the line is formatted, so both formats hide the same.
 */
export function createLogger(level: string, destination?: DestinationStream, format?: 'json' | 'pretty'): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
  };
  // Readable when asked, or unset at a terminal; a given destination (tests) stays JSON unless asked.
  const pretty = format === 'pretty' || (!destination && logFormatFor(format) === 'pretty');
  if (pretty) {
    // Loaded only for the readable format (a terminal, or LOG_FORMAT=pretty): a server logging
    // JSON never carries it (issue 33). A plain require: this function stays synchronous.
    const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof pinoPrettyModule;
    return pino(
      options,
      pinoPretty({
        colorize: !destination && Boolean(process.stdout.isTTY),
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        singleLine: false,
        // Written before process.exit() at the end of a stop, as pino's own stdout is.
        sync: true,
        ...(destination ? { destination } : {}),
      }),
    );
  }
  if (destination) return pino(options, destination);
  return pino(options);
}
