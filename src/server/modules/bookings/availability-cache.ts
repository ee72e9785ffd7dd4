import type { BikeDto } from '../../../shared/schemas/booking.js';
import type { Db } from '../../db/client.js';
import type { NotifiedCache } from '../../db/notifications.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import type { JsonText } from './service.js';

/** The channel on which the database announces changes of bikes and bookings (drizzle/0002_*.sql). */
export const AVAILABILITY_CHANNEL = 'bicielis_availability';

/** How long an answer may be served (by the injected clock); notifications usually end it sooner. */
export const AVAILABILITY_CACHE_MS = 1000;

/**
 * Answers of the availability query per window, for at most one second. Most people open
 * the booking form on the same default window, so under load most requests are served from
 * here without a database round trip. Coherence comes from the database: triggers NOTIFY
 * every statement that changes bikes or bookings, and the process's listener
 * (`listenForChanges`) empties this cache within milliseconds of the commit, whoever wrote;
 * writes of this process also empty it at once (`invalidateAvailability`). The cache serves
 * only while the listener is connected and is emptied when it drops.
 * docs/decisions/007-availability-hot-path.md, 011-availability-cache-coherence.md.
 */
export class AvailabilityCache implements NotifiedCache {
  private readonly answers: TtlCache<JsonText<BikeDto[]>>;
  private live = false;
  private generation = 0;

  constructor(ttlMs = AVAILABILITY_CACHE_MS, maxEntries = 256) {
    this.answers = new TtlCache(ttlMs, maxEntries);
  }

  /** Whether the listener is connected (otherwise every request goes to the database). */
  get active(): boolean {
    return this.live;
  }

  setActive(active: boolean): void {
    this.live = active;
    this.clear();
  }

  /**
   * Taken before querying and handed to `set`: an answer read before a change that has been
   * announced since (the notification can overtake the query's reply) is not kept.
   */
  get version(): number {
    return this.generation;
  }

  get(key: string, now: Date): JsonText<BikeDto[]> | undefined {
    return this.live ? this.answers.get(key, now) : undefined;
  }

  set(key: string, value: JsonText<BikeDto[]>, now: Date, version: number): void {
    if (this.live && version === this.generation) this.answers.set(key, value, now);
  }

  clear(): void {
    this.generation++;
    this.answers.clear();
  }

  /** A notification: bikes or bookings changed somewhere; every answer may be wrong. */
  apply(): void {
    this.clear();
  }

  get size(): number {
    return this.answers.size;
  }
}

const caches = new WeakMap<Db, AvailabilityCache>();

/** The availability cache of a database handle (one per pool, so one per app instance). */
export function availabilityCacheFor(db: Db): AvailabilityCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new AvailabilityCache();
    caches.set(db, cache);
  }
  return cache;
}
