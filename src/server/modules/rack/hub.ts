import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { RackBoard } from '../../../shared/schemas/fleet.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { NotifiedCache } from '../../db/notifications.js';
import type { Logger } from '../../logger.js';
import { fleetReading } from '../bookings/index.js';
import { currentRules, lifecycleMinutes, type RulesCache } from '../rules/index.js';
import { sediNames } from '../sedi/index.js';
import { liveLinkIds } from './service.js';

/** How often the process looks for a change while a stream is open (decision 044: within 5 s). */
export const RACK_TICK_MS = 1_000;
/**
 * A `ping` event on every stream this often: proxies keep the stream open, and the page, which
 * cannot see comment lines, tells a stream gone silent (a network dropped without a word) from
 * a quiet one.
 */
export const RACK_HEARTBEAT_MS = 25_000;
/** The board is read again at least this often, and the live link checked (a missed notification). */
const RACK_MAX_AGE_MS = 60_000;

interface Stream {
  linkId: number;
  /** The link's sede: the stream gets only that sede's board (issue 47). */
  sedeId: number;
  out: PassThrough;
}

export interface RackHubDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'timeZone'>;
  log: Pick<Logger, 'warn'>;
  rulesCache?: RulesCache | undefined;
}

/** An event of the stream: the board as JSON on one `data:` line. */
const event = (json: string) => `data: ${json}\n\n`;

/** A sede's board without its time: what tells whether it changed. */
type BoardBody = Omit<RackBoard, 'aggiornatoAlle'>;

/**
 * The rack's board streams of this process (issue 34, decision 044). One timer while at least
 * one stream is open: each tick asks PostgreSQL whether a transaction changed what the board
 * read (decision 040's change rows, one indexed query), reads the board again only then, when
 * the clock passed one of its instants, or when it is a minute old, and sends it to every
 * stream when it differs. A new link or a revocation is NOTIFYed on RACK_CHANNEL (main.ts
 * listens): each process closes the streams of a link no longer live.
 *
 * One board per sede (issue 47), cut from the same reading of the whole fleet: a sede's streams
 * get its board only when its own bikes changed. The board names its sede only when the
 * install has several.
 */
export class RackHub implements NotifiedCache {
  private readonly streams = new Set<Stream>();
  private timer: NodeJS.Timeout | undefined;
  private reading: (Awaited<ReturnType<typeof fleetReading.readFleetNow>> & { readAt: number; real: number }) | undefined;
  /** Each sede's board as sent (JSON), and its body as last compared. */
  private boards = new Map<number, { json: string; body: string }>();
  private names: { several: boolean; names: Map<number, string> } = { several: false, names: new Map() };
  private lastHeartbeat = 0;
  private lastLinkCheck = 0;
  private busy: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: RackHubDeps) {}

  /** A sede's board now (what `GET /api/rastrelliera/:token` answers): the last reading's, when still current. */
  async current(sedeId: number): Promise<string> {
    await this.refresh();
    return this.boardOf(sedeId);
  }

  /** Opens a stream for the live link `linkId` of a sede: it gets the board at once, then every change. */
  async open(linkId: number, sedeId: number): Promise<PassThrough> {
    // Read first: a failure answers an error, and leaves no stream behind.
    const board = await this.current(sedeId);
    const out = new PassThrough();
    if (this.stopped) {
      out.end();
      return out;
    }
    const stream: Stream = { linkId, sedeId, out };
    this.streams.add(stream);
    out.on('close', () => this.drop(stream));
    // The client reconnects after 3 s when the stream ends (EventSource's `retry`).
    out.write('retry: 3000\n\n');
    out.write(event(board));
    if (!this.timer) {
      this.lastHeartbeat = performance.now();
      this.timer = setInterval(() => void this.tick(), RACK_TICK_MS);
      this.timer.unref();
    }
    return out;
  }

  /** How many streams are open (for the tests). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** A NOTIFY on RACK_CHANNEL: a link was made or revoked somewhere. */
  apply(): void {
    void this.closeStale().catch((err: unknown) => this.deps.log.warn({ err }, 'rack: live link check failed'));
  }

  setActive(): void {
    // Missed notifications are caught by the minute's check of the live link (tick).
  }

  /** Closes the streams of any link that is no longer live. */
  async closeStale(): Promise<void> {
    if (this.streams.size === 0) return;
    this.lastLinkCheck = performance.now();
    const live = await liveLinkIds(this.deps.db);
    for (const stream of this.streams) if (!live.has(stream.linkId)) this.end(stream);
  }

  /** Ends every stream and the timer (the app's close: a stream must not hold the stop). */
  stop(): void {
    this.stopped = true;
    for (const stream of this.streams) this.end(stream);
    this.halt();
  }

  private end(stream: Stream): void {
    this.streams.delete(stream);
    stream.out.end();
  }

  private drop(stream: Stream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0) this.halt();
  }

  private halt(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads the board again when it may have changed; one reading at a time. */
  private refresh(): Promise<void> {
    this.busy ??= this.readIfChanged().finally(() => {
      this.busy = undefined;
    });
    return this.busy;
  }

  private async readIfChanged(): Promise<void> {
    const now = this.deps.clock.now();
    const r = this.reading;
    if (r && now.getTime() >= r.readAt && now.getTime() < r.validUntil && performance.now() - r.real < RACK_MAX_AGE_MS) {
      const minutes = lifecycleMinutes(await currentRules(this.deps));
      if (minutes.hold === r.hold && minutes.noShow === r.noShow && !(await fleetReading.fleetChangedSince(this.deps.db, r))) return;
    }
    const [reading, names] = await Promise.all([fleetReading.readFleetNow(this.deps, now), sediNames(this.deps.db)]);
    this.reading = { ...reading, readAt: now.getTime(), real: performance.now() };
    this.names = names;
    const sedi = new Set([...reading.sedeOf.values(), ...this.boards.keys()]);
    for (const sedeId of sedi) {
      const body = this.bodyOf(sedeId);
      const json = JSON.stringify(body);
      // The same bikes in the same states: the last board stands (its time is when it became true).
      if (this.boards.get(sedeId)?.body === json) continue;
      const board = JSON.stringify({ aggiornatoAlle: now.toISOString(), ...body } satisfies RackBoard);
      this.boards.set(sedeId, { json: board, body: json });
      for (const stream of this.streams) if (stream.sedeId === sedeId) stream.out.write(event(board));
    }
  }

  /** A sede's bikes from the last reading, and its name when the install has several. */
  private bodyOf(sedeId: number): BoardBody {
    const bici = (this.reading?.bici ?? []).filter((b) => this.reading?.sedeOf.get(b.biciId) === sedeId);
    const nome = this.names.names.get(sedeId);
    return { bici, sede: this.names.several && nome !== undefined ? { nome } : null };
  }

  /** A sede's board: the one sent, or (a sede without bikes yet) made now from the last reading. */
  private boardOf(sedeId: number): string {
    const known = this.boards.get(sedeId);
    if (known) return known.json;
    const body = this.bodyOf(sedeId);
    const json = JSON.stringify({ aggiornatoAlle: new Date(this.reading?.readAt ?? this.deps.clock.now().getTime()).toISOString(), ...body } satisfies RackBoard);
    this.boards.set(sedeId, { json, body: JSON.stringify(body) });
    return json;
  }

  private async tick(): Promise<void> {
    try {
      if (performance.now() - this.lastLinkCheck >= RACK_MAX_AGE_MS) await this.closeStale();
      if (this.streams.size === 0) return;
      await this.refresh();
      if (performance.now() - this.lastHeartbeat >= RACK_HEARTBEAT_MS) {
        this.lastHeartbeat = performance.now();
        for (const stream of this.streams) stream.out.write('event: ping\ndata: {}\n\n');
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'rack: board update failed');
    }
  }
}

/**
 * The app's hub (`app.rack`), its streams ended as the stop begins (preClose): an open stream
 * would otherwise hold the close until the tablet went away.
 */
export function attachRackHub(app: FastifyInstance): RackHub {
  const { database, clock, config, rulesCache } = app.deps;
  const hub = new RackHub({ db: database.db, clock, config, rulesCache, log: app.log });
  app.decorate('rack', hub);
  app.addHook('preClose', async () => hub.stop());
  return hub;
}
