import { sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { runTransaction, type Tx } from '../../db/transaction.js';
import { applyLifecycleMarks } from '../bikes/index.js';
import { failPendingPayments } from '../payments/index.js';
import { prenotazioni } from './tables.js';
import { pagamenti } from '../payments/tables.js';
import { countBooking, countPayment, type AppMetrics } from '../../metrics.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';

/** How long before its start a booking's bike may be picked up (decision 022). */
export const PICKUP_EARLY_MINUTES = 10;

export interface LifecycleResult {
  released: number;
  noShows: number;
  bikesInUse: number;
  bikesFreed: number;
  /** Bikes shown `manutenzione` / `disponibile` again by their planned maintenance (issue 20). */
  maintenanceStarted: number;
  maintenanceEnded: number;
}

/**
 * The bookings that hold their bike now, as a condition on the row `p` (an `attiva` row):
 * picked up and not returned (in progress, or in ritardo after its end), or inside its window
 * (waiting to be picked up). `candidates` is the same set widened so that the partial indexes
 * on active rows can find it: a ride is picked up at most PICKUP_EARLY_MINUTES before its
 * start, so a picked-up ride either overlaps [at, at + early] (range index) or has ended
 * (`fine` index); the exact condition then filters those few rows.
 */
function holdsBike(at: SQL | Placeholder | string) {
  return sql`(p.ritirata_at is not null or tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz)`;
}
function holdingCandidates(at: SQL | Placeholder | string) {
  return sql`(tstzrange(p.inizio, p.fine, '[)') && tstzrange(${at}::timestamptz, ${at}::timestamptz + make_interval(mins => ${PICKUP_EARLY_MINUTES}), '[]')
              or p.fine <= ${at}::timestamptz)`;
}

/**
 * A booking not picked up by `least(inizio + N minutes, fine)` is a no-show. Written as two
 * index-friendly arms: the start N minutes ago or more (range index: the range meets
 * (-inf, at - N]), or the end passed (`fine` index).
 */
function noShowDue(at: SQL | Placeholder | string, noShowMinutes: SQL | Placeholder | number) {
  return sql`(p.ritirata_at is null
              and (tstzrange(p.inizio, p.fine, '[)') && tstzrange('-infinity', ${at}::timestamptz - make_interval(mins => ${noShowMinutes}::int), '(]')
                   or p.fine <= ${at}::timestamptz)
              and not ${bikeOutAtNoShow(noShowMinutes)})`;
}

/**
 * The booking `p`'s bike was still out at `p`'s no-show instant (issue 35, decision 045): a ride
 * on it, picked up and due back by then, not returned by then. Such a booking is not a no-show
 * (its person could not pick a bike up); the fleet's heal cancels it as `bici_non_rientrata`,
 * refunded, not counted. Evaluated only for a row already past its no-show instant.
 */
export function bikeOutAtNoShow(
  noShowMinutes: SQL | Placeholder | number,
  c: Pick<BookingStateColumns, 'id' | 'biciId' | 'inizio' | 'fine'> = P_ROW,
) {
  const instant = sql`least(${c.inizio} + make_interval(mins => ${noShowMinutes}::int), ${c.fine})`;
  return sql`exists (select 1 from prenotazioni late
     where late.bici_id = ${c.biciId} and late.id <> ${c.id} and late.ritirata_at is not null and late.fine <= ${instant}
       and (late.stato = 'attiva' or (late.stato = 'completata' and late.riconsegnata_at > ${instant})))`;
}

/** How far ahead the fleet's heal looks after a bike that is out (issue 35): 24 hours. */
export const HEAL_HORIZON_HOURS = 24;

/**
 * A booking's bike is out on a late ride at `at` (issue 35): the booking is active, not picked
 * up, starts within HEAL_HORIZON_HOURS, and another ride on its bike was due back and is not.
 * What the card's `Annulla` / `Aspetta` choice rests on; the heal has already moved it if it could.
 */
export function bikeOutNow(columns: Pick<BookingStateColumns, 'id' | 'biciId' | 'inizio' | 'stato' | 'ritirataAt'> | 'p', at: string | Placeholder) {
  const c = columns === 'p' ? P_COLUMNS : columns;
  return sql<boolean>`(${c.stato} = 'attiva' and ${c.ritirataAt} is null
    and ${c.inizio} < ${at}::timestamptz + make_interval(hours => ${HEAL_HORIZON_HOURS})
    and exists (select 1 from prenotazioni late
                 where late.bici_id = ${c.biciId} and late.id <> ${c.id} and late.stato = 'attiva'
                   and late.ritirata_at is not null and late.fine <= ${at}::timestamptz))`;
}

/**
 * Applies the booking life cycle of behaviour.md §6, as changed by decision 022, as of `now`,
 * in one statement:
 * 1. an external booking still unpaid `holdMinutes` after creation, or at its start if
 *    sooner, becomes `cancellata` (reason `pagamento_scaduto`) and its payment `failed`;
 * 2. an `attiva` booking not picked up by its start + `noShowMinutes` (or its end, if sooner)
 *    becomes `cancellata`, reason `mancato_ritiro` (its payment untouched: no refund);
 *    a picked-up booking stays `attiva` until it is returned, even after its end (in ritardo);
 * 3. a bike held by a booking (in its window, or picked up and not returned) is shown
 *    `prenotata` (marked `stato_auto`), and back to `disponibile` after only if the life
 *    cycle marked it: a bike an admin put in `prenotata`, `manutenzione` or `fuori_servizio`
 *    is left alone (decision 014).
 * Idempotent and cheap when nothing is due (partial indexes on active rows), so it runs
 * from the minute job and from the writers that must see it written (decision 035: reads
 * compute it as of now with `bookingAsOf`/`bikeStateAsOf` and write nothing).
 */
/**
 * True when `applyLifecycle` would change something at `at` (an SQL expression, e.g. a
 * placeholder): a read-only probe with no locks, so reads can skip the write when, as
 * nearly always, nothing is due. Mirrors the steps of `applyLifecycle`.
 */
export function lifecycleDue(at: SQL | Placeholder, holdMinutes: SQL | Placeholder, noShowMinutes: SQL | Placeholder) {
  return sql<boolean>`(
    exists (select 1 from prenotazioni p where p.stato = 'attiva' and ${noShowDue(at, noShowMinutes)})
    or exists (select 1 from pagamenti pay join prenotazioni p on p.id = pay.prenotazione_id
                where pay.status = 'pending' and p.stato = 'attiva'
                  and (p.created_at + make_interval(mins => ${holdMinutes}::int) <= ${at}::timestamptz or p.inizio <= ${at}::timestamptz))
    -- From the bookings holding a bike (one scan of the active ranges' index, a few rows) to
    -- their bikes, rather than from every bike to its bookings (one probe per bike).
    or exists (select 1 from prenotazioni p join biciclette b on b.id = p.bici_id
                where p.stato = 'attiva' and ${holdingCandidates(at)} and ${holdsBike(at)}
                  and b.stato = 'disponibile')
    or exists (select 1 from biciclette b where b.stato = 'prenotata' and b.stato_auto
                  and not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato = 'attiva' and ${holdsBike(at)}))
    -- Planned maintenance starting or ended (issue 20); the table holds a few rows per bike.
    or exists (select 1 from manutenzioni m join biciclette b on b.id = m.bici_id
                where tstzrange(m.inizio, m.fine, '[)') @> ${at}::timestamptz and b.stato in ('disponibile', 'prenotata'))
    or exists (select 1 from biciclette b where b.stato = 'manutenzione' and b.stato_auto
                  and not exists (select 1 from manutenzioni m where m.bici_id = b.id
                                     and tstzrange(m.inizio, m.fine, '[)') @> ${at}::timestamptz)))`;
}

const dueStatements = new WeakMap<Db, ReturnType<typeof prepareDue>>();
function prepareDue(db: Db) {
  return db
    .select({ due: lifecycleDue(sql.placeholder('at'), sql.placeholder('hold'), sql.placeholder('noShow')) })
    .from(sql`(select 1) as one`)
    .prepare('lifecycle_due');
}

/** Applies the life cycle only if something is due (what a writer runs first); true if it ran. */
export async function ensureLifecycle(db: Db, now: Date, holdMinutes: number, noShowMinutes = DEFAULT_NO_SHOW_MINUTES, metrics?: AppMetrics): Promise<boolean> {
  let statement = dueStatements.get(db);
  if (!statement) {
    statement = prepareDue(db);
    dueStatements.set(db, statement);
  }
  const [row] = await statement.execute({ at: now.toISOString(), hold: holdMinutes, noShow: noShowMinutes });
  if (!row?.due) return false;
  await applyLifecycle(db, now, holdMinutes, noShowMinutes, metrics);
  return true;
}

/**
 * What a writer of bookings, bikes or payments does before it acts (never a read, decision
 * 035; the booking insert settles only its bike and user, `settleDue`): bring the
 * life cycle up to date at the clock's now (cheap when nothing is due), with the payment hold
 * and no-show minutes of the service's rules (issue 20; the environment only seeds them).
 */
export async function bringLifecycleUpToDate(deps: { db: Db; clock: Clock; metrics?: AppMetrics | undefined }): Promise<void> {
  const { hold, noShow } = lifecycleMinutes(await currentRules(deps));
  await ensureLifecycle(deps.db, deps.clock.now(), hold, noShow, deps.metrics);
}

/** NO_SHOW_MINUTES's default, for callers without a configuration (tests, tools). */
export const DEFAULT_NO_SHOW_MINUTES = 30;

export async function applyLifecycle(
  db: Db,
  now: Date,
  holdMinutes: number,
  noShowMinutes = DEFAULT_NO_SHOW_MINUTES,
  metrics?: AppMetrics,
): Promise<LifecycleResult> {
  const at = now.toISOString();
  // Two statements, each its own transaction, in the order of decision 023: the bookings
  // and their payments first, the bikes after. Bookings are inserted under their bike's lock
  // (createBooking), so a statement that held a booking while it waited for a bike could meet
  // an insert holding that bike while it waited for the booking (its exclusion check): a
  // deadlock. Here no statement holds a booking while it waits for a bike.
  const first = await runTransaction(db, (tx) => releaseDue(tx, at, holdMinutes, noShowMinutes, sql`true`));
  // The bikes, read after the releases committed: only bookings still holding a bike count.
  // Their owner marks and frees them (step 2 alone, decision 023).
  const second = await applyLifecycleMarks(
    db,
    at,
    sql`select distinct p.bici_id from prenotazioni p
         where p.stato = 'attiva' and ${holdingCandidates(at)} and ${holdsBike(at)}`,
  );
  const { released, noShows } = first;
  // Counted once committed, by whichever caller ran it (the job, a read that found it due).
  countBooking(metrics, 'hold_expired', released);
  countPayment(metrics, 'expired', released);
  countBooking(metrics, 'no_show', noShows);
  const { bikesInUse, bikesFreed, maintenanceStarted, maintenanceEnded } = second;
  return { released, noShows, bikesInUse, bikesFreed, maintenanceStarted, maintenanceEnded };
}

/**
 * Releases the due bookings of `scope` (a condition on the booking `p`) at `at`, in one
 * transaction: unpaid holds run out (`pagamento_scaduto`, their payments failed by the
 * payments module) and no-shows (`mancato_ritiro`, the payment untouched). Rows locked
 * booking then payment (decision 023); a payment completed or a pick-up committed meanwhile
 * is seen (the rows are re-read after its commit) and wins.
 */
async function releaseDue(tx: Tx, at: string, holdMinutes: number, noShowMinutes: number, scope: SQL): Promise<{ released: number; noShows: number }> {
  const { rows } = await tx.execute<ReleasedRow>(releaseDueStatement(at, holdMinutes, noShowMinutes, scope));
  return failReleased(tx, rows[0], at);
}

type ReleasedRow = { expired: number[] | null; no_shows: number };

/**
 * The release of `releaseDue` as one statement, for both kinds. The payments of the holds
 * released are then failed by their owner (`failReleased`), when there are any. Planned for
 * its values each time: a booking runs it only when its due check found something to release.
 */
function releaseDueStatement(at: string | Placeholder, holdMinutes: number | Placeholder, noShowMinutes: number | Placeholder, scope: SQL): SQL {
  // triggers: stats_delta, contatori_delta, disponibilita_modifiche, tempo_liberato, lucchetti, codici_corsa, NOTIFY bicielis_tempo_liberato, bicielis_pin
  return sql`
    with due as (
      select p.id
        from prenotazioni p
        join pagamenti pay on pay.prenotazione_id = p.id
       where pay.status = 'pending'
         and p.stato = 'attiva' and ${scope}
         and (p.created_at + make_interval(mins => ${holdMinutes}::int) <= ${at}::timestamptz or p.inizio <= ${at}::timestamptz)
         for update of p, pay
    ), released as (
      update prenotazioni p
         set stato = 'cancellata', motivo_cancellazione = 'pagamento_scaduto', updated_at = ${at}::timestamptz
       where p.id in (select id from due)
      returning p.id
    ), no_shows as (
      update prenotazioni p
         set stato = 'cancellata', motivo_cancellazione = 'mancato_ritiro', updated_at = ${at}::timestamptz
       where p.stato = 'attiva' and ${scope} and ${noShowDue(at, noShowMinutes)}
         and p.id not in (select id from released)
      returning p.id
    )
    select (select array_agg(id order by id) from released) as expired, (select count(*) from no_shows)::int as no_shows`;
}

async function failReleased(tx: Tx, row: ReleasedRow | undefined, at: string): Promise<{ released: number; noShows: number }> {
  const ids = (row?.expired ?? []).map(Number);
  await failPendingPayments(tx, ids, at);
  return { released: ids.length, noShows: row?.no_shows ?? 0 };
}

/**
 * What a writer runs in its own transaction before it inserts a booking (issue 31, decision
 * 035): the due rows of the bike and of the user it touches are released as the minute job
 * would, so that the exclusion and one-active-booking constraints never refuse a booking for
 * a row that is already void. After the bike's lock (decision 023: bike → booking → payment).
 */
export async function settleDue(
  tx: Tx,
  scope: { biciId: number; userId: number; metrics?: AppMetrics | undefined },
  now: Date,
  minutes: { hold: number; noShow: number },
): Promise<{ released: number; noShows: number }> {
  const result = await releaseDue(tx, now.toISOString(), minutes.hold, minutes.noShow, sql`(p.bici_id = ${scope.biciId} or p.user_id = ${scope.userId})`);
  // Counted in the app's metrics (a retried transaction may count twice: a
  // deadlock victim here is rare, and the counter is a rate, not a ledger).
  countBooking(scope.metrics, 'hold_expired', result.released);
  countPayment(scope.metrics, 'expired', result.released);
  countBooking(scope.metrics, 'no_show', result.noShows);
  return result;
}

// ---------------------------------------------------------------------------------------------
// The life cycle as of now, for reads (decision 035): what the minute job would write, computed.

/** The columns of a booking a read derives its state from (SQL fragments or Drizzle columns). */
export interface BookingStateColumns {
  stato: SQL | SQL.Aliased | AnyColumn;
  motivo: SQL | AnyColumn;
  payStatus: SQL | AnyColumn;
  createdAt: SQL | AnyColumn;
  inizio: SQL | AnyColumn;
  fine: SQL | AnyColumn;
  ritirataAt: SQL | AnyColumn;
  id: SQL | AnyColumn;
  biciId: SQL | AnyColumn;
}

/** The row `p` of `prenotazioni`, as the writes' raw SQL names it. */
const P_ROW = { id: sql`p.id`, biciId: sql`p.bici_id`, inizio: sql`p.inizio`, fine: sql`p.fine` };

/** The columns of `prenotazioni p` left joined to `pagamenti pay`, as raw SQL reads name them. */
export const P_COLUMNS: BookingStateColumns = {
  stato: sql`p.stato`,
  motivo: sql`p.motivo_cancellazione`,
  payStatus: sql`pay.status`,
  createdAt: sql`p.created_at`,
  inizio: sql`p.inizio`,
  fine: sql`p.fine`,
  ritirataAt: sql`p.ritirata_at`,
  id: P_ROW.id,
  biciId: P_ROW.biciId,
};

/** The same columns as Drizzle's, of `prenotazioni` left joined to `pagamenti`, for query-builder reads. */
export const BOOKING_STATE_COLUMNS: BookingStateColumns = {
  stato: prenotazioni.stato,
  motivo: prenotazioni.motivoCancellazione,
  payStatus: pagamenti.status,
  createdAt: prenotazioni.createdAt,
  inizio: prenotazioni.inizio,
  fine: prenotazioni.fine,
  ritirataAt: prenotazioni.ritirataAt,
  id: prenotazioni.id,
  biciId: prenotazioni.biciId,
};

/**
 * A booking's state at `at` (an ISO instant) with the rules' minutes: an active booking whose
 * unpaid hold ran out, or not picked up by its no-show instant, reads as the life cycle would
 * leave it (`cancellata`, its reason, a failed payment). One definition for every read.
 */
/** Minutes of the rules, as numbers or as placeholders of a prepared statement. */
export type LifecycleMinutes = { hold: number | Placeholder | SQL; noShow: number | Placeholder | SQL };

/**
 * A read prepared once (decisions 059 and 071) reads as of now with these placeholders in its
 * text (the instant, the life cycle's minutes), and binds `asOfValues` at each run: the minutes
 * change when an admin edits the rules, so they are values, not part of the text. Where that kept
 * PostgreSQL from keeping a generic plan (a person's bookings, of a bike, /admin's first page: decision
 * 072), the minutes are in the text and the statement is one per set of minutes
 * (`preparedPerMinutes`).
 */
export const AS_OF_PLACEHOLDERS = { at: sql.placeholder('at'), minutes: { hold: sql.placeholder('hold'), noShow: sql.placeholder('noShow') } };
export const asOfValues = async (deps: Parameters<typeof currentRules>[0], now: Date) => ({
  at: now.toISOString(),
  ...lifecycleMinutes(await currentRules(deps)),
});

/**
 * The life cycle's minutes written into a statement's text (whole numbers from the rules), for a
 * read prepared once per set of minutes: as values, the generic plan cannot fold
 * `make_interval` into a constant, prices its per-row call, and PostgreSQL keeps planning the
 * statement anew at every run (the /admin bookings page: 21 custom plans of 21). The statement's
 * name carries `key`, so that rules edited by an admin make another statement, not another text
 * under the same name.
 */
export function minutesInText(minutes: { hold: number; noShow: number }) {
  const whole = (n: number) => {
    if (!Number.isSafeInteger(n)) throw new Error(`minuti non interi: ${n}`);
    return sql.raw(String(n));
  };
  return { key: `${minutes.hold}_${minutes.noShow}`, minutes: { hold: whole(minutes.hold), noShow: whole(minutes.noShow) } };
}

/**
 * A drizzle query prepared once per database handle and set of the life cycle's minutes, named
 * `${name}_${hold}_${noShow}`: `build` writes the minutes into the text (`minutesInText`).
 */
export function preparedPerMinutes<Handle extends object, Prepared>(
  name: string,
  build: (db: Handle, minutes: { hold: number; noShow: number }) => { prepare(name: string): Prepared },
) {
  const byHandle = new WeakMap<Handle, Map<string, Prepared>>();
  return (db: Handle, minutes: { hold: number; noShow: number }): Prepared => {
    let byMinutes = byHandle.get(db);
    if (!byMinutes) byHandle.set(db, (byMinutes = new Map()));
    const { key } = minutesInText(minutes);
    let statement = byMinutes.get(key);
    if (!statement) byMinutes.set(key, (statement = build(db, minutes).prepare(`${name}_${key}`)));
    return statement;
  };
}

/** The columns named: `p` (P_COLUMNS, raw SQL), `drizzle` (BOOKING_STATE_COLUMNS), or as given. */
export type StateColumns = BookingStateColumns | 'p' | 'drizzle';
const columnsOf = (c: StateColumns) => (c === 'p' ? P_COLUMNS : c === 'drizzle' ? BOOKING_STATE_COLUMNS : c);

export function bookingAsOf(columns: StateColumns, at: string | Placeholder, minutes: LifecycleMinutes) {
  const c = columnsOf(columns);
  // Null-safe: a resident's booking has no payment (a left join's null is not pending).
  const expired = sql`(${c.stato} = 'attiva' and coalesce(${c.payStatus} = 'pending', false)
    and (${c.createdAt} + make_interval(mins => ${minutes.hold}::int) <= ${at}::timestamptz or ${c.inizio} <= ${at}::timestamptz))`;
  const noShow = sql`(${c.stato} = 'attiva' and ${c.ritirataAt} is null
    and least(${c.inizio} + make_interval(mins => ${minutes.noShow}::int), ${c.fine}) <= ${at}::timestamptz
    and not ${bikeOutAtNoShow(minutes.noShow, c)})`;
  return {
    /** True when the row is void as of `at` (the job would release it). */
    void: sql<boolean>`(${expired} or ${noShow})`,
    stato: sql<string>`(case when ${expired} or ${noShow} then 'cancellata' else ${c.stato} end)`,
    motivo: sql<string | null>`(case when ${expired} then 'pagamento_scaduto' when ${noShow} then 'mancato_ritiro' else ${c.motivo} end)`,
    payStatus: sql<string | null>`(case when ${expired} then 'failed' else ${c.payStatus} end)`,
  };
}

/**
 * `bookingAsOf(P_COLUMNS, at, minutes).void` for a row `p` of `prenotazioni` with no join to
 * `pagamenti`, in the shape the hot reads need (decision 035, issue 31's regression): the
 * payment is probed (the pending payments' partial index) only for a row whose instants
 * already allow it to be void. A no-show needs its start passed (`least(inizio + N, fine)` is
 * never before `inizio`), an expired hold its creation `hold` minutes ago or its start passed,
 * so a future booking, created more than a hold ago, never costs a lookup.
 */
export function voidAsOf(at: SQL | Placeholder | string, minutes: LifecycleMinutes) {
  return sql<boolean>`(p.stato = 'attiva'
    and ((p.ritirata_at is null and least(p.inizio + make_interval(mins => ${minutes.noShow}::int), p.fine) <= ${at}::timestamptz
          and not ${bikeOutAtNoShow(minutes.noShow)})
         or ((p.created_at + make_interval(mins => ${minutes.hold}::int) <= ${at}::timestamptz or p.inizio <= ${at}::timestamptz)
             and exists (select 1 from pagamenti pay where pay.prenotazione_id = p.id and pay.status = 'pending'))))`;
}

/**
 * A bike `b`'s state at `at` as the life cycle would show it: in planned maintenance now →
 * `manutenzione`; held now by a booking not void → `prenotata`; else `disponibile`. Only for
 * states the life cycle manages (disponibile, and its own marks); an admin's state stands.
 *
 * The bikes in maintenance and the bikes held are two arrays that do not depend on `b`, so
 * PostgreSQL computes each once per statement (an InitPlan), however many bikes and windows
 * it reads: a probe per bike cost the availability read 3.8× its speed (issue 31's note).
 *
 * `sede` (an SQL value, issue 51, decision 064): only the bikes `b` of that sede are asked
 * about, so the two arrays read only its rows — a booking is at its bike's sede, and a bike
 * changes sede only without live bookings (bikes/triggers/biciclette.sql) — through the
 * exclusion index, which begins with the sede.
 */
export function bikeStateAsOf(at: string | Placeholder, minutes: LifecycleMinutes, sede?: SQL) {
  const bikeOfSede = sede ? sql` and m.bici_id in (select s.id from biciclette s where s.sede_id = ${sede})` : sql``;
  const bookingOfSede = sede ? sql` and p.sede_id = ${sede}` : sql``;
  // The rides past their end are few, found by the active rows' `fine` index; their sede is
  // checked, not looked up (`+ 0`): ANDed with the exclusion index's sede, the planner walked
  // every active row of the sede to find none.
  const pastOfSede = sede ? sql` and p.sede_id + 0 = ${sede}` : sql``;
  const inMaintenance = sql`array(select m.bici_id from manutenzioni m where tstzrange(m.inizio, m.fine, '[)') @> ${at}::timestamptz${bikeOfSede})`;
  const notVoid = sql`not ${voidAsOf(at, minutes)}`;
  // `holdsBike` and `holdingCandidates`, as three arms each an index can find.
  const held = sql`array(
    select p.bici_id from prenotazioni p
     where p.stato = 'attiva' and tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz${bookingOfSede} and ${notVoid}
    union all
    select p.bici_id from prenotazioni p
     where p.stato = 'attiva' and p.ritirata_at is not null${bookingOfSede} and ${notVoid}
       and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${at}::timestamptz, ${at}::timestamptz + make_interval(mins => ${PICKUP_EARLY_MINUTES}), '[]')
    union all
    select p.bici_id from prenotazioni p
     where p.stato = 'attiva' and p.ritirata_at is not null and p.fine <= ${at}::timestamptz${pastOfSede} and ${notVoid})`;
  return sql<string>`(case
    when not (b.stato = 'disponibile' or (b.stato in ('prenotata', 'manutenzione') and b.stato_auto)
              or (b.stato = 'prenotata' and b.id = any(${inMaintenance})))
      then b.stato
    when b.id = any(${inMaintenance}) then 'manutenzione'
    when b.stato = 'prenotata' and not b.stato_auto then 'prenotata'
    when b.id = any(${held}) then 'prenotata'
    else 'disponibile' end)`;
}
