import { timingSafeEqual, createHash } from 'node:crypto';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';

/**
 * The app's Prometheus metrics (issue 24, decision 032). One registry per app instance:
 * tests build many apps in one process, and prom-client's global registry would refuse the
 * second copy of every name. Incrementing a counter is the only cost on a request's path;
 * the pool's gauges are read when Prometheus scrapes.
 */

/** What happened to a booking. */
export type BookingEvent = 'created' | 'cancelled' | 'picked_up' | 'extended' | 'returned' | 'no_show' | 'hold_expired' | 'moved' | 'fleet_cancelled';

/**
 * How a payment ended, as this process saw it: `succeeded` (applied to its booking),
 * `declined` (the provider refused the card), `not_succeeded` (a confirm for an intent that
 * had not succeeded), `expired` (the hold ran out unpaid: the life cycle failed it),
 * `refunded_on_arrival` (paid too late, or twice: given back at once).
 */
export type PaymentOutcome = 'succeeded' | 'declined' | 'not_succeeded' | 'expired' | 'refunded_on_arrival';

export interface AppMetrics {
  readonly registry: Registry;
  readonly httpDuration: RouteDurations;
  readonly bookings: Counter<'event'>;
  readonly payments: Counter<'outcome'>;
  readonly refunds: Counter<'result'>;
  readonly jobRuns: Counter<'job' | 'outcome'>;
  readonly jobDuration: Histogram<'job'>;
  readonly jobLastSuccess: Gauge<'job'>;
  readonly emails: Counter<'outcome'>;
  /** The pool whose connections the gauges report (read at scrape time). */
  watchPool(pool: pg.Pool): void;
  /**
   * The embedded cluster's WAL archive, read from `pg_stat_archiver` at scrape time (decision
   * 056). Called only with the embedded database: with DATABASE_URL the series are absent.
   */
  watchArchive(pool: pg.Pool): void;
  /** Runs a job's body, counting its run, duration and failure (a throw) under `job`. */
  timeJob<T>(job: string, run: () => Promise<T>): Promise<T>;
}

export interface MetricsOptions {
  /** Node's process metrics (`process_*`, `nodejs_*`) on this registry; default true. */
  processDefaults?: boolean;
}

export function createMetrics(options: MetricsOptions = {}): AppMetrics {
  const registry = new Registry();
  if (options.processDefaults ?? true) collectDefaultMetrics({ register: registry });
  const counters = createCounters(registry);
  const pool = poolGauges(registry);
  return {
    registry,
    ...counters,
    watchPool: pool.watch,
    watchArchive: archiveGauges(registry),
    timeJob: jobTimer(counters),
  };
}

type Counters = Omit<AppMetrics, 'registry' | 'watchPool' | 'watchArchive' | 'timeJob'>;

/** The request histogram and the event counters, every label value at 0 from the first scrape. */
function createCounters(registry: Registry): Counters {
  const httpDuration = new RouteDurations(
    'bicielis_http_request_duration_seconds',
    'Durata delle richieste HTTP, per metodo, rotta (il modello, mai l’URL) e codice di stato',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  // prom-client's registry reads a metric through `get()` (and `reset()`); its types list only
  // its own classes.
  registry.registerMetric(httpDuration as unknown as Metric);
  const counter = <L extends string>(name: string, help: string, label: L) =>
    new Counter<L>({ name, help, labelNames: [label] as const, registers: [registry] });
  const bookings = counter(
    'bicielis_booking_events_total',
    'Prenotazioni: create, annullate, ritirate, riconsegnate, mancati ritiri, attese di pagamento scadute',
    'event',
  );
  const payments = counter('bicielis_payments_total', 'Pagamenti per esito', 'outcome');
  const refunds = counter('bicielis_refunds_total', 'Rimborsi chiesti al servizio di pagamento, per risultato (ok, failed)', 'result');
  const jobRuns = new Counter({
    name: 'bicielis_job_runs_total',
    help: 'Esecuzioni dei lavori pianificati, per lavoro ed esito (success, failure, skipped)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'bicielis_job_duration_seconds',
    help: 'Durata dei lavori pianificati eseguiti da questo processo',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [registry],
  });
  const jobLastSuccess = new Gauge({
    name: 'bicielis_job_last_success_timestamp_seconds',
    help: 'Istante (Unix, secondi) dell’ultima esecuzione riuscita di ogni lavoro in questo processo',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const emails = counter('bicielis_emails_total', 'Email consegnate (SMTP o cartella outbox) e non consegnate', 'outcome');

  // Every label value is known in advance: the series exist (at 0) from the first scrape, so a
  // rate() or an alert sees the first event, not only the second.
  for (const event of ['created', 'cancelled', 'picked_up', 'extended', 'returned', 'no_show', 'hold_expired', 'moved', 'fleet_cancelled'] satisfies BookingEvent[]) {
    bookings.inc({ event }, 0);
  }
  for (const outcome of ['succeeded', 'declined', 'not_succeeded', 'expired', 'refunded_on_arrival'] satisfies PaymentOutcome[]) {
    payments.inc({ outcome }, 0);
  }
  for (const result of ['ok', 'failed']) refunds.inc({ result }, 0);
  for (const outcome of ['sent', 'failed']) emails.inc({ outcome }, 0);
  return { httpDuration, bookings, payments, refunds, jobRuns, jobDuration, jobLastSuccess, emails };
}

/** The pool's gauges, read at scrape time from the pool `watch` names. */
function poolGauges(registry: Registry): { watch(pool: pg.Pool): void } {
  let pool: pg.Pool | undefined;
  new Gauge({
    name: 'bicielis_db_pool_connections',
    help: 'Connessioni al database del pool di questo processo, per stato (in_use, idle)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: 'bicielis_db_pool_waiting_requests',
    help: 'Richieste in attesa di una connessione al database (oltre DATABASE_POOL_QUEUE_MAX: 503)',
    registers: [registry],
    collect() {
      if (pool) this.set(pool.waitingCount);
    },
  });
  new Gauge({
    name: 'bicielis_db_pool_max_connections',
    help: 'Connessioni al database che questo processo può aprire (DATABASE_POOL_MAX)',
    registers: [registry],
    collect() {
      if (pool) this.set(pool.options.max ?? 10);
    },
  });
  return {
    watch(p) {
      pool = p;
    },
  };
}

/**
 * The archiver's two series, made on the first `watch` (absent otherwise). The age counts from
 * the server's start while nothing has been archived since: an archive that never worked shows
 * as old, not as missing. A database away at scrape time leaves both at their last values.
 */
function archiveGauges(registry: Registry): (pool: pg.Pool) => void {
  return (pool) => {
    const read = async () => {
      const { rows } = await pool.query<{ age: number; failed: number }>(
        `select extract(epoch from now() - coalesce(last_archived_time, pg_postmaster_start_time()))::float8 as age, failed_count::float8 as failed from pg_stat_archiver`,
      );
      return rows[0];
    };
    new Gauge({
      name: 'bicielis_wal_archive_age_seconds',
      help: 'Secondi dall’ultimo segmento di log (WAL) archiviato, o dall’avvio di PostgreSQL se nessuno (pg_stat_archiver)',
      registers: [registry],
      async collect() {
        const row = await read().catch(() => undefined);
        if (row) this.set(Math.max(0, row.age));
      },
    });
    new Gauge({
      name: 'bicielis_wal_archive_failures',
      help: 'Archiviazioni di segmenti di log non riuscite dall’avvio o dall’azzeramento delle statistiche (pg_stat_archiver.failed_count)',
      registers: [registry],
      async collect() {
        const row = await read().catch(() => undefined);
        if (row) this.set(row.failed);
      },
    });
  };
}

/** Runs a job's body, counting its run, duration and failure (a throw) under `job`. */
function jobTimer({ jobRuns, jobDuration, jobLastSuccess }: Counters): AppMetrics['timeJob'] {
  return async (job, run) => {
    const end = jobDuration.startTimer({ job });
    try {
      const result = await run();
      jobRuns.inc({ job, outcome: 'success' });
      jobLastSuccess.set({ job }, Date.now() / 1000);
      return result;
    } catch (err) {
      jobRuns.inc({ job, outcome: 'failure' });
      throw err;
    } finally {
      end();
    }
  };
}

/**
 * The counts the services make where things happen (a booking made, a payment applied, the
 * life cycle's releases), into the metrics `buildApp` hands them in their deps. Without any
 * (the CLI, a test calling a service alone) nothing is counted.
 */
export function countBooking(metrics: AppMetrics | undefined, event: BookingEvent, n = 1): void {
  if (n > 0) metrics?.bookings.inc({ event }, n);
}

export function countPayment(metrics: AppMetrics | undefined, outcome: PaymentOutcome, n = 1): void {
  if (n > 0) metrics?.payments.inc({ outcome }, n);
}

/** Counts one refund asked of the provider. */
export function countRefund(metrics: AppMetrics | undefined, result: 'ok' | 'failed'): void {
  metrics?.refunds.inc({ result });
}

/** Addresses of this machine: a scrape from one of them (with no proxy header) needs no token. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Whether `presented` equals `expected`, in a time that does not depend on where they differ. */
export function tokenMatches(presented: string, expected: string): boolean {
  // Digests of equal length: timingSafeEqual needs them, and the length leaks nothing.
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** One series of the request histogram: a method, a route and a status. */
interface DurationSeries {
  readonly labels: { method: string; route: string; status_code: string };
  /** Observations per bucket (not cumulative), the last one past every bound (`+Inf`). */
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * The request histogram (`bicielis_http_request_duration_seconds`), exposed by prom-client's
 * registry in its own format, recorded without its cost per observation: prom-client's
 * `Histogram.observe` checks the label names, builds a hash string of the labels and looks it
 * up on every call (issue 33: 1.1 µs of every answer). Here each route gets a recorder once
 * (`forRoute`, when the route is registered), which finds its series by method and status in
 * two small maps and adds to an array.
 */
export class RouteDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series: DurationSeries[] = [];
  private readonly recorders = new Map<string, (method: string, status: number, seconds: number) => void>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /**
   * The recorder of one route pattern (or of `unmatched`): `(method, status, seconds)`. Routes
   * of the same pattern (a GET and its HEAD, a GET and a POST) share it, so a label set has
   * one series whichever route recorded it.
   */
  forRoute(route: string): (method: string, status: number, seconds: number) => void {
    let recorder = this.recorders.get(route);
    if (recorder === undefined) this.recorders.set(route, (recorder = this.newRecorder(route)));
    return recorder;
  }

  private newRecorder(route: string): (method: string, status: number, seconds: number) => void {
    const byMethod = new Map<string, Map<number, DurationSeries>>();
    return (method, status, seconds) => {
      let byStatus = byMethod.get(method);
      if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
      let series = byStatus.get(status);
      if (series === undefined) {
        series = { labels: { method, route, status_code: String(status) }, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
        byStatus.set(status, series);
        this.series.push(series);
      }
      let bucket = 0;
      while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
      series.counts[bucket]! += 1;
      series.sum += seconds;
      series.count += 1;
    };
  }

  /** What prom-client's registry prints: cumulative buckets, `+Inf`, sum and count per series. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  /** Forgets every observation (the registry's `resetMetrics`); the recorders keep working. */
  reset(): void {
    for (const series of this.series) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
