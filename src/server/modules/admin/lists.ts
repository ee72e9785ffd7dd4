import { and, asc, count, desc, eq, ilike, inArray, or, type Placeholder, sql, type SQL } from 'drizzle-orm';
import { ANONYMOUS_USER_LABEL } from '../../../shared/constants.js';
import { ADMIN_PAGE_SIZE_DEFAULT } from '../../../shared/admin-lists.js';
import type { AdminBookingDto, AdminSummary, AdminUserDto } from '../../../shared/schemas/admin.js';
import type { AdminBikeWithLockDto } from '../../../shared/schemas/locks.js';
import { lockDto, locksByBike } from '../locks/index.js';
import type { BookingPhase } from '../../../shared/schemas/booking.js';
import { addDays, zonedInstant, zonedToday } from '../../../shared/time.js';
import { biciclette } from '../bikes/tables.js';
import { bookingStato, isBooking, prenotazioni } from '../bookings/tables.js';
import { interventi } from '../interventi/tables.js';
import { pagamenti } from '../payments/tables.js';
import { users } from '../users/tables.js';
import { asOf, bookingPhase, listBikes } from '../bookings/index.js';
import { sessionUserColumns } from '../users/index.js';
import { toPublicUser } from '../users/index.js';
import { containsPattern, type AdminDeps } from './deps.js';
import { contatori, contatoriDelta, statsDelta } from '../stats/tables.js';
import { suspendedUntilSql } from '../rules/index.js';
import { namedStatement } from '../../db/prepared.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';

type ReadDeps = Pick<AdminDeps, 'db' | 'clock' | 'config'>;

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PageQuery {
  page: number;
  pageSize: number;
  q: string;
  /** Only this sede's rows (issue 47). */
  sedeId?: number | undefined;
}

/** The first instant of a day in `timeZone` (midnight; 01:00 where midnight does not exist). */
export function startOfDay(date: string, timeZone: string): Date {
  return zonedInstant(date, '00:00', timeZone) ?? zonedInstant(date, '01:00', timeZone)!;
}

/**
 * Every booking ever, by stored state, from the statistics' rollup (decision 017: exact, kept
 * by triggers on every insert, update and delete of a booking; the pending deltas added, in
 * the same snapshot): `rides` counts attiva and completata, `cancellations` cancellata. The
 * rollup's totals are its counters (issue 51, decision 065: kept by its triggers as the fold
 * writes it), two rows rather than one a day of the install's life; the pending 'day' deltas
 * are a minute's bookings at most (`stats_delta_kind_day_idx`).
 */
const everyBookingTotals = sql`(
  select coalesce(sum(rides), 0)::int as rides, coalesce(sum(cancellations), 0)::int as cancellations from (
    select case when nome = 'corse' then valore else 0 end as rides, case when nome = 'cancellazioni' then valore else 0 end as cancellations
      from ${contatori} where nome in ('corse', 'cancellazioni')
    union all
    select rides, cancellations from ${statsDelta} where kind = 'day') t) totals`;

/**
 * The counters kept by triggers (issue 51, decision 065): active bookings (stored state `attiva`)
 * and people, each its folded value plus its pending deltas, in the same snapshot.
 */
const storedCounts = sql`(
  select coalesce(sum(v) filter (where nome = 'prenotazioni_attive'), 0)::int as attive,
         coalesce(sum(v) filter (where nome = 'utenti'), 0)::int as utenti from (
    select nome, valore as v from ${contatori} where nome in ('prenotazioni_attive', 'utenti')
    union all
    select nome, delta from ${contatoriDelta}) c) counts`;

/**
 * The unscoped summary's statement: its values are placeholders (now, the rules' minutes, today's
 * bounds), so PostgreSQL plans it once per connection (decision 059's named statements). Its
 * text spells the as-of-now test nine times (the bikes' three arrays, the rows read): planned at
 * every call it cost more than it took to run (5.9 of 6.4 ms at today's size, issue 51).
 *
 * Flat in the data's size (issue 51, decision 065). The stored-state counts (active bookings,
 * people) come from the counters the triggers keep; reading every active row (30,000 at ten
 * times today's data) and counting every person cost the /admin render 96 of its 104 ms. Only
 * the active rows whose state as of now can differ from the stored one are read, one by one
 * along an index: a no-show, a hold run out at its start, a ride in progress or late all need
 * the start passed, so such a row has ended (`fine <= now`: the active rows' `fine` index) or
 * holds `now` (the active ranges' index): at most one a bike, plus the few not yet released
 * by the minute job. A hold can also run out before the start: those rows have a pending
 * payment (its partial index, a few rows). The totals of every booking ever come from the
 * statistics' rollup's counters (decision 017: exact, its pending deltas added): `rides`
 * counts attiva and completata, `cancellations` cancellata.
 */
const summaryStatement = namedStatement<Record<string, number>>('admin_summary', () => {
  const at = sql.placeholder('at');
  // As of now (decision 035): bookings and bikes as the life cycle would leave them, unwritten.
  const minutes = { hold: sql.placeholder('hold'), noShow: sql.placeholder('noShow') };
  const voidNow = asOf.voidAsOf(at, minutes);
  return sql`
    with bikes as (select ${asOf.bikeStateAsOf(at, minutes)} as stato from ${biciclette} b),
    started as (
      select p.fine, p.ritirata_at, ${voidNow} as void
        from ${prenotazioni} p where p.stato = 'attiva' and p.fine <= ${at}::timestamptz
      union all
      select p.fine, p.ritirata_at, ${voidNow} as void
        from ${prenotazioni} p where p.stato = 'attiva' and tstzrange(p.inizio, p.fine, '[)') @> ${at}::timestamptz),
    held as (
      select ${voidNow} as void
        from ${pagamenti} pay join ${prenotazioni} p on p.id = pay.prenotazione_id
       where pay.status = 'pending' and p.stato = 'attiva' and p.inizio > ${at}::timestamptz),
    voided as (select (select count(*) from started where void) + (select count(*) from held where void) as n),
    counts as (select * from ${storedCounts}),
    totals as (select * from ${everyBookingTotals})
    select
      (select count(*) from started where not void and fine > ${at}::timestamptz)::int as "inUso",
      ((select attive from counts) - (select n from voided))::int as "attive",
      ((select rides from totals) - (select attive from counts))::int as "completate",
      ((select cancellations from totals) + (select n from voided))::int as "cancellate",
      (select count(*) from ${prenotazioni} p
        where p.stato = 'completata' and p.data_prenotazione between ${sql.placeholder('yesterday')}::date and ${sql.placeholder('today')}::date
          and p.fine >= ${sql.placeholder('dayStart')}::timestamptz and p.fine < ${sql.placeholder('dayEnd')}::timestamptz)::int as "oggi",
      (select utenti from counts) as "utenti",
      (select count(*) from bikes)::int as "bici",
      (select count(*) filter (where stato = 'disponibile') from bikes)::int as "disponibile",
      (select count(*) filter (where stato = 'prenotata') from bikes)::int as "prenotata",
      (select count(*) filter (where stato = 'manutenzione') from bikes)::int as "manutenzione",
      (select count(*) filter (where stato = 'fuori_servizio') from bikes)::int as "fuoriServizio",
      (select count(*) from started where ritirata_at is not null and fine <= ${at}::timestamptz)::int as "ritardi",
      (select count(*) from ${interventi} d where d.chiuso_at is null)::int as "danniAperti"`;
});

/** The four cards and the tab counts: one statement, no row leaves PostgreSQL. */
export async function adminSummary(deps: ReadDeps, sedi: readonly number[] | null = null): Promise<AdminSummary> {
  if (sedi !== null) return scopedSummary(deps, sedi);
  const now = deps.clock.now();
  const today = zonedToday(now, deps.config.timeZone);
  const minutes = lifecycleMinutes(await currentRules(deps));
  const rows = await summaryStatement.run(deps.db, {
    at: now.toISOString(),
    hold: minutes.hold,
    noShow: minutes.noShow,
    yesterday: addDays(today, -1),
    today,
    dayStart: startOfDay(today, deps.config.timeZone).toISOString(),
    dayEnd: startOfDay(addDays(today, 1), deps.config.timeZone).toISOString(),
  });
  return summaryOf(rows[0]!);
}

/**
 * The summary of a staff member's sedi (issue 48): the same cards, counted over the bookings, bikes,
 * people (by home sede) and open repair tickets of those sedi. A sede has at most a few thousand
 * bookings a year: they are counted, not read from the install's rollup.
 */
async function scopedSummary(deps: ReadDeps, sedi: readonly number[]): Promise<AdminSummary> {
  const now = deps.clock.now();
  const today = zonedToday(now, deps.config.timeZone);
  const dayStart = startOfDay(today, deps.config.timeZone).toISOString();
  const dayEnd = startOfDay(addDays(today, 1), deps.config.timeZone).toISOString();
  const at = now.toISOString();
  const minutes = lifecycleMinutes(await currentRules(deps));
  const ids = sql`array[${sql.join(sedi.map((id) => sql`${id}`), sql`, `)}]::int[]`;
  const result = await deps.db.execute<Record<string, number>>(sql`
    with bikes as (select ${asOf.bikeStateAsOf(at, minutes)} as stato from ${biciclette} b where b.sede_id = any(${ids})),
    active as (
      select p.inizio, p.fine, p.ritirata_at, ${asOf.voidAsOf(at, minutes)} as void
        from ${prenotazioni} p where p.stato = 'attiva' and p.sede_id = any(${ids})),
    ended as (
      select count(*) filter (where p.stato = 'completata')::int as rides, count(*) filter (where p.stato = 'cancellata')::int as cancellations
        from ${prenotazioni} p where p.stato in ('completata', 'cancellata') and p.sede_id = any(${ids}))
    select
      (select count(*) from active where not void and inizio <= ${at}::timestamptz and fine > ${at}::timestamptz)::int as "inUso",
      (select count(*) from active where not void)::int as "attive",
      (select rides from ended) as "completate",
      (select cancellations from ended) + (select count(*) from active where void)::int as "cancellate",
      (select count(*) from ${prenotazioni} p
        where p.stato = 'completata' and p.sede_id = any(${ids}) and p.data_prenotazione between ${addDays(today, -1)}::date and ${today}::date
          and p.fine >= ${dayStart}::timestamptz and p.fine < ${dayEnd}::timestamptz)::int as "oggi",
      (select count(*) from ${users} u where u.sede_id = any(${ids}))::int as "utenti",
      (select count(*) from bikes)::int as "bici",
      (select count(*) filter (where stato = 'disponibile') from bikes)::int as "disponibile",
      (select count(*) filter (where stato = 'prenotata') from bikes)::int as "prenotata",
      (select count(*) filter (where stato = 'manutenzione') from bikes)::int as "manutenzione",
      (select count(*) filter (where stato = 'fuori_servizio') from bikes)::int as "fuoriServizio",
      (select count(*) from active where ritirata_at is not null and fine <= ${at}::timestamptz)::int as "ritardi",
      (select count(*) from ${interventi} d where d.chiuso_at is null and d.sede_id = any(${ids}))::int as "danniAperti"`);
  return summaryOf(result.rows[0]!);
}

/** The summary's shape from its query's row. */
function summaryOf(r: Record<string, number>): AdminSummary {
  return {
    biciInUsoOra: r.inUso!,
    prenotazioniAttive: r.attive!,
    biciDisponibili: r.disponibile!,
    biciTotali: r.bici!,
    utentiTotali: r.utenti!,
    completateOggi: r.oggi!,
    bikesByStato: {
      disponibile: r.disponibile!,
      prenotata: r.prenotata!,
      manutenzione: r.manutenzione!,
      fuori_servizio: r.fuoriServizio!,
    },
    bookingsByStato: { attiva: r.attive!, completata: r.completate!, cancellata: r.cancellate! },
    ritardi: r.ritardi!,
    danniAperti: r.danniAperti!,
  };
}

/**
 * A listed booking's payment and bike, each looked up by its unique index, per listed row
 * (issue 51, decision 062): lateral subqueries, each limited to its one row.
 */
function rowLookups(db: ReadDeps['db']) {
  // A booking's payment, looked up by its unique index per listed row. As a plain left join, with
  // 2,000,000 bookings the planner expected so many rows behind the page that it read every
  // payment once and compared each listed row with all of them: 50 × 15,000 rows, 150 ms of the
  // /admin render at ten times today's data (issue 51), growing with the payments.
  // A function: the query builder's `limit` changes the builder it is called on.
  const payment = () =>
    db
      .select({ status: sql<(typeof pagamenti.$inferSelect)['status']>`${pagamenti.status}`.as('status') })
      .from(pagamenti)
      .where(eq(pagamenti.prenotazioneId, prenotazioni.id));
  // One at most (`pagamenti_one_per_booking`); the limit also keeps PostgreSQL from pulling the
  // subquery up into the plain join it replaces.
  const pay = payment().limit(1).as('pay');
  // The same rows for a count over every matching booking, without the limit: pulled up into a
  // plain join, which PostgreSQL may then hash (a look-up per row would be slower there).
  const everyPay = payment().as('pay');
  // The bike likewise, by its primary key: joined plainly, the whole fleet was read once and
  // scanned again for each listed row (50 × 500 at ten times the data).
  const bike = db
    .select({ numero: sql<string>`${biciclette.numero}`.as('numero'), modello: sql<string>`${biciclette.modello}`.as('modello') })
    .from(biciclette)
    .where(eq(biciclette.id, prenotazioni.biciId))
    .limit(1)
    .as('bike');
  // And the person, by theirs. Joined plainly, with the users' statistics not yet taken (the
  // planner then guessed 1,512 of them from the table's pages) the users were read once and
  // each listed row compared with all of them: 50 × 3,000 rows, 34 ms of PostgreSQL's 36 in the
  // /admin render of the guard's data.
  const person = db
    .select({
      nome: sql<string | null>`${users.nome}`.as('nome'),
      cognome: sql<string | null>`${users.cognome}`.as('cognome'),
      email: sql<string | null>`${users.email}`.as('email'),
    })
    .from(users)
    .where(eq(users.id, prenotazioni.userId))
    .limit(1)
    .as('person');
  // The booking's columns for its state as of now, its payment's status from the lookup.
  const state = {
    stato: prenotazioni.stato,
    motivo: prenotazioni.motivoCancellazione,
    payStatus: sql`${pay.status}`,
    createdAt: prenotazioni.createdAt,
    inizio: prenotazioni.inizio,
    fine: prenotazioni.fine,
    ritirataAt: prenotazioni.ritirataAt,
    id: prenotazioni.id,
    biciId: prenotazioni.biciId,
  };
  return { pay, everyPay, bike, person, state };
}

/** A listed booking's columns, with its state as of `at` (an instant, or a statement's placeholder). */
function bookingRows(db: ReadDeps['db'], at: string | Placeholder, minutes: Parameters<typeof asOf.bookingAsOf>[2]) {
  const { pay, bike, person, state } = rowLookups(db);
  const live = asOf.bookingAsOf(state, at, minutes);
  const rows = db
    .select({
      id: prenotazioni.id,
      nome: sql<string>`coalesce(${person.nome}, ${ANONYMOUS_USER_LABEL})`,
      cognome: sql<string>`coalesce(${person.cognome}, '')`,
      email: sql<string>`coalesce(${person.email}, '')`,
      biciNumero: bike.numero,
      biciModello: bike.modello,
      destinazione: prenotazioni.destinazione,
      dataPrenotazione: prenotazioni.dataPrenotazione,
      orarioInizio: prenotazioni.orarioInizio,
      orarioFine: prenotazioni.orarioFine,
      stato: sql<(typeof prenotazioni.$inferSelect)['stato']>`${live.stato}`,
      paymentStatus: sql<(typeof pagamenti.$inferSelect)['status'] | null>`${live.payStatus}`,
      createdAt: prenotazioni.createdAt,
      fine: prenotazioni.fine,
      ritirataAt: prenotazioni.ritirataAt,
      riconsegnataAt: prenotazioni.riconsegnataAt,
      motivoCancellazione: sql<(typeof prenotazioni.$inferSelect)['motivoCancellazione']>`${live.motivo}`,
      sedeId: prenotazioni.sedeId,
    })
    .from(prenotazioni)
    // An anonymous booking (decision 029) is listed without a person.
    .leftJoinLateral(person, sql`true`)
    .innerJoinLateral(bike, sql`true`)
    .leftJoinLateral(pay, sql`true`);
  return { live, rows };
}

/** The list's order: date, start, id, newest first. */
const BOOKINGS_ORDER = [desc(prenotazioni.dataPrenotazione), desc(prenotazioni.orarioInizio), desc(prenotazioni.id)] as const;

// Drizzle binds a number or a placeholder as the limit's value; an SQL fragment its dialect
// writes as is (`limit ${limit}`): the cast says so to the builder's type.
const PAGE_LIMIT_IN_TEXT = sql.raw(String(ADMIN_PAGE_SIZE_DEFAULT)) as unknown as Placeholder;

/**
 * The first page of every booking, unfiltered, at the default page size: the tab's first view and
 * the /admin render. Prepared once per database handle and set of the life cycle's minutes, the
 * instant as a value (issue 51: 1.3 ms of planning for 0.4 ms of running, and ~0.5 ms of the
 * app's CPU to write it, at every /admin render). The limit and the minutes are in the text:
 * as values, the generic plan could not know the page is 50 rows (it costed a tenth of the
 * table) nor fold the minutes into constants, and PostgreSQL planned every run anew. The
 * plan-shape test reads its SQL.
 */
export const everyBookingPageQuery = (db: ReadDeps['db'], minutes: { hold: number; noShow: number }) =>
  bookingRows(db, asOf.AS_OF_PLACEHOLDERS.at, asOf.minutesInText(minutes).minutes)
    .rows.where(isBooking)
    .orderBy(...BOOKINGS_ORDER)
    .limit(PAGE_LIMIT_IN_TEXT);
const everyBookingPage = asOf.preparedPerMinutes('admin_bookings', everyBookingPageQuery);
/** The count of every booking ever, from the statistics' rollup totals (decision 065). */
const everyBookingTotal = namedStatement<{ n: number }>('admin_bookings_total', () => sql`select (rides + cancellations)::int as n from ${everyBookingTotals}`);

/**
 * One page of every booking, newest first (date, start, id: read backwards along
 * `prenotazioni_admin_order_idx`), with the total of matching rows (decision 013).
 */
export async function adminBookings(
  deps: ReadDeps,
  query: PageQuery & {
    stato: 'tutti' | 'attiva' | 'completata' | 'cancellata';
    fase?: 'tutte' | BookingPhase | undefined;
    /** A staff member's sedi (issue 48); null or absent: every sede. */
    sedi?: readonly number[] | null;
    /** One booking (its detail, issue 48). */
    id?: number;
  },
): Promise<Page<AdminBookingDto>> {
  const now = deps.clock.now();
  const minutes = lifecycleMinutes(await currentRules(deps));
  // As of now (decision 035): state, reason and payment as the life cycle would leave them.
  const { live, rows: pageRows } = bookingRows(deps.db, now.toISOString(), minutes);
  // A waitlist's offer is not a booking (issue 21).
  const conditions: SQL[] = [isBooking];
  if (query.stato !== 'tutti') conditions.push(sql`${live.stato} = ${query.stato}`);
  if (query.fase && query.fase !== 'tutte') conditions.push(phaseCondition(query.fase, now, live.stato));
  // With a sede, the rows are read along `prenotazioni_sede_order_idx` (sede, then the list's order).
  if (query.sedeId !== undefined) conditions.push(eq(prenotazioni.sedeId, query.sedeId));
  if (query.sedi) conditions.push(inArray(prenotazioni.sedeId, [...query.sedi]));
  if (query.id !== undefined) conditions.push(eq(prenotazioni.id, query.id));
  if (query.q) {
    const pattern = containsPattern(query.q);
    // Users and bikes are matched first (a few thousand rows at most), then bookings by
    // their ids: PostgreSQL hashes the two small sets, and each booking costs one lookup
    // and one ILIKE instead of six (decision 013).
    const matchingUsers = deps.db
      .select({ id: users.id })
      .from(users)
      .where(
        or(
          ilike(users.nome, pattern),
          ilike(users.cognome, pattern),
          sql`(${users.nome} || ' ' || ${users.cognome}) ilike ${pattern}`,
          ilike(users.email, pattern),
        ),
      );
    const matchingBikes = deps.db.select({ id: biciclette.id }).from(biciclette).where(ilike(biciclette.numero, pattern));
    conditions.push(
      or(
        inArray(prenotazioni.userId, matchingUsers),
        inArray(prenotazioni.biciId, matchingBikes),
        ilike(prenotazioni.destinazione, pattern),
      )!,
    );
  }
  const limit = query.pageSize;
  const offset = (query.page - 1) * query.pageSize;
  const everyBooking = conditions.length === 1;
  const firstPage = everyBooking && offset === 0 && limit === ADMIN_PAGE_SIZE_DEFAULT;
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    firstPage
      ? everyBookingPage(deps.db, minutes).execute({ at: now.toISOString() })
      : pageRows.where(where).orderBy(...BOOKINGS_ORDER).limit(limit).offset(offset),
    // Every booking has its user and bike (foreign keys): the total joins only the payment
    // (the state as of now reads it). Unfiltered, it is every booking ever: the statistics'
    // rollup has that sum (attiva and completata as rides, cancellata), not a count of them all.
    everyBooking
      ? everyBookingTotal.run(deps.db, {})
      : deps.db.select({ n: count() }).from(prenotazioni).leftJoinLateral(rowLookups(deps.db).everyPay, sql`true`).where(where),
  ]);
  return {
    total: totalRow?.n ?? 0,
    rows: rows.map((r) => ({
      id: r.id,
      utente: `${r.nome} ${r.cognome}`.trim(),
      biciNumero: r.biciNumero,
      destinazione: r.destinazione,
      dataPrenotazione: r.dataPrenotazione,
      orarioInizio: r.orarioInizio,
      orarioFine: r.orarioFine,
      stato: bookingStato(r.stato),
      userName: r.nome,
      userSurname: r.cognome,
      userEmail: r.email,
      biciModello: r.biciModello,
      paymentStatus: r.paymentStatus,
      createdAt: r.createdAt.toISOString(),
      fase: bookingPhase({ ...r, stato: bookingStato(r.stato) }, now),
      ritirataAt: r.ritirataAt?.toISOString() ?? null,
      riconsegnataAt: r.riconsegnataAt?.toISOString() ?? null,
      motivoCancellazione: r.motivoCancellazione,
      sedeId: r.sedeId,
    })),
  };
}

/** The rows in a ride's phase at `now` (decision 022, "Derived state"), as SQL. */
function phaseCondition(fase: BookingPhase, now: Date, stato: SQL): SQL {
  const at = now.toISOString();
  switch (fase) {
    case 'da_ritirare':
      return sql`${stato} = 'attiva' and ${prenotazioni.ritirataAt} is null`;
    case 'in_corso':
      return sql`${stato} = 'attiva' and ${prenotazioni.ritirataAt} is not null and ${prenotazioni.fine} > ${at}::timestamptz`;
    case 'in_ritardo':
      return sql`${stato} = 'attiva' and ${prenotazioni.ritirataAt} is not null and ${prenotazioni.fine} <= ${at}::timestamptz`;
    case 'conclusa':
      return sql`${stato} = 'completata'`;
    case 'cancellata':
      return sql`${stato} = 'cancellata'`;
  }
}

/** One page of users by id; `q` over name, surname, "name surname", email and sigla. */
export async function adminUsers(deps: ReadDeps, query: PageQuery): Promise<Page<AdminUserDto>> {
  const filters: (SQL | undefined)[] = [];
  if (query.sedeId !== undefined) filters.push(eq(users.sedeId, query.sedeId));
  if (query.q) {
    const pattern = containsPattern(query.q);
    filters.push(or(
      ilike(users.nome, pattern),
      ilike(users.cognome, pattern),
      sql`(${users.nome} || ' ' || ${users.cognome}) ilike ${pattern}`,
      ilike(users.email, pattern),
      ilike(users.siglaResidente, pattern),
    ));
  }
  const where = filters.length ? and(...filters) : undefined;
  const rules = await currentRules(deps);
  const now = deps.clock.now();
  const [rows, [totalRow]] = await Promise.all([
    deps.db
      .select({ ...sessionUserColumns, sospesoFino: sql<Date | string | null>`${suspendedUntilSql(sql`${users}`, rules, now)}` })
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    total: totalRow?.n ?? 0,
    rows: rows.map(({ sospesoFino, ...r }) => ({ ...toPublicUser(r), sospesoFino: suspendedAfter(sospesoFino, now) })),
  };
}

/** A suspension's end as an ISO instant while it is in force, else null. */
export function suspendedAfter(until: Date | string | null, now: Date): string | null {
  if (until === null) return null;
  const at = new Date(until);
  return at.getTime() > now.getTime() ? at.toISOString() : null;
}

/** The whole fleet by number, life cycle applied first (at most a few hundred bikes), each with its lock. */
export async function adminBikes(deps: ReadDeps, sedeId?: number): Promise<AdminBikeWithLockDto[]> {
  const [bikes, locks] = await Promise.all([listBikes(deps), locksByBike(deps.db)]);
  return bikes.filter((b) => sedeId === undefined || b.sedeId === sedeId).map((b) => ({ ...b, lucchetto: locks.get(b.id) ?? lockDto(undefined) }));
}
