import { sql, type SQL } from 'drizzle-orm';
import type { BikeDto } from '../../../shared/schemas/booking.js';
import type { Db } from '../../db/client.js';
import type { SharedJson } from '../../http/precompressed.js';
import { START_GRACE_MINUTES, type Window } from '../rules/index.js';
import { bikeStateAsOf, PICKUP_EARLY_MINUTES, voidAsOf } from './lifecycle.js';
import { disponibilitaModifiche } from './tables.js';

/**
 * The fleet's picture (decision 040): what the availability read depends on, read by one
 * statement under one PostgreSQL snapshot, and kept in the process while it is still exactly
 * what PostgreSQL holds.
 *
 * - **Writes.** Every transaction that changes `prenotazioni`, `pagamenti`, `biciclette` or
 *   `manutenzioni` leaves its transaction id in `disponibilita_modifiche` (a trigger). Before
 *   answering a batch of requests, the process asks whether any such transaction is not
 *   visible in the picture's snapshot: one indexed query, started after every request of the
 *   batch arrived (`QueryBatcher`). If one is, the picture is read again. So an answer sees
 *   every commit made before its request arrived, from this process or any other, as the
 *   query of its own it replaces would have.
 * - **Time.** The picture is read "as of now" (decision 035): a booking the life cycle would
 *   release holds nothing, a bike's state is the one the life cycle would show. Those answers
 *   change only when the clock passes one of the instants the conditions compare it with
 *   (a start, an end, ten minutes before a start, a no-show instant, a payment hold's end, a
 *   maintenance's bounds): the picture keeps the first of them after its reading and is read
 *   again from it on.
 * - **Windows.** It covers the bookings that can overlap a window starting from `coverFrom`
 *   (the reading's now less the start grace: no earlier window passes `checkWindow`).
 *
 * The picture is read again, besides, when the rules' minutes change and when it is a minute
 * old (the change rows are pruned after ten minutes: `pruneAvailabilityChanges`).
 */
export interface FleetPicture {
  /** `pg_current_snapshot()` of the reading, and its xmin (the change rows below it are all visible). */
  snapshot: string;
  xmin: string;
  /** The clock's instant of the reading (ms), and the first instant at which an answer may change. */
  readAt: number;
  validUntil: number;
  /** `performance.now()` of the reading: the picture's age in real time. */
  readReal: number;
  coverFrom: number;
  hold: number;
  noShow: number;
  /** The bikes that can be offered, in the list's order, each with its JSON (`BikeDto`). */
  bikes: { id: number; json: string }[];
  /** Each sede's bikes (issue 47): their places in `bikes`, in the list's order. A window is asked for one sede. */
  bySede: Map<number, number[]>;
  /** Half-open [start, end) intervals in ms, per bike, that exclude it: planned maintenance, active bookings not void, offers. */
  busy: Map<number, number[]>;
  /** Bikes picked up and overdue: held until returned, whatever the window. */
  overdue: Set<number>;
  /** The compressed bytes of the answers given from this picture, by their free bikes: each compressed once. */
  answers: Map<string, SharedJson['compressed']>;
}

/** Answers whose compressed bytes a picture keeps (under 1 KB each; the text is joined again per request, a few µs). */
export const ANSWERS_PER_PICTURE = 2_048;

/** A picture is read again after this much real time, whatever happened (decision 040). */
export const PICTURE_MAX_AGE_MS = 60_000;

interface PictureRow extends Record<string, unknown> {
  snapshot: string;
  xmin: string;
  bikes: BikeDto[];
  busy: [number, number, number][];
  overdue: number[];
  next_change: number | null;
}

// date_part is float8 arithmetic (extract's numeric is slower); instants here are whole milliseconds.
const ms = (column: SQL) => sql`(date_part('epoch', ${column}) * 1000)`;

/** The statement that reads the picture, as of `at`, covering windows from `cover` (both ISO instants). */
export function fleetPictureStatement(at: string, minutes: { hold: number; noShow: number }, cover: string) {
  const now = sql`${at}::timestamptz`;
  const after = (instant: SQL) => sql`case when ${instant} > ${now} then ${instant} end`;
  return sql`
    with a as materialized (
      -- One scan of the active rows (their partial index; the few past ones are the overdue
      -- rides and the rows the job has not released yet) and of the offers still ahead.
      select p.bici_id, p.inizio, p.fine, p.stato = 'offerta' or not ${voidAsOf(at, minutes)} as holds,
             -- The first instant after now at which a condition on this row turns (least skips nulls).
             case when p.stato = 'attiva' then least(
               ${after(sql`p.inizio`)}, ${after(sql`p.fine`)},
               ${after(sql`p.inizio - make_interval(mins => ${PICKUP_EARLY_MINUTES})`)},
               ${after(sql`least(p.inizio + make_interval(mins => ${minutes.noShow}::int), p.fine)`)},
               ${after(sql`p.created_at + make_interval(mins => ${minutes.hold}::int)`)}) end as next
        from prenotazioni p
       where p.stato = 'attiva' or (p.stato = 'offerta' and p.fine > ${cover}::timestamptz))
    select pg_current_snapshot()::text as snapshot,
           pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
           coalesce((
             select json_agg(json_build_object(
                      'id', b.id, 'numero', b.numero, 'modello', b.modello, 'sedeId', b.sede_id,
                      'stato', ${bikeStateAsOf(at, minutes)},
                      'updatedAt', to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                    order by lpad(b.numero, 20, '0'), b.numero)
               from biciclette b
              where b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto)), '[]') as bikes,
           coalesce((
             select json_agg(json_build_array(x.bici_id, ${ms(sql`x.inizio`)}, ${ms(sql`x.fine`)}))
               from (
                 -- Planned maintenance (issue 20): the bike is offered to nobody inside its periods.
                 select m.bici_id, m.inizio, m.fine from manutenzioni m where m.fine > ${cover}::timestamptz and m.inizio < m.fine
                 union all
                 -- Active bookings, as of now (decision 035): one the life cycle would release
                 -- holds nothing. And a bike held for the first in a waitlist (issue 21).
                 select a.bici_id, a.inizio, a.fine from a where a.fine > ${cover}::timestamptz and a.holds
               ) x), '[]') as busy,
           -- A ride in ritardo keeps its bike until it is returned (decision 022).
           array(select distinct p.bici_id from prenotazioni p
                  where p.stato = 'attiva' and p.fine <= ${now} and p.ritirata_at is not null) as overdue,
           ${ms(sql`least(
             (select min(a.next) from a),
             (select min(${after(sql`m.inizio`)}) from manutenzioni m),
             (select min(${after(sql`m.fine`)}) from manutenzioni m))`)} as next_change`;
}

/** Reads the picture under one snapshot (one statement), as of `now`. */
export async function readFleetPicture(
  db: Db,
  now: Date,
  minutes: { hold: number; noShow: number },
  from: number,
): Promise<FleetPicture> {
  const coverFrom = new Date(Math.min(from, now.getTime() - START_GRACE_MINUTES * 60_000));
  const { rows } = await db.execute<PictureRow>(fleetPictureStatement(now.toISOString(), minutes, coverFrom.toISOString()));
  const row = rows[0]!;
  const busy = new Map<number, number[]>();
  for (const [bike, start, end] of row.busy) {
    const list = busy.get(bike);
    if (list) list.push(start, end);
    else busy.set(bike, [start, end]);
  }
  const bySede = new Map<number, number[]>();
  row.bikes.forEach((b, place) => {
    const list = bySede.get(b.sedeId);
    if (list) list.push(place);
    else bySede.set(b.sedeId, [place]);
  });
  return {
    snapshot: row.snapshot,
    xmin: row.xmin,
    readAt: now.getTime(),
    // Milliseconds rounded down: read again a fraction early rather than late.
    validUntil: row.next_change === null ? Number.POSITIVE_INFINITY : Math.floor(row.next_change),
    readReal: performance.now(),
    coverFrom: coverFrom.getTime(),
    hold: minutes.hold,
    noShow: minutes.noShow,
    bikes: row.bikes.map((b) => ({ id: b.id, json: JSON.stringify(b) })),
    bySede,
    busy,
    overdue: new Set(row.overdue),
    answers: new Map(),
  };
}

/** Whether the picture can answer at `now`, with these minutes, for windows from `from`, without asking PostgreSQL again. */
export function pictureCovers(p: FleetPicture, now: number, minutes: { hold: number; noShow: number }, from: number): boolean {
  return (
    now >= p.readAt &&
    now < p.validUntil &&
    from >= p.coverFrom &&
    p.hold === minutes.hold &&
    p.noShow === minutes.noShow &&
    performance.now() - p.readReal < PICTURE_MAX_AGE_MS
  );
}

const NO_BIKES: readonly number[] = [];

/**
 * The bikes of one sede free in a window: the JSON text of a `BikeDto[]`, shared by every
 * window with the same free bikes (places in `bikes`: no two sedi share one).
 */
export function freeBikes(p: FleetPicture, w: Window, sedeId: number): SharedJson {
  const start = w.inizio.getTime();
  const end = w.fine.getTime();
  const free: number[] = [];
  const places = p.bySede.get(sedeId) ?? NO_BIKES;
  for (let i = 0; i < places.length; i++) {
    const b = places[i]!;
    const bike = p.bikes[b]!;
    if (p.overdue.has(bike.id)) continue;
    const intervals = p.busy.get(bike.id);
    let taken = false;
    if (intervals) {
      for (let i = 0; i < intervals.length; i += 2) {
        if (intervals[i]! < end && start < intervals[i + 1]!) {
          taken = true;
          break;
        }
      }
    }
    if (!taken) free.push(b);
  }
  const key = free.join(',');
  let compressed = p.answers.get(key);
  if (!compressed) {
    compressed = {};
    if (p.answers.size < ANSWERS_PER_PICTURE) p.answers.set(key, compressed);
  }
  return { json: `[${free.map((b) => p.bikes[b]!.json).join(',')}]`, compressed };
}

/**
 * Whether a transaction not visible in the picture's snapshot changed what it depends on:
 * one indexed query (the change rows from the snapshot's xmin on), prepared once per handle.
 */
export function prepareChangedSince(db: Db) {
  return db
    .select({
      changed: sql<boolean>`exists (select 1 from ${disponibilitaModifiche} c
        where c.xid >= ${sql.placeholder('xmin')}::bigint
          and not pg_visible_in_snapshot(c.xid::text::xid8, ${sql.placeholder('snapshot')}::pg_snapshot))`,
    })
    .from(sql`(select 1) as one`)
    .prepare('availability_changed');
}

/**
 * Deletes the change rows older than ten minutes (the life-cycle job, each minute). A picture
 * is read again within a minute (`PICTURE_MAX_AGE_MS`), so a row is gone only long after every
 * picture that could miss it; a writer's transaction would have to last nine minutes.
 */
export async function pruneAvailabilityChanges(db: Db): Promise<number> {
  const result = await db.execute(sql`delete from ${disponibilitaModifiche} where created_at < now() - interval '10 minutes'`);
  return result.rowCount ?? 0;
}
