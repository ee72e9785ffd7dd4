import pg from 'pg';
import type { Logger } from '../../logger.js';
import type { FoundSession } from './sessions.js';

/** The channel on which the database announces revoked sessions and changed users. */
export const AUTH_CHANNEL = 'bicielis_auth';

/**
 * Sessions looked up recently, so that an authenticated request needs no database round
 * trip. Correctness comes from the database: triggers (drizzle/0001_*.sql) NOTIFY every
 * deleted session (logout, password change, purge, user deleted) and every change of a
 * user's role, activation or identity, and `listenForRevocations` evicts the entry in every
 * process within milliseconds of the commit. The cache only serves while that listener is
 * connected; it is emptied whenever the connection drops. Entries also expire after `ttlMs`.
 * docs/decisions/008-session-cache.md.
 */
export class SessionCache {
  private readonly entries = new Map<string, { found: FoundSession; until: number }>();
  private live = false;

  constructor(
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether the listener is connected (otherwise every lookup goes to the database). */
  get active(): boolean {
    return this.live;
  }

  setActive(active: boolean): void {
    this.live = active;
    if (!active) this.entries.clear();
  }

  get(tokenHash: string): FoundSession | undefined {
    if (!this.live) return undefined;
    const hit = this.entries.get(tokenHash);
    if (!hit) return undefined;
    if (hit.until <= this.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return hit.found;
  }

  set(tokenHash: string, found: FoundSession): void {
    if (!this.live) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { found, until: this.now() + this.ttlMs });
  }

  evictSession(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  evictUser(userId: number): void {
    for (const [hash, { found }] of this.entries) {
      if (found.user.id === userId) this.entries.delete(hash);
    }
  }

  /** Applies one notification payload: `s:<token hash>` or `u:<user id>`. */
  apply(payload: string): void {
    if (payload.startsWith('s:')) this.evictSession(payload.slice(2));
    else if (payload.startsWith('u:')) this.evictUser(Number(payload.slice(2)));
    else this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Keeps a dedicated connection LISTENing on AUTH_CHANNEL and feeds `cache`; reconnects
 * with a growing delay when the connection is lost (the cache is off meanwhile).
 */
export function listenForRevocations(url: string, cache: SessionCache, log: Logger) {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = 250;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      cache.setActive(false);
      c.removeAllListeners();
      c.on('error', () => undefined);
      void c.end().catch(() => undefined);
      if (stopped) return;
      log.warn({ err }, 'session cache: listener lost, reconnecting');
      timer = setTimeout(() => void connect(), delay);
      delay = Math.min(delay * 2, 10_000);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel === AUTH_CHANNEL) cache.apply(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${AUTH_CHANNEL}`);
      if (client !== c || stopped) return;
      delay = 250;
      cache.setActive(true);
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
      cache.setActive(false);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
