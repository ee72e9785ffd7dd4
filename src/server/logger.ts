import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

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

/**
 * JSON logs on stdout (pino), or on `destination` (tests collect them). Secrets in requests
 * are never written; errors are written without SQL (serializeError).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
    serializers: { err: serializeError, error: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
