import { type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { addDays, zonedToday } from '../../../shared/time.js';
import { unservedAsOf } from '../waitlist/index.js';
import type { StatsBike, StatsDay, StatsPeriod, StatsResponse, StatsSede } from '../../../shared/schemas/stats.js';

export interface StatsDeps {
  db: Db;
  clock: Clock;
  config: { timeZone: string };
}

/** The period's days: `period` days ending today in TZ_APP (inclusive). */
export function periodRange(deps: StatsDeps, period: StatsPeriod): { from: string; to: string } {
  const to = zonedToday(deps.clock.now(), deps.config.timeZone);
  return { from: addDays(to, -(period - 1)), to };
}

/**
 * Bookings are counted by their start (`inizio`), on its wall-clock day and hour in TZ_APP
 * (stored as `data_prenotazione` / `orario_inizio`: correct across DST changes). The
 * numbers come from the rollup `stats_giornaliere`, kept exact by triggers on bookings and
 * payments (drizzle/0005_stats.sql, decision 017) through the deltas they insert and the
 * minute's fold (0010, decision 023): a period reads at most ~90 rows a day by its primary
 * key (kind, day, key), plus the few deltas not folded yet, whatever the number of bookings.
 */
const int = (v: unknown): number => Number(v ?? 0);

/**
 * One kind's rows of the period: the rollup plus the deltas not folded yet (decision 023), to
 * be summed by the query that reads them. One statement, one snapshot: a delta is either still
 * in stats_delta or already folded, never both.
 */
const periodRows = (kind: string, from: string, to: string) => sql`(
    select day, key, rides, cancellations, seconds, revenue_cents, released_holds from stats_giornaliere
     where kind = ${kind} and day between ${from}::date and ${to}::date
    union all
    select day, key, rides, cancellations, seconds, revenue_cents, released_holds from stats_delta
     where kind = ${kind} and day between ${from}::date and ${to}::date)`;

/**
 * What a period's figures are read from (issue 48): the install's rollup, or, for a staff member's
 * sedi, the rollup's kind 'sede' for the days, and the sedi's own bookings (a few thousand a year)
 * for the hours and the resident mark; the bikes, no-shows, damage reports and waits of those sedi.
 */
function scopeSql(sedi: readonly number[] | null, from: string, to: string, rollup: (kind: string) => SQL) {
  if (sedi === null) {
    return {
      days: sql`${rollup('day')} s on s.key = 0`,
      hours: sql`select s.key as hour, sum(s.rides) as rides from ${rollup('hour')} s group by s.key`,
      residents: sql`select s.key, sum(s.rides) as rides from ${rollup('res')} s group by s.key`,
      bike: sql`true`,
      booking: sql`true`,
      wait: sql`true`,
    };
  }
  const ids = sql`array[${sql.join(sedi.map((id) => sql`${id}`), sql`, `)}]::int[]`;
  const rides = sql`prenotazioni p where p.sede_id = any(${ids}) and p.stato in ('attiva', 'completata')
      and p.data_prenotazione between ${from}::date and ${to}::date`;
  return {
    days: sql`${rollup('sede')} s on s.key = any(${ids})`,
    hours: sql`select left(p.orario_inizio, 2)::int as hour, count(*) as rides from ${rides} group by 1`,
    residents: sql`select case when p.residente then 1 else 0 end as key, count(*) as rides from ${rides} group by 1`,
    bike: sql`b.sede_id = any(${ids})`,
    booking: sql`p.sede_id = any(${ids})`,
    wait: sql`a.sede_id = any(${ids})`,
  };
}

/** The statistics of a period: of every sede, or of `sedi` only (a staff member's, issue 48). */
export async function computeStats(deps: StatsDeps, period: StatsPeriod, only: readonly number[] | null = null): Promise<StatsResponse> {
  const { from, to } = periodRange(deps, period);
  const { db } = deps;
  // The waitlists as of now, computed (decision 035): a window started is unserved demand
  // now, whether or not the minute job has written it down yet.
  const unserved = unservedAsOf(sql`${deps.clock.now().toISOString()}::timestamptz`);
  const rollup = (kind: string) => periodRows(kind, from, to);
  const scope = scopeSql(only, from, to, rollup);

  const [daysRes, hoursRes, bikesRes, residentsRes, rideRes, waitDaysRes, waitHoursRes, sedi] = await Promise.all([
    // Every day of the period, zero-filled.
    db.execute<{ date: string; rides: string; cancellations: string; released: string; revenue: string }>(sql`
      select d::date::text as date,
             coalesce(sum(s.rides), 0) as rides,
             coalesce(sum(s.cancellations), 0) as cancellations,
             coalesce(sum(s.released_holds), 0) as released,
             coalesce(sum(s.revenue_cents), 0) as revenue
        from generate_series(${from}::date, ${to}::date, interval '1 day') d
        left join ${scope.days} and s.day = d::date
       group by d
       order by d`),
    db.execute<{ hour: number; rides: string }>(scope.hours),
    // Every bike, also those never taken in the period.
    db.execute<{ id: number; numero: string; modello: string; rides: string; seconds: string }>(sql`
      select b.id, b.numero, b.modello, coalesce(a.rides, 0) as rides, coalesce(a.seconds, 0) as seconds
        from biciclette b
        left join (select s.key, sum(s.rides) as rides, sum(s.seconds) as seconds
                     from ${rollup('bike')} s group by s.key) a on a.key = b.id
       where ${scope.bike}`),
    db.execute<{ key: number; rides: string }>(scope.residents),
    // No-shows and damage reports (decision 022) are counted at read time, not in the rollup:
    // the no-shows of a period are read by their own partial index (0010: the day of each
    // booking released as a no-show; the bookings' day index made 365 days read ~500,000
    // rows), and the damage reports are a small table.
    db.execute<{ date: string; no_shows: string; damages: string }>(sql`
      select d::date::text as date,
             (select count(*) from prenotazioni p
               where p.data_prenotazione = d::date and p.stato = 'cancellata'
                 and p.motivo_cancellazione = 'mancato_ritiro' and ${scope.booking}) as no_shows,
             (select count(*) from interventi sd join biciclette b on b.id = sd.bici_id
               where (sd.created_at at time zone ${deps.config.timeZone})::date = d::date and ${scope.bike}) as damages
        from generate_series(${from}::date, ${to}::date, interval '1 day') d
       order by d`),
    // The waitlist (issue 21), read from its own table by the window's day: served (booked
    // through an offer) and unserved (the window started and no bike was ever offered).
    db.execute<{ date: string; served: string; unserved: string }>(sql`
      select d::date::text as date,
             count(a.id) filter (where a.stato = 'servita') as served,
             count(a.id) filter (where ${unserved}) as unserved
        from generate_series(${from}::date, ${to}::date, interval '1 day') d
        left join attese a on a.data_prenotazione = d::date and (a.stato = 'servita' or ${unserved}) and ${scope.wait}
       group by d
       order by d`),
    db.execute<{ hour: number; unserved: string }>(sql`
      select left(a.orario_inizio, 2)::int as hour, count(*) as unserved from attese a
       where a.data_prenotazione between ${from}::date and ${to}::date and ${unserved} and ${scope.wait}
       group by 1`),
    sediTotals(db, rollup('sede')).then((all) => all.filter((x) => only === null || only.includes(x.sedeId))),
  ]);
  const tickets = await ticketStats(db, from, to, deps.config.timeZone);
  const rideByDay = new Map(rideRes.rows.map((r) => [r.date, { noShows: int(r.no_shows), damageReports: int(r.damages) }]));

  const days: StatsDay[] = daysRes.rows.map((r) => ({
    date: r.date,
    rides: int(r.rides),
    cancellations: int(r.cancellations),
    releasedHolds: int(r.released),
    revenueCents: int(r.revenue),
    noShows: rideByDay.get(r.date)?.noShows ?? 0,
    damageReports: rideByDay.get(r.date)?.damageReports ?? 0,
  }));
  const byHour = new Map(hoursRes.rows.map((r) => [int(r.hour), int(r.rides)]));
  const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, rides: byHour.get(hour) ?? 0 }));
  const bikes: StatsBike[] = bikesRes.rows
    .map((r) => ({
      id: int(r.id),
      numero: r.numero,
      modello: r.modello,
      rides: int(r.rides),
      hours: Math.round(int(r.seconds) / 360) / 10,
    }))
    .sort((a, b) => b.rides - a.rides || b.hours - a.hours || a.numero.localeCompare(b.numero, 'it', { numeric: true }));
  let residentRides = 0;
  let externalRides = 0;
  for (const r of residentsRes.rows) {
    if (int(r.key) === 1) residentRides += int(r.rides);
    else externalRides += int(r.rides);
  }
  const sum = (key: 'rides' | 'cancellations' | 'releasedHolds' | 'revenueCents' | 'noShows' | 'damageReports') => days.reduce((s, d) => s + d[key], 0);
  const rides = sum('rides');
  const cancellations = sum('cancellations');
  return {
    period,
    from,
    to,
    timeZone: deps.config.timeZone,
    totals: {
      bookings: rides + cancellations,
      rides,
      cancellations,
      releasedHolds: sum('releasedHolds'),
      revenueCents: sum('revenueCents'),
      residentRides,
      externalRides,
      noShows: sum('noShows'),
      damageReports: sum('damageReports'),
      ...tickets.total,
    },
    days,
    hours,
    bikes,
    sedi: sedi.map((s) => ({ ...s, ...(tickets.bySede.get(s.sedeId) ?? NO_TICKETS) })),
    waitlist: waitlistStats(waitDaysRes.rows, waitHoursRes.rows),
  };
}

type TicketFigures = Pick<StatsSede, 'ticketsOpened' | 'ticketsClosed' | 'repairMedianHours'>;
const NO_TICKETS: TicketFigures = { ticketsOpened: 0, ticketsClosed: 0, repairMedianHours: null };

/**
 * The repair tickets of the period (issue 48), by sede and in all: opened in it, closed in it
 * (`riparata`, `non_riparabile`), and the median hours from opened to `riparata` of those
 * repaired in it (one decimal). Days in TZ_APP, as the rest.
 */
async function ticketStats(db: Db, from: string, to: string, timeZone: string): Promise<{ total: TicketFigures; bySede: Map<number, TicketFigures> }> {
  const inPeriod = (column: SQL) => sql`(${column} at time zone ${timeZone})::date between ${from}::date and ${to}::date`;
  const { rows } = await db.execute<{ sede_id: number | null; opened: string; closed: string; median: string | null }>(sql`
    select i.sede_id,
           count(*) filter (where ${inPeriod(sql`i.created_at`)}) as opened,
           count(*) filter (where i.chiuso_at is not null and ${inPeriod(sql`i.chiuso_at`)}) as closed,
           percentile_cont(0.5) within group (order by extract(epoch from i.chiuso_at - i.created_at))
             filter (where i.stato = 'riparata' and ${inPeriod(sql`i.chiuso_at`)}) as median
      from interventi i
     where ${inPeriod(sql`i.created_at`)} or (i.chiuso_at is not null and ${inPeriod(sql`i.chiuso_at`)})
     group by grouping sets ((i.sede_id), ())`);
  const figures = (r: (typeof rows)[number]): TicketFigures => ({
    ticketsOpened: int(r.opened),
    ticketsClosed: int(r.closed),
    repairMedianHours: r.median === null ? null : Math.round(Number(r.median) / 360) / 10,
  });
  const total = rows.find((r) => r.sede_id === null);
  return {
    total: total ? figures(total) : NO_TICKETS,
    bySede: new Map(rows.filter((r) => r.sede_id !== null).map((r) => [r.sede_id!, figures(r)])),
  };
}

/**
 * Each sede's totals of the period (issue 47), from the rollup's kind 'sede' (key: the sede's
 * id): every open sede, and an archived one with figures in the period.
 */
async function sediTotals(db: Db, rows: SQL): Promise<Omit<StatsSede, keyof TicketFigures>[]> {
  const { rows: sedi } = await db.execute<{ id: number; nome: string; rides: string; seconds: string; revenue: string; cancellations: string }>(sql`
    select se.id, se.nome, coalesce(sum(s.rides), 0) as rides, coalesce(sum(s.seconds), 0) as seconds,
           coalesce(sum(s.revenue_cents), 0) as revenue, coalesce(sum(s.cancellations), 0) as cancellations
      from sedi se
      left join ${rows} s on s.key = se.id
     group by se.id
    having se.archiviata_at is null or count(s.key) > 0
     order by se.id`);
  return sedi.map((r) => ({
    sedeId: int(r.id),
    nome: r.nome,
    rides: int(r.rides),
    hours: Math.round(int(r.seconds) / 360) / 10,
    revenueCents: int(r.revenue),
    cancellations: int(r.cancellations),
  }));
}

function waitlistStats(
  dayRows: { date: string; served: string; unserved: string }[],
  hourRows: { hour: number; unserved: string }[],
): StatsResponse['waitlist'] {
  const days = dayRows.map((r) => ({ date: r.date, served: int(r.served), unserved: int(r.unserved) }));
  const byHour = new Map(hourRows.map((r) => [int(r.hour), int(r.unserved)]));
  return {
    served: days.reduce((s, d) => s + d.served, 0),
    unserved: days.reduce((s, d) => s + d.unserved, 0),
    days,
    hours: Array.from({ length: 24 }, (_, hour) => ({ hour, unserved: byHour.get(hour) ?? 0 })),
  };
}
