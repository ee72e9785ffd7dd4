import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * A per-process cache kept coherent by the database's notifications: it is told every
 * payload of its channel, and whether the listening connection is up (it must not serve
 * while it is not: changes made meanwhile would go unnoticed).
 */
export interface NotifiedCache {
  apply(payload: string): void;
  setActive(active: boolean): void;
}

/** The name the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'bicielis-listener';

/**
 * The listener tries again after 100 ms, then 200, 400, 800, then every second: after a
 * database restart it LISTENs again within a second of the database's return (issue 32).
 */
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 1_000;

/**
 * Keeps one dedicated connection LISTENing on every channel of `caches` (channel → cache)
 * and feeds each cache its channel's payloads. Every cache is switched on once all the
 * LISTENs are in place and off when the connection is lost; it reconnects by itself with a
 * growing delay (up to 1 s). One connection per process, whatever the number of caches (today one:
 * the session cache, channel `bicielis_auth`; the availability cache and its channel are
 * gone, decision 018). docs/decisions/008-session-cache.md.
 */
export function listenForChanges(url: string, caches: Record<string, NotifiedCache>, log: Logger) {
  const channels = Object.keys(caches);
  const all = Object.values(caches);
  const setActive = (active: boolean) => {
    for (const cache of all) cache.setActive(active);
  };
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = FIRST_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    // keepAlive: a connection cut without a word (a fail-over) is noticed, and the caches go off.
    const c = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME, keepAlive: true, connectionTimeoutMillis: 2_000 });
    client = c;
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      setActive(false);
      c.removeAllListeners();
      c.on('error', () => undefined);
      void c.end().catch(() => undefined);
      if (stopped) return;
      log.warn({ err }, 'database listener lost (caches off), reconnecting');
      timer = setTimeout(() => void connect(), delay);
      delay = Math.min(delay * 2, LAST_RETRY_MS);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => caches[msg.channel]?.apply(msg.payload ?? ''));
    try {
      await c.connect();
      await c.query(channels.map((ch) => `LISTEN ${c.escapeIdentifier(ch)}`).join('; '));
      if (client !== c || stopped) return;
      delay = FIRST_RETRY_MS;
      setActive(true);
    } catch (err) {
      lost(err);
    }
  };

  const ready = connect();
  return {
    /** Resolves once the first connection attempt is over (connected or not). */
    ready,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      setActive(false);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
