import { and, desc, eq, sql, type Placeholder } from 'drizzle-orm';
import type {
  LockKind,
  AvailabilityRequest,
  BikeDto,
  BookingDto,
  BookingPhase,
  BookingStato,
  DamageCategory,
  MoveCause,
} from '../../../shared/schemas/booking.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { pgConstraint, pgErrorCode, type Db } from '../../db/client.js';
import { biciclette, type Bike } from '../bikes/tables.js';
import { bookingStato, isBooking, prenotazioni } from './tables.js';
import { interventi } from '../interventi/tables.js';
import { pagamenti } from '../payments/tables.js';
import { lucchetti } from '../locks/tables.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { closureText } from '../../../shared/rules-text.js';
import type { PaymentProvider } from '../../integrations/payments/provider.js';
import { paymentProviderName, pendingPaymentInsert, type PaymentLog } from '../payments/index.js';
import { bikeOutNow, bikeStateAsOf, BOOKING_STATE_COLUMNS, bookingAsOf, P_COLUMNS, PICKUP_EARLY_MINUTES, settleDue, bikeOutAtNoShow, type LifecycleMinutes, AS_OF_PLACEHOLDERS, asOfValues, minutesInText, preparedPerMinutes } from './lifecycle.js';
import { countBooking, type AppMetrics } from '../../metrics.js';
import { QueryBatcher } from './query-batcher.js';
import type { SharedJson } from '../../http/precompressed.js';
import { freeBikes, pictureCovers, PICTURE_MAX_AGE_MS, prepareChangedSince, readFleetPicture, type FleetPicture } from './availability.js';
import { namedStatement } from '../../db/prepared.js';
import { FATE_COLUMNS, noteFate, runTransaction, type Tx } from '../../db/transaction.js';
import { checkWindow, sedeRules, type Window } from '../rules/index.js';
import { fairUseGate } from './gate.js';
import { currentRules, lifecycleMinutes, type ClosureRule, type Rules } from '../rules/index.js';
import { testo } from '../../../shared/i18n/index.js';
import { zonedInstant } from '../../../shared/time.js';

export { START_GRACE_MINUTES } from '../rules/index.js';

export interface BookingDeps {
  db: Db;
  clock: Clock;
  /** The horizon, hold and no-show minutes are the service's rules now (decision 024), not configuration. */
  config: Pick<Config, 'timeZone' | 'stripe'>;
  /** Refunds a paid booking cancelled before its start. */
  payments: PaymentProvider;
  log?: PaymentLog | undefined;
  metrics?: AppMetrics | undefined;
}

/** What reads need: no provider. */
export type BookingReadDeps = Pick<BookingDeps, 'db' | 'clock' | 'config' | 'metrics'>;

export interface BookingUser {
  id: number;
  isResidente: boolean;
  /** An admin's own bookings are not subject to the fair-use limits (issue 20). */
  ruolo?: 'admin' | 'user';
}

/** The sede a window is asked for (issue 47): the one named (`w.sedeId`, else `asked`), or the person's home sede. */
export interface SedeChoice {
  asked?: number | null | undefined;
  home: number;
}

/**
 * Checks a window against behaviour.md §6 and the service's rules (issue 20) as this process
 * knows them, with the hours and closures of its sede (issue 47), and turns it into instants.
 * `limits`: the fair-use limits apply (not to admins). An archived or unknown sede named: 404.
 */
export async function resolveWindow(
  deps: BookingReadDeps,
  w: AvailabilityRequest,
  limits: boolean,
  sede: SedeChoice,
): Promise<Window & { rules: Rules; sedeId: number }> {
  const install = await currentRules(deps);
  const sedeId = sedeRules.chosenSede(install, w.sedeId ?? sede.asked, sede.home);
  const rules = sedeRules.rulesOfSede(install, sedeId);
  return { ...checkWindow(rules, w, { now: deps.clock.now(), timeZone: deps.config.timeZone, limits }), rules, sedeId };
}

const bikeDto = (b: Pick<Bike, 'id' | 'numero' | 'modello' | 'stato' | 'sedeId' | 'updatedAt'>): BikeDto => ({
  id: b.id,
  numero: b.numero,
  modello: b.modello,
  stato: b.stato,
  sedeId: b.sedeId,
  updatedAt: b.updatedAt.toISOString(),
});

const { at: AT, minutes: AS_OF_MINUTES } = AS_OF_PLACEHOLDERS;

/**
 * The fleet as of now (GET /api/biciclette, the dashboard's render): one statement, planned once
 * per connection (decision 071). Planned at every request it cost PostgreSQL more than it took to
 * run (issue 51: 1.2 ms of planning for 0.2 ms of execution, in each /dashboard render).
 */
const bikesStatement = namedStatement<{ id: number; numero: string; modello: string; stato: Bike['stato']; sede_id: number; updated_at: Date | string }>(
  'bikes_as_of',
  () => sql`
    select b.id, b.numero, b.modello, ${bikeStateAsOf(AT, AS_OF_MINUTES)} as stato, b.sede_id, b.updated_at from ${biciclette} b
     where (${sql.placeholder('sede')}::int is null or b.sede_id = ${sql.placeholder('sede')}::int) order by lpad(b.numero, 20, '0'), b.numero`,
);

/** GET /api/biciclette: every bike, or one sede's (`?sedeId=`, issue 47; any sede, archived too: a list, not a choice). */
export async function listBikes(deps: BookingReadDeps, sedeId?: number): Promise<BikeDto[]> {
  // As of now (decision 035): the state the life cycle would show, nothing written.
  const rows = await bikesStatement.run(deps.db, { ...(await asOfValues(deps, deps.clock.now())), sede: sedeId ?? null });
  return rows.map((r) => bikeDto({ id: r.id, numero: r.numero, modello: r.modello, stato: r.stato, sedeId: r.sede_id, updatedAt: new Date(r.updated_at) }));
}

/** Availability reads running at once per process; requests beyond wait and share the next. */
export const AVAILABILITY_QUERIES_IN_FLIGHT = 1;

/**
 * The hot read of the booking form (decisions 018, 040 and 064). Concurrent requests share one
 * round trip (`QueryBatcher`): one indexed query asks, for each sede the batch asks about,
 * whether any transaction changed that sede's picture since it was read; if none did, and the
 * clock has not passed the picture's next instant, every window is answered from the picture,
 * in the process, exactly as PostgreSQL would answer it now. Otherwise that sede's picture is
 * read again first (one statement, one sede's rows). A picture not asked for in a minute is
 * dropped: it could not answer anyway (`PICTURE_MAX_AGE_MS`), and ten sedi keep ten at most.
 * The clock and settings are those of the batch's first request for each sede (one app per
 * database handle).
 */
function availabilityBatcher(db: Db) {
  const changedSince = prepareChangedSince(db);
  const pictures = new Map<number, FleetPicture>();
  return new QueryBatcher<{ window: Window; deps: BookingReadDeps; rules: Rules; sedeId: number }, SharedJson>(
    async (asked) => {
      const now = asked[0]!.deps.clock.now();
      const sedi = new Map<number, { minutes: { hold: number; noShow: number }; from: number }>();
      for (const a of asked) {
        const sede = sedi.get(a.sedeId);
        if (sede) sede.from = Math.min(sede.from, a.window.inizio.getTime());
        else sedi.set(a.sedeId, { minutes: lifecycleMinutes(a.rules), from: a.window.inizio.getTime() });
      }
      for (const [sedeId, p] of pictures) if (performance.now() - p.readReal >= PICTURE_MAX_AGE_MS) pictures.delete(sedeId);
      // The pictures that could answer, checked together against the writes they have not seen.
      const candidates: FleetPicture[] = [];
      for (const [sedeId, { minutes, from }] of sedi) {
        const p = pictures.get(sedeId);
        if (p && pictureCovers(p, now.getTime(), minutes, from)) candidates.push(p);
      }
      if (candidates.length > 0) {
        const xmins = new Map(candidates.map((p) => [p.snapshot, p.xmin]));
        const snapshots = [...xmins.keys()];
        const [row] = await changedSince.execute({ xmins: [...xmins.values()], snapshots });
        const fresh = new Set(snapshots.filter((_, i) => row?.changed[i] === false));
        for (const p of candidates) if (!fresh.has(p.snapshot)) pictures.delete(p.sedeId);
      }
      const answered = new Map<number, FleetPicture>();
      for (const [sedeId, { minutes, from }] of sedi) {
        let p = pictures.get(sedeId);
        if (!p || !pictureCovers(p, now.getTime(), minutes, from)) {
          p = await readFleetPicture(db, sedeId, now, minutes, from);
          pictures.set(sedeId, p);
        }
        answered.set(sedeId, p);
      }
      return asked.map((a) => freeBikes(answered.get(a.sedeId)!, a.window));
    },
    ({ window, sedeId }) => `${sedeId}-${window.inizio.getTime()}-${window.fine.getTime()}`,
    AVAILABILITY_QUERIES_IN_FLIGHT,
  );
}
const batchers = new WeakMap<Db, ReturnType<typeof availabilityBatcher>>();

/**
 * Bikes of one sede free in a window: not in maintenance or out of service, no active
 * overlapping booking. The sede is the one asked for, else the person's home sede (issue 47).
 * Every answer is exact as of the check that carried it (decision 040), a query that started
 * after the request arrived: a commit anywhere shows in the next request.
 */
export async function availableBikes(deps: BookingReadDeps, w: AvailabilityRequest, limits: boolean, sede: SedeChoice): Promise<SharedJson> {
  const { rules, sedeId, inizio, fine } = await resolveWindow(deps, w, limits, sede);
  let batcher = batchers.get(deps.db);
  if (!batcher) {
    batcher = availabilityBatcher(deps.db);
    batchers.set(deps.db, batcher);
  }
  return batcher.ask({ window: { inizio, fine }, deps, rules, sedeId });
}

const bookingColumns = {
  id: prenotazioni.id,
  dataPrenotazione: prenotazioni.dataPrenotazione,
  orarioInizio: prenotazioni.orarioInizio,
  orarioFine: prenotazioni.orarioFine,
  destinazione: prenotazioni.destinazione,
  biciId: prenotazioni.biciId,
  biciNumero: biciclette.numero,
  biciModello: biciclette.modello,
  sedeId: prenotazioni.sedeId,
  stato: prenotazioni.stato,
  paymentStatus: pagamenti.status,
  createdAt: prenotazioni.createdAt,
  inizio: prenotazioni.inizio,
  fine: prenotazioni.fine,
  ritirataAt: prenotazioni.ritirataAt,
  riconsegnataAt: prenotazioni.riconsegnataAt,
  motivoCancellazione: prenotazioni.motivoCancellazione,
  dannoCategoria: interventi.categoria,
  dannoDescrizione: interventi.descrizione,
  // The kind of the bike's lock (issue 34), never its code: one primary-key probe a row.
  lucchetto: sql<LockKind>`coalesce((select l.tipo from ${lucchetti} l where l.bici_id = ${prenotazioni.biciId}), 'nessuno')`,
  // The fleet's last move of it (issue 35): the bike it left, by its primary key, only when set.
  spostataDaNumero: sql<string | null>`(select m.numero from ${biciclette} m where m.id = ${prenotazioni.spostataDaBiciId})`,
  spostataCausa: prenotazioni.spostataCausa,
  aspettaBiciAt: prenotazioni.aspettaBiciAt,
};

/** A booking row as read (`bookingColumns`): instants as dates, the damage as two columns. */
export type BookingRow = Omit<
  BookingDto,
  'createdAt' | 'ritirataAt' | 'riconsegnataAt' | 'fase' | 'ritiroDa' | 'danno' | 'spostata' | 'biciAssente' | 'aspetta'
> & {
  /** Issue 35's columns; a booking just made has none of them. */
  spostataDaNumero?: string | null;
  spostataCausa?: MoveCause | null;
  aspettaBiciAt?: Date | null;
  biciAssente?: boolean | null;
  createdAt: Date;
  inizio: Date;
  fine: Date;
  ritirataAt: Date | null;
  riconsegnataAt: Date | null;
  dannoCategoria: DamageCategory | null;
  dannoDescrizione: string | null;
};

/** The ride's phase at `now` (decision 022, "Derived state"). */
export function bookingPhase(
  r: { stato: BookingStato; ritirataAt: Date | null; fine: Date },
  now: Date,
): BookingPhase {
  if (r.stato === 'completata') return 'conclusa';
  if (r.stato === 'cancellata') return 'cancellata';
  if (!r.ritirataAt) return 'da_ritirare';
  return now.getTime() < r.fine.getTime() ? 'in_corso' : 'in_ritardo';
}

/** The instant from which a booking's bike may be picked up. */
export const pickupFrom = (inizio: Date) => new Date(inizio.getTime() - PICKUP_EARLY_MINUTES * 60_000);

export function bookingDto(r: BookingRow, now: Date): BookingDto {
  return {
    id: r.id,
    dataPrenotazione: r.dataPrenotazione,
    orarioInizio: r.orarioInizio,
    orarioFine: r.orarioFine,
    destinazione: r.destinazione,
    biciId: r.biciId,
    biciNumero: r.biciNumero,
    biciModello: r.biciModello,
    sedeId: r.sedeId,
    stato: r.stato,
    paymentStatus: r.paymentStatus,
    createdAt: r.createdAt.toISOString(),
    ritirataAt: r.ritirataAt?.toISOString() ?? null,
    riconsegnataAt: r.riconsegnataAt?.toISOString() ?? null,
    motivoCancellazione: r.motivoCancellazione,
    fase: bookingPhase(r, now),
    ritiroDa: pickupFrom(r.inizio).toISOString(),
    danno:
      r.dannoCategoria && r.dannoDescrizione !== null ? { categoria: r.dannoCategoria, descrizione: r.dannoDescrizione } : null,
    lucchetto: r.lucchetto,
    spostata: r.spostataDaNumero && r.spostataCausa ? { daBiciNumero: r.spostataDaNumero, causa: r.spostataCausa } : null,
    biciAssente: r.stato === 'attiva' && r.biciAssente === true,
    aspetta: r.stato === 'attiva' && r.biciAssente === true && r.aspettaBiciAt != null,
  };
}

/**
 * The state's columns with the booking's payment read by its unique key (`pagamenti_one_per_booking`)
 * where a row needs it, not joined: a person with a long history made the generic plan of their
 * prepared list (decision 071) hash every payment.
 */
const BOOKED_STATE_COLUMNS = {
  ...BOOKING_STATE_COLUMNS,
  payStatus: sql`(select pay.status from ${pagamenti} pay where pay.prenotazione_id = ${prenotazioni.id})`,
};

/**
 * The booking columns as of `now` (decision 035): state, reason and payment as the life cycle
 * would leave them, computed by the read, nothing written.
 */
function bookingColumnsAsOf(at: string | Placeholder, minutes: LifecycleMinutes) {
  const live = bookingAsOf(BOOKED_STATE_COLUMNS, at, minutes);
  return {
    ...bookingColumns,
    stato: sql<BookingRow['stato']>`${live.stato}`,
    paymentStatus: sql<BookingRow['paymentStatus']>`${live.payStatus}`,
    motivoCancellazione: sql<BookingRow['motivoCancellazione']>`${live.motivo}`,
    biciAssente: sql<boolean>`${bikeOutNow(BOOKING_STATE_COLUMNS, at)}`,
  };
}

export function selectBookings(db: Db, now: Date | Placeholder, minutes: LifecycleMinutes) {
  return db
    .select(bookingColumnsAsOf(now instanceof Date ? now.toISOString() : now, minutes))
    .from(prenotazioni)
    .innerJoin(biciclette, eq(biciclette.id, prenotazioni.biciId))
    // The return's damage report: its repair ticket (issue 48).
    .leftJoin(interventi, and(eq(interventi.prenotazioneId, prenotazioni.id), eq(interventi.biciId, prenotazioni.biciId), eq(interventi.origine, 'riconsegna')));
}

/**
 * A user's bookings as of now (GET /api/prenotazioni/user, the dashboard's render), prepared once
 * per database handle and planned once per connection (decision 071): built and planned at every
 * request, the statement cost the app ~0.8 ms to write and PostgreSQL ~1 ms to plan, more than
 * its 0.4 ms of execution (issue 51). The rules' minutes are in its text (`minutesInText`): as
 * values, PostgreSQL found its generic plan dearer and planned every run anew (21 of 21).
 */
export const ownBookingsQuery = (db: Db, minutes: { hold: number; noShow: number }) =>
  selectBookings(db, AT, minutesInText(minutes).minutes)
    .where(and(eq(prenotazioni.userId, sql.placeholder('userId')), isBooking))
    .orderBy(desc(prenotazioni.createdAt), desc(prenotazioni.id));
const ownBookings = preparedPerMinutes('own_bookings', ownBookingsQuery);

export async function listUserBookings(deps: BookingReadDeps, userId: number): Promise<BookingDto[]> {
  const now = deps.clock.now();
  const rows = await ownBookings(deps.db, lifecycleMinutes(await currentRules(deps))).execute({ at: now.toISOString(), userId });
  return rows.map((r) => bookingDto({ ...r, stato: bookingStato(r.stato) }, now));
}

export async function getUserBooking(deps: BookingReadDeps, userId: number, id: number): Promise<BookingDto> {
  const now = deps.clock.now();
  const [row] = await selectBookings(deps.db, now, lifecycleMinutes(await currentRules(deps))).where(
    and(eq(prenotazioni.id, id), eq(prenotazioni.userId, userId), isBooking),
  );
  if (!row) throw notFound(testo('bookingsApi.bookingNotFound'));
  return bookingDto({ ...row, stato: bookingStato(row.stato) }, now);
}

export interface CreateBookingInput extends AvailabilityRequest {
  destinazione: string | null;
  biciId: number;
}

/**
 * Creates a booking. The two invariants (no overlap on a bike, one active booking per
 * user) are left to PostgreSQL: the insert either succeeds or violates a constraint,
 * which becomes a 409. No check-then-insert.
 *
 * One transaction, its locks in the order of decision 023/024: the user's advisory lock
 * (USER_BOOKING_LOCK, id), then the bike's row FOR NO KEY UPDATE, then the insert. Only
 * after both locks does it read the rules, the closures, the user's suspension and week
 * (a fresh snapshot, READ COMMITTED): two bookings of one user run one after the other, so
 * the weekly limit holds across processes; a closure or a maintenance planned meanwhile
 * (each locks the bikes first) is seen. The insert statement (decision 018) then checks the
 * bike's state and planned maintenance, inserts the booking and an external's pending
 * payment, and returns the booking. A deadlock victim runs again (`runTransaction`).
 *
 * `override`: a booking made by an admin for a user at the desk (issue 20): the fair-use
 * limits and any suspension do not apply; hours, closures, maintenance and the invariants do.
 * An admin's own booking is treated the same.
 */
export async function createBooking(
  deps: BookingDeps,
  user: BookingUser,
  input: CreateBookingInput,
  opts: {
    override?: boolean;
    /** Runs in the booking's transaction once it is inserted (the desk's audit row). */
    inTransaction?: (tx: Tx, bookingId: number) => Promise<void>;
  } = {},
): Promise<BookingDto> {
  const limits = !opts.override && user.ruolo !== 'admin';
  const clockNow = deps.clock.now();
  const now = clockNow.toISOString();
  const provider = paymentProviderName(deps.config);
  // The rules as this process knows them (decision 024): hours, horizon, duration, notice; the
  // hours and closures of the bike's sede (issue 47), read with the early refusals.
  const install = await currentRules(deps);
  const minutes = lifecycleMinutes(install);
  const check = { now: clockNow, timeZone: deps.config.timeZone, limits };
  const asked = windowInstants(input, deps.config.timeZone) ?? checkWindow(install, input, check);
  const early = await readEarly(deps, user.id, input.biciId, asked, clockNow, minutes);
  const rules = early.sedeId === null ? install : sedeRules.rulesOfSede(install, early.sedeId);
  const { inizio, fine } = checkWindow(rules, input, check);
  refuseEarly(early);
  let created: { row: CreatedRow | undefined; closedBy: string | null };
  try {
    created = await runTransaction(deps.db, async (tx) => {
      await fairUseGate(tx, { userId: user.id, date: input.dataPrenotazione, rules, limits, now: clockNow, timeZone: deps.config.timeZone });
      // The bike's lock, in a statement of its own: the insert below starts after it, so it
      // sees a closure or a maintenance committed meanwhile (each locks every bike first).
      const [locked] = await bikeLockStatement.run(tx, {
        bici: input.biciId,
        user: user.id,
        inizio: inizio.toISOString(),
        fine: fine.toISOString(),
        now,
        hold: minutes.hold,
        noShow: minutes.noShow,
      });
      if (!locked) throw notFound(testo('bookingsApi.bikeNotFound'), 'BIKE_NOT_FOUND');
      // Bookings whose time is up must not hold the bike or count as the user's active one:
      // this writer settles them now (decision 035), as the minute job would. The lock's
      // statement says whether there is any; most bookings find none, and skip a round trip.
      if (locked.due) await settleDue(tx, { biciId: input.biciId, userId: user.id, metrics: deps.metrics }, clockNow, minutes);
      const [inserted] = await insertStatement.run(tx, {
        bici: input.biciId,
        user: user.id,
        data: input.dataPrenotazione,
        orarioInizio: input.orarioInizio,
        orarioFine: input.orarioFine,
        inizio: inizio.toISOString(),
        fine: fine.toISOString(),
        destinazione: input.destinazione,
        now,
        provider,
        external: !user.isResidente,
      });
      // The transaction's id and timeline came with the insert: no statement of its own before the COMMIT.
      if (inserted) noteFate(tx, inserted);
      if (inserted?.id != null && opts.inTransaction) await opts.inTransaction(tx, inserted.id);
      return { row: inserted, closedBy: inserted?.closedBy ?? null };
    });
  } catch (err) {
    throw mapBookingConflict(err);
  }
  const { row, closedBy } = created;
  const window = { inizio, fine };
  if (!row) throw notFound(testo('bookingsApi.bikeNotFound'), 'BIKE_NOT_FOUND');
  // A closure committed while this booking waited for its bike (the form's check came before it).
  if (row.id === null && closedBy) throw badRequest(closureText(JSON.parse(closedBy) as ClosureRule), 'CLOSED');
  if (row.id === null) throw conflict(testo('bookingsApi.bikeUnavailable'), 'BIKE_UNAVAILABLE');
  countBooking(deps.metrics, 'created');
  return bookingDto(
    {
      ...row,
      id: row.id,
      createdAt: new Date(row.createdAt),
      inizio: window.inizio,
      fine: window.fine,
      ritirataAt: null,
      riconsegnataAt: null,
      motivoCancellazione: null,
      dannoCategoria: null,
      dannoDescrizione: null,
    },
    deps.clock.now(),
  );
}

/** The placeholders of the booking's statements, bound by name at each run. */
const P = {
  bici: sql.placeholder('bici'),
  user: sql.placeholder('user'),
  data: sql.placeholder('data'),
  orarioInizio: sql.placeholder('orarioInizio'),
  orarioFine: sql.placeholder('orarioFine'),
  inizio: sql.placeholder('inizio'),
  fine: sql.placeholder('fine'),
  destinazione: sql.placeholder('destinazione'),
  now: sql.placeholder('now'),
  provider: sql.placeholder('provider'),
  external: sql.placeholder('external'),
  hold: sql.placeholder('hold'),
  noShow: sql.placeholder('noShow'),
};

/**
 * The booking's statements, each planned once per connection (issue 51, decision 059): planned
 * anew at every booking they cost more to plan than to run.
 */
const bikeLockStatement = namedStatement<{ id: number; due: boolean }>('booking_bike_lock', () => {
  // Whether a booking that would refuse this one is void as of now (what the settle releases,
  // `voidAsOf`): the user's active booking, or one of the bike's live bookings in the window.
  // Read in this statement's snapshot, taken before the lock's wait: a booking committed
  // meanwhile by the lock's holder is new, so not yet void; one it settled is settled again for
  // nothing. Each arm is one index's few rows, with the plan PostgreSQL keeps for the
  // statement: the user's one active booking, and the exclusion constraint's own index (sede,
  // bike, window). The payment is read by its unique key, never hashed over the table.
  const due = sql`(p.stato = 'attiva'
    and ((p.ritirata_at is null and least(p.inizio + make_interval(mins => ${P.noShow}::int), p.fine) <= ${P.now}::timestamptz
          and not ${bikeOutAtNoShow(P.noShow)})
         or ((p.created_at + make_interval(mins => ${P.hold}::int) <= ${P.now}::timestamptz or p.inizio <= ${P.now}::timestamptz)
             and (select pay.status from pagamenti pay where pay.prenotazione_id = p.id) = 'pending')))`;
  return sql`select b.id,
      exists (select 1 from ${prenotazioni} p
               where p.sede_id = b.sede_id and p.bici_id = b.id and p.stato in ('attiva', 'offerta')
                 and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${P.inizio}::timestamptz, ${P.fine}::timestamptz, '[)') and ${due})
      or exists (select 1 from ${prenotazioni} p where p.user_id = ${P.user}::int and p.stato = 'attiva' and ${due}) as due
    from ${biciclette} b where b.id = ${P.bici}::int for no key update of b`;
});

/**
 * The insert (decision 018): the bike's state and planned maintenance checked, the booking and
 * an external's pending payment inserted, the booking returned, in one statement.
 */
// triggers: stats_delta, contatori_delta, disponibilita_modifiche, codici_corsa, NOTIFY bicielis_pin (a smart lock's PIN)
const insertStatement = namedStatement<CreatedRow>('booking_insert', () =>
  sql`with bike as (
    select id, stato, stato_auto, numero, modello, sede_id,
           coalesce((select l.tipo from ${lucchetti} l where l.bici_id = ${P.bici}::int), 'nessuno') as lucchetto
      from ${biciclette} where id = ${P.bici}::int for no key update
  ), created as (
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine,
                             destinazione, stato, created_at, updated_at, sede_id)
    select ${P.user}::int, bike.id, ${P.data}::date, ${P.orarioInizio}, ${P.orarioFine},
           ${P.inizio}::timestamptz, ${P.fine}::timestamptz, ${P.destinazione}::text,
           'attiva', ${P.now}::timestamptz, ${P.now}::timestamptz, bike.sede_id
      from bike
     where (bike.stato in ('disponibile', 'prenotata') or (bike.stato = 'manutenzione' and bike.stato_auto))
       -- Closures and planned maintenance (issue 20), as committed before the bike's lock.
       and not exists (select 1 from chiusure c where ${P.data}::date between c.dal and c.al
                          and (c.sede_id is null or c.sede_id = bike.sede_id))
       and not exists (select 1 from manutenzioni m
                        where m.bici_id = bike.id
                          and tstzrange(m.inizio, m.fine, '[)') && tstzrange(${P.inizio}::timestamptz, ${P.fine}::timestamptz, '[)'))
       -- A ride in ritardo on this bike: not bookable until it is returned (decision 022).
       and not exists (select 1 from ${prenotazioni} late
                        where late.bici_id = bike.id and late.stato = 'attiva'
                          and late.ritirata_at is not null and late.fine <= ${P.now}::timestamptz)
    returning id, data_prenotazione, orario_inizio, orario_fine, destinazione, bici_id, sede_id, stato, created_at
  ), payment as (
    ${pendingPaymentInsert(sql`created`, { provider: P.provider, now: P.now, external: P.external })}
  )
  select created.id, created.data_prenotazione as "dataPrenotazione", created.orario_inizio as "orarioInizio",
         created.orario_fine as "orarioFine", created.destinazione, created.bici_id as "biciId", created.sede_id as "sedeId",
         bike.numero as "biciNumero", bike.modello as "biciModello", bike.lucchetto, created.stato,
         (select status from payment) as "paymentStatus", created.created_at as "createdAt", ${FATE_COLUMNS},
         (select json_build_object('dal', c.dal::text, 'al', c.al::text, 'motivo', c.motivo)::text from chiusure c
           where ${P.data}::date between c.dal and c.al and (c.sede_id is null or c.sede_id = bike.sede_id)
           limit 1) as "closedBy"
    from bike left join created on true`,
);

/** The row of the booking statement: the booking's columns are null when the bike was not bookable. */
type CreatedRow = Pick<
  BookingDto,
  'dataPrenotazione' | 'orarioInizio' | 'orarioFine' | 'destinazione' | 'biciId' | 'biciNumero' | 'biciModello' | 'sedeId' | 'stato' | 'paymentStatus' | 'lucchetto'
> & { id: number | null; createdAt: Date | string; closedBy: string | null; xid: string | null; timeline: string | null };

/**
 * The bike's sede, and the refusals a burst is mostly made of, found without a lock or a transaction: the user
 * already has an active booking, or the bike is taken in the window, as committed now. Both
 * are what the constraints would answer (a committed active booking is one either way), and
 * a refusal here only means the request came a moment before a cancel. The constraints still
 * decide every booking that gets past this (decision 024).
 */
async function readEarly(
  deps: Pick<BookingDeps, 'db'>,
  userId: number,
  biciId: number,
  w: Window,
  now: Date,
  minutes: { hold: number; noShow: number },
): Promise<Early> {
  const [row] = await earlyStatement.run(deps.db, {
    bici: biciId,
    user: userId,
    inizio: w.inizio.toISOString(),
    fine: w.fine.toISOString(),
    now: now.toISOString(),
    hold: minutes.hold,
    noShow: minutes.noShow,
  });
  return { active: row?.active === true, taken: row?.taken === true, sedeId: row?.sede_id ?? null };
}

/**
 * `readEarly`'s statement: as of now, a row the life cycle would release counts for nothing
 * (decision 035). The bike's bookings are found by the exclusion constraint's index on all three
 * of its columns (sede, bike, window): its generic plan has no window values to weigh.
 */
const earlyStatement = namedStatement<{ active: boolean; taken: boolean; sede_id: number | null }>('booking_early', () => {
  const earlyVoid = bookingAsOf(P_COLUMNS, P.now, { hold: P.hold, noShow: P.noShow }).void;
  return sql`select (select b.sede_id from ${biciclette} b where b.id = ${P.bici}::int) as sede_id,
             exists (select 1 from ${prenotazioni} p left join ${pagamenti} pay on pay.prenotazione_id = p.id
                      where p.user_id = ${P.user}::int and p.stato = 'attiva' and not ${earlyVoid}) as active,
             exists (select 1 from ${prenotazioni} p left join ${pagamenti} pay on pay.prenotazione_id = p.id
                      where p.sede_id = (select b.sede_id from ${biciclette} b where b.id = ${P.bici}::int)
                       and p.bici_id = ${P.bici}::int and p.stato in ('attiva', 'offerta')
                       and tstzrange(p.inizio, p.fine, '[)') && tstzrange(${P.inizio}::timestamptz, ${P.fine}::timestamptz, '[)')
                       and not ${earlyVoid}) as taken`;
});

/** What `readEarly` found: the refusals, and the bike's sede (null: no such bike, the insert says 404). */
interface Early {
  active: boolean;
  taken: boolean;
  sedeId: number | null;
}

function refuseEarly(early: Early): void {
  if (early.active) throw conflict(testo('bookingsApi.alreadyActive'), 'ALREADY_ACTIVE');
  if (early.taken) throw conflict(testo('bookingsApi.bikeUnavailable'), 'BIKE_UNAVAILABLE');
}

/** A window's instants in TZ_APP, or null when a time does not exist (the window check says why). */
function windowInstants(w: AvailabilityRequest, timeZone: string): Window | null {
  const inizio = zonedInstant(w.dataPrenotazione, w.orarioInizio, timeZone);
  const fine = zonedInstant(w.dataPrenotazione, w.orarioFine, timeZone);
  return inizio && fine ? { inizio, fine } : null;
}

function mapBookingConflict(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = pgErrorCode(err);
  if (code === '23P01') return conflict(testo('bookingsApi.bikeUnavailable'), 'BIKE_UNAVAILABLE');
  if (code === '23505' && pgConstraint(err) === 'prenotazioni_one_active_per_user') {
    return conflict(testo('bookingsApi.alreadyActive'), 'ALREADY_ACTIVE');
  }
  return err;
}
