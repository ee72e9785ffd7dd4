import type { NotifiedCache } from '../../db/notifications.js';
import type { FoundSession } from './sessions.js';

/** The channel on which the database announces revoked sessions and changed users. */
export const AUTH_CHANNEL = 'bicielis_auth';

/**
 * Sessions looked up recently, so that an authenticated request needs no database round
 * trip. Correctness comes from the database: triggers (drizzle/0001_*.sql) NOTIFY every
 * deleted session (logout, password change, purge, user deleted) and every change of a
 * user's role, activation or identity, and the process's listener (`listenForChanges` in
 * db/notifications.ts) evicts the entry within milliseconds of the commit. The cache only
 * serves while that listener is connected; it is emptied whenever the connection drops.
 * Entries also expire after `ttlMs`.
 * docs/decisions/008-session-cache.md.
 */
export class SessionCache implements NotifiedCache {
  private readonly entries = new Map<string, { found: FoundSession; until: number }>();
  private live = false;
  private generation = 0;

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
    this.generation++;
    if (!active) this.entries.clear();
  }

  /**
   * Taken before a database lookup and handed to `set`: a session read just before another
   * process ended it (the notification can overtake the lookup's reply) is then not kept.
   */
  get version(): number {
    return this.generation;
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

  set(tokenHash: string, found: FoundSession, version: number): void {
    if (!this.live || version !== this.generation) return;
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
    this.generation++;
    if (payload.startsWith('s:')) this.evictSession(payload.slice(2));
    else if (payload.startsWith('u:')) this.evictUser(Number(payload.slice(2)));
    else this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
