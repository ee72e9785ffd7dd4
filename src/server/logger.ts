import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** JSON logs on stdout (pino). Secrets in requests are never written. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
  });
}
