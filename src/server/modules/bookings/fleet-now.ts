import { sql, type SQL } from 'drizzle-orm';
import type { BikeNow } from '../../../shared/schemas/fleet.js';
import { addDays, zonedInstant, zonedToday } from '../../../shared/time.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';
import { PICKUP_EARLY_MINUTES, voidAsOf } from './lifecycle.js';
import { disponibilitaModifiche } from './tables.js';

/**
 * The fleet's state now (issue 34, decision 044): every bike with what a person at the rack
 * needs to know, read "as of now" (decision 035) so that a no-show past its instant or an
 * unpaid hold run out reads as the minute job will write it.
 *
 * State, first rule that applies:
 * 1. the admin's state: `fuori_servizio`; `manutenzione` set by an admin; planned maintenance
 *    in force (issue 20) → `manutenzione`;
 * 2. a ride picked up and not returned → `in_uso` until its end, `in_ritardo` after;
 * 3. an active booking whose pick-up window is open (from `inizio − PICKUP_EARLY_MINUTES`,
 *    until its end) → `prenotata` from its start;
 * 4. a bike an admin marked `prenotata` by hand → `prenotata` (no start);
 * 5. else `libera`, until the next booking's (or planned maintenance's) start today.
 * A waitlist's offer (issue 21) is not a booking: it does not change a bike's state here.
 *
 * "Today" is the service's day (TZ_APP). One statement under one snapshot: the bikes, the
 * active bookings (their partial index: at most one per user), the maintenance periods of
 * today (their `fine` index). It reads only instants and bike numbers: no person, no code.
 */
export interface FleetNowDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'timeZone'>;
}

/** A reading of the fleet's state, with what tells whether it is still current. */
export interface FleetNowReading {
  bici: BikeNow[];
  /** Each bike's sede (issue 47): the rack's board of a sede shows only its bikes. */
  sedeOf: Map<number, number>;
  /** `pg_current_snapshot()` of the reading and its xmin (see `fleetChangedSince`). */
  snapshot: string;
  xmin: string;
  /** The first instant (ms) after the reading at which a state or a time shown may turn by the clock alone. */
  validUntil: number;
  /** The rules' minutes the reading used: a change of them changes the answer. */
  hold: number;
  noShow: number;
}

interface Row extends Record<string, unknown> {
  snapshot: string;
  xmin: string;
  bikes: { id: number; numero: string; stato: string; auto: boolean; sede: number }[];
  /** [bike, start, end, picked up at or null] in ms, by start. */
  bookings: [number, number, number, number | null][];
  /** [bike, start, end] in ms. */
  maintenance: [number, number, number][];
  next_change: number | null;
}

const ms = (column: SQL) => sql`(date_part('epoch', ${column}) * 1000)`;

function statement(at: string, dayEnd: string, minutes: { hold: number; noShow: number }) {
  const now = sql`${at}::timestamptz`;
  const after = (instant: SQL) => sql`case when ${instant} > ${now} then ${instant} end`;
  return sql`
    with a as materialized (
      -- The active bookings not void as of now that matter today: rides not returned, and the
      -- bookings not over whose pick-up window opens before the day ends.
      select p.bici_id, p.inizio, p.fine, p.ritirata_at,
             least(${after(sql`p.inizio - make_interval(mins => ${PICKUP_EARLY_MINUTES})`)}, ${after(sql`p.inizio`)}, ${after(sql`p.fine`)},
                   case when p.ritirata_at is null then ${after(sql`least(p.inizio + make_interval(mins => ${minutes.noShow}::int), p.fine)`)} end,
                   ${after(sql`p.created_at + make_interval(mins => ${minutes.hold}::int)`)}) as next
        from prenotazioni p
       where p.stato = 'attiva'
         and (p.ritirata_at is not null
              or (p.fine > ${now} and p.inizio - make_interval(mins => ${PICKUP_EARLY_MINUTES}) < ${dayEnd}::timestamptz))
         and not ${voidAsOf(at, minutes)}
    ), m as materialized (
      select m.bici_id, m.inizio, m.fine from manutenzioni m
       where m.fine > ${now} and m.inizio < ${dayEnd}::timestamptz and m.inizio < m.fine
    )
    select pg_current_snapshot()::text as snapshot,
           pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
           coalesce((select json_agg(json_build_object('id', b.id, 'numero', b.numero, 'stato', b.stato, 'auto', b.stato_auto, 'sede', b.sede_id)
                                     order by lpad(b.numero, 20, '0'), b.numero)
                       from biciclette b), '[]') as bikes,
           coalesce((select json_agg(json_build_array(a.bici_id, ${ms(sql`a.inizio`)}, ${ms(sql`a.fine`)}, ${ms(sql`a.ritirata_at`)})
                                     order by a.inizio)
                       from a), '[]') as bookings,
           coalesce((select json_agg(json_build_array(m.bici_id, ${ms(sql`m.inizio`)}, ${ms(sql`m.fine`)})) from m), '[]') as maintenance,
           ${ms(sql`least((select min(a.next) from a),
                          (select min(${after(sql`m.inizio`)}) from m),
                          (select min(${after(sql`m.fine`)}) from m))`)} as next_change`;
}

const iso = (instant: number) => new Date(Math.round(instant)).toISOString();

/** Reads the fleet's state as of `now`, with what tells whether it is still current. */
export async function readFleetNow(deps: FleetNowDeps, now: Date = deps.clock.now()): Promise<FleetNowReading> {
  const minutes = lifecycleMinutes(await currentRules(deps));
  const timeZone = deps.config.timeZone;
  const tomorrow = addDays(zonedToday(now, timeZone), 1);
  // Midnight always exists in Europe/Rome; a zone skipping it would start its day at 01:00.
  const dayEnd = (zonedInstant(tomorrow, '00:00', timeZone) ?? zonedInstant(tomorrow, '01:00', timeZone))!.getTime();
  const at = now.getTime();
  const { rows } = await deps.db.execute<Row>(statement(now.toISOString(), iso(dayEnd), minutes));
  const row = rows[0]!;

  const bookingsOf = new Map<number, Row['bookings']>();
  for (const b of row.bookings) {
    const list = bookingsOf.get(b[0]);
    if (list) list.push(b);
    else bookingsOf.set(b[0], [b]);
  }
  const maintenanceOf = new Map<number, Row['maintenance']>();
  for (const m of row.maintenance) {
    const list = maintenanceOf.get(m[0]);
    if (list) list.push(m);
    else maintenanceOf.set(m[0], [m]);
  }

  const bici = row.bikes.map((bike): BikeNow => {
    const bookings = bookingsOf.get(bike.id) ?? [];
    const maintenance = maintenanceOf.get(bike.id) ?? [];
    const waiting = bookings.filter((b) => b[3] === null);
    // The intervals in which the bike is not free today: bookings not picked up, maintenance.
    const busy: [number, number][] = [...waiting.map((b): [number, number] => [b[1], b[2]]), ...maintenance.map((m): [number, number] => [m[1], m[2]])];
    /** The first instant from `from` at which no interval holds the bike, if today. */
    const freeFrom = (from: number | null): string | null => {
      if (from === null) return null;
      let t = from;
      for (let moved = true; moved; ) {
        moved = false;
        for (const [start, end] of busy) {
          if (start <= t && t < end) {
            t = end;
            moved = true;
          }
        }
      }
      return t < dayEnd ? iso(t) : null;
    };
    const prossimePrenotazioni = waiting.filter((b) => b[1] < dayEnd).map((b) => ({ inizio: iso(b[1]), fine: iso(b[2]) }));
    const base = { biciId: bike.id, numero: bike.numero, liberaFino: null, inUsoFino: null, prenotataDalle: null, prossimePrenotazioni };

    if (bike.stato === 'fuori_servizio') return { ...base, stato: 'fuori_servizio', prossimaLiberaOggi: null };
    if (bike.stato === 'manutenzione' && !bike.auto) return { ...base, stato: 'manutenzione', prossimaLiberaOggi: null };
    const inForce = maintenance.filter((m) => m[1] <= at && at < m[2]);
    if (inForce.length > 0) {
      return { ...base, stato: 'manutenzione', prossimaLiberaOggi: freeFrom(Math.max(...inForce.map((m) => m[2]))) };
    }
    const ride = bookings.find((b) => b[3] !== null);
    if (ride) {
      return ride[2] > at
        ? { ...base, stato: 'in_uso', inUsoFino: iso(ride[2]), prossimaLiberaOggi: freeFrom(ride[2]) }
        : { ...base, stato: 'in_ritardo', inUsoFino: iso(ride[2]), prossimaLiberaOggi: null };
    }
    const held = waiting.find((b) => b[1] - PICKUP_EARLY_MINUTES * 60_000 <= at && at < b[2]);
    if (held) return { ...base, stato: 'prenotata', prenotataDalle: iso(held[1]), prossimaLiberaOggi: freeFrom(held[2]) };
    if (bike.stato === 'prenotata' && !bike.auto) return { ...base, stato: 'prenotata', prossimaLiberaOggi: null };
    const nextStart = Math.min(...busy.map(([start]) => start).filter((start) => start > at && start < dayEnd));
    return {
      ...base,
      stato: 'libera',
      liberaFino: Number.isFinite(nextStart) ? iso(nextStart) : null,
      prossimaLiberaOggi: iso(at),
    };
  });

  return {
    bici,
    sedeOf: new Map(row.bikes.map((b) => [b.id, b.sede])),
    snapshot: row.snapshot,
    xmin: row.xmin,
    // Read again a fraction early rather than late; the day's end is a boundary of its own.
    validUntil: Math.min(row.next_change === null ? Number.POSITIVE_INFINITY : Math.floor(row.next_change), dayEnd),
    hold: minutes.hold,
    noShow: minutes.noShow,
  };
}

/** The bikes' state now (see `readFleetNow`). */
export async function fleetNow(deps: FleetNowDeps, now?: Date): Promise<BikeNow[]> {
  return (await readFleetNow(deps, now)).bici;
}

/**
 * Whether a transaction not visible in the reading's snapshot changed a booking, a payment, a
 * bike or a maintenance period since (decision 040's change rows): one indexed query.
 */
export async function fleetChangedSince(db: Db, reading: Pick<FleetNowReading, 'snapshot' | 'xmin'>): Promise<boolean> {
  const { rows } = await db.execute<{ changed: boolean }>(sql`
    select exists (select 1 from ${disponibilitaModifiche} c
                    where c.xid >= ${reading.xmin}::bigint
                      and not pg_visible_in_snapshot(c.xid::text::xid8, ${reading.snapshot}::pg_snapshot)) as changed`);
  return rows[0]?.changed === true;
}
