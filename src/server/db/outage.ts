import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The database away (issue 32, decision 038): a restart, a fail-over, a terminated backend,
 * a network cut. What an error of that kind looks like, and the one state per pool that
 * says whether the database is reachable now.
 */

/**
 * SQLSTATEs that say the connection, not the statement, failed: the server is shutting down
 * or was told to end this backend (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
 * connect now: starting up or shutting down), the connection broke (class 08), or it leads to a
 * standby (25006, below).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '25006']);

/**
 * `read_only_sql_transaction`: a write reached a server in recovery, a standby. Behind an address
 * that moves at a fail-over (HAProxy with Patroni's check, a virtual IP), that is the database
 * away for a moment, not a refusal (issue 50, decision 057): the statement did nothing, the
 * request waits for a primary and runs again, or is answered 503 with Retry-After.
 */
export const READ_ONLY_SERVER = '25006';

/** Socket errors of a server that is not there, or went away mid-conversation. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * node-postgres's own errors for a connection that ended or broke. They carry no code, so
 * their (stable, tested) messages are the only mark.
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'terminating connection due to administrator command',
];

/** No connection to the database within the wait bound: answered 503 with Retry-After. */
export class DatabaseUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('the database is not reachable', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * True when `err`, or an error it wraps (Drizzle's `cause`), says the database or the
 * connection to it is away, not that a statement was refused.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m))) return true;
    // An AggregateError (a host with several addresses, each refused).
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0 && inner.every((x) => isDatabaseUnavailable(x))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether the database is reachable, as one pool sees it. A new connection that fails as
 * unavailable marks it down; from then on a single prober tries a connection every
 * PROBE_INTERVAL_MS, and callers wait for it (up to their bound) instead of each knocking.
 * The first connection that works marks it up again and wakes every waiter.
 */
export class DatabaseReachability {
  static readonly PROBE_INTERVAL_MS = 100;
  private downSince: number | undefined;
  private waiters = new Set<() => void>();
  private probing = false;
  private stopped = false;
  /** Outages seen by this pool (for tests and the metrics). */
  outages = 0;

  constructor(
    private readonly probe: () => Promise<void>,
    private readonly onChange: (up: boolean, downForMs?: number) => void = () => undefined,
  ) {}

  get up(): boolean {
    return this.downSince === undefined;
  }

  /** A connection could not be made: the database is away (from now, or still). */
  markDown(): void {
    if (this.downSince === undefined) {
      this.downSince = performance.now();
      this.outages++;
      this.onChange(false);
    }
    void this.runProber();
  }

  /** A connection worked: the database is back. */
  markUp(): void {
    if (this.downSince === undefined) return;
    const downFor = performance.now() - this.downSince;
    this.downSince = undefined;
    this.onChange(true, downFor);
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Resolves true once the database is up, false if `ms` pass first. */
  async waitUntilUp(ms: number): Promise<boolean> {
    if (this.up) return true;
    if (ms <= 0) return false;
    let wake!: () => void;
    const back = new Promise<true>((resolve) => (wake = () => resolve(true)));
    this.waiters.add(wake);
    const timer = sleep(ms, false, { ref: false });
    try {
      return await Promise.race([back, timer]);
    } finally {
      this.waiters.delete(wake);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  private async runProber(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      while (!this.up && !this.stopped) {
        await sleep(DatabaseReachability.PROBE_INTERVAL_MS, undefined, { ref: false });
        if (this.stopped) return;
        try {
          await this.probe();
          this.markUp();
        } catch {
          // Still away: the next probe in PROBE_INTERVAL_MS.
        }
      }
    } finally {
      this.probing = false;
    }
  }
}
