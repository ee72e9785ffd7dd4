import { sql, type SQL } from 'drizzle-orm';
import type { BikeDto } from '../../../shared/schemas/booking.js';
import type { Db } from '../../db/client.js';
import type { SharedJson } from '../../http/precompressed.js';
import { START_GRACE_MINUTES, type Window } from '../rules/index.js';
import { bikeStateAsOf, PICKUP_EARLY_MINUTES, voidAsOf } from './lifecycle.js';
import { disponibilitaModifiche } from './tables.js';

/**
 * A sede's fleet picture (decision 040, per sede since decision 064): what the availability
 * read of one sede depends on, read by one statement under one PostgreSQL snapshot, and kept
 * in the process while it is still exactly what PostgreSQL holds.
 *
 * - **Per sede.** A window is asked for one sede (issue 47), and a booking is at its bike's
 *   sede: the statement reads that sede's bikes, its active rows and offers (through
 *   `prenotazioni_no_overlap`, which begins with the sede) and its bikes' maintenance, so its
 *   cost is that of one sede however many the install has (at ten sedi, reading them all
 *   cost 4× one: issue 51's scale bench).
 * - **Writes.** Every transaction that changes `prenotazioni`, `pagamenti`, `biciclette` or
 *   `manutenzioni` leaves its transaction id in `disponibilita_modifiche` (a trigger). Before
 *   answering a batch of requests, the process asks, for the picture of each sede in the
 *   batch, whether any such transaction is not visible in that picture's snapshot: one indexed
 *   query, started after every request of the batch arrived (`QueryBatcher`). If one is, that
 *   sede's picture is read again. So an answer sees every commit made before its request
 *   arrived, from this process or any other, as the query of its own it replaces would have.
 *   A change row does not say its sede, so a write anywhere makes every picture read again,
 *   each at its own sede's next request.
 * - **Time.** The picture is read "as of now" (decision 035): a booking the life cycle would
 *   release holds nothing, a bike's state is the one the life cycle would show. Those answers
 *   change only when the clock passes one of the instants the conditions compare it with
 *   (a start, an end, ten minutes before a start, a no-show instant, a payment hold's end, a
 *   maintenance's bounds): the picture keeps the first of them, among its sede's rows, after
 *   its reading and is read again from it on.
 * - **Windows.** It covers the bookings that can overlap a window starting from `coverFrom`
 *   (the reading's now less the start grace: no earlier window passes `checkWindow`).
 *
 * The picture is read again, besides, when the rules' minutes change and when it is a minute
 * old (the change rows are pruned after ten minutes: `pruneAvailabilityChanges`).
 */
export interface FleetPicture {
  /** The sede whose bikes it holds. */
  sedeId: number;
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
  /** The sede's bikes that can be offered, in the list's order, each with its JSON (`BikeDto`). */
  bikes: { id: number; json: string }[];
  /** Half-open [start, end) intervals in ms, per bike, that exclude it: planned maintenance, active bookings not void, offers. */
  busy: Map<number, number[]>;
  /** Bikes picked up and overdue: held until returned, whatever the window. */
  overdue: Set<number>;
  /** The compressed bytes of the answers given from this picture, by their free bikes: each compressed once. */
  answers: Map<string, SharedJson['compressed']>;
}

/** Answers whose compressed bytes a picture keeps (under 1 KB each; the text is joined again per request, a few µs). */
export const ANSWERS_PER_PICTURE = 2_048;

/** A picture is read again after this much real time, whatever happened (decision 040); an older one is dropped. */
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

/** The statement that reads one sede's picture, as of `at`, covering windows from `cover` (both ISO instants). */
export function fleetPictureStatement(sedeId: number, at: string, minutes: { hold: number; noShow: number }, cover: string) {
  const now = sql`${at}::timestamptz`;
  const sede = sql`${sedeId}::int`;
  const after = (instant: SQL) => sql`case when ${instant} > ${now} then ${instant} end`;
  return sql`
    with a as materialized (
      -- One scan of the sede's active rows and offers: the exclusion index's first column, and
      -- its predicate word for word (written as the arms of an or, the planner ANDed the scan
      -- with the whole active-rows index of every sede). The offers already over are few and
      -- left by the filter; the few past active ones are the overdue rides and the rows the job
      -- has not released yet.
      select p.bici_id, p.inizio, p.fine, p.stato = 'offerta' or not ${voidAsOf(at, minutes)} as holds,
             p.stato = 'attiva' and p.fine <= ${now} and p.ritirata_at is not null as overdue,
             -- The first instant after now at which a condition on this row turns (least skips nulls).
             case when p.stato = 'attiva' then least(
               ${after(sql`p.inizio`)}, ${after(sql`p.fine`)},
               ${after(sql`p.inizio - make_interval(mins => ${PICKUP_EARLY_MINUTES})`)},
               ${after(sql`least(p.inizio + make_interval(mins => ${minutes.noShow}::int), p.fine)`)},
               ${after(sql`p.created_at + make_interval(mins => ${minutes.hold}::int)`)}) end as next
        from prenotazioni p
       where p.sede_id = ${sede} and p.stato in ('attiva', 'offerta')
         and (p.stato = 'attiva' or p.fine > ${cover}::timestamptz)),
    -- The planned maintenance of the sede's bikes that can still matter: a period ended before
    -- the cover (so before now) excludes no window and has no instant ahead.
    m as materialized (
      select m.bici_id, m.inizio, m.fine from manutenzioni m
       where m.fine > ${cover}::timestamptz and m.bici_id in (select s.id from biciclette s where s.sede_id = ${sede}))
    select pg_current_snapshot()::text as snapshot,
           pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
           coalesce((
             select json_agg(json_build_object(
                      'id', b.id, 'numero', b.numero, 'modello', b.modello, 'sedeId', b.sede_id,
                      'stato', ${bikeStateAsOf(at, minutes, sede)},
                      'updatedAt', to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                    order by lpad(b.numero, 20, '0'), b.numero)
               from biciclette b
              where b.sede_id = ${sede}
                and (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))), '[]') as bikes,
           coalesce((
             select json_agg(json_build_array(x.bici_id, ${ms(sql`x.inizio`)}, ${ms(sql`x.fine`)}))
               from (
                 -- Planned maintenance (issue 20): the bike is offered to nobody inside its periods.
                 select m.bici_id, m.inizio, m.fine from m
                 union all
                 -- Active bookings, as of now (decision 035): one the life cycle would release
                 -- holds nothing. And a bike held for the first in a waitlist (issue 21).
                 select a.bici_id, a.inizio, a.fine from a where a.fine > ${cover}::timestamptz and a.holds
               ) x), '[]') as busy,
           -- A ride in ritardo keeps its bike until it is returned (decision 022).
           array(select distinct a.bici_id from a where a.overdue) as overdue,
           ${ms(sql`least(
             (select min(a.next) from a),
             (select min(${after(sql`m.inizio`)}) from m),
             (select min(${after(sql`m.fine`)}) from m))`)} as next_change`;
}

/** Reads one sede's picture under one snapshot (one statement), as of `now`. */
export async function readFleetPicture(
  db: Db,
  sedeId: number,
  now: Date,
  minutes: { hold: number; noShow: number },
  from: number,
): Promise<FleetPicture> {
  const coverFrom = new Date(Math.min(from, now.getTime() - START_GRACE_MINUTES * 60_000));
  const { rows } = await db.execute<PictureRow>(fleetPictureStatement(sedeId, now.toISOString(), minutes, coverFrom.toISOString()));
  const row = rows[0]!;
  const busy = new Map<number, number[]>();
  for (const [bike, start, end] of row.busy) {
    const list = busy.get(bike);
    if (list) list.push(start, end);
    else busy.set(bike, [start, end]);
  }
  return {
    sedeId,
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

/**
 * The picture's sede's bikes free in a window: the JSON text of a `BikeDto[]`, shared by every
 * window with the same free bikes.
 */
export function freeBikes(p: FleetPicture, w: Window): SharedJson {
  const start = w.inizio.getTime();
  const end = w.fine.getTime();
  const free: number[] = [];
  for (let b = 0; b < p.bikes.length; b++) {
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
 * Which of the pictures a transaction not visible in its snapshot changed what it depends on:
 * one query for a batch however many sedi it asks about, an indexed probe (the change rows from
 * each snapshot's xmin on) per distinct snapshot, prepared once per handle. A change row names
 * no sede: any such transaction makes the picture stale, whichever sede it wrote.
 */
export function prepareChangedSince(db: Db) {
  return db
    .select({
      changed: sql<boolean[]>`array(
        select exists (select 1 from ${disponibilitaModifiche} c
                        where c.xid >= s.xmin
                          and not pg_visible_in_snapshot(c.xid::text::xid8, s.snapshot::pg_snapshot))
          from unnest(${sql.placeholder('xmins')}::bigint[], ${sql.placeholder('snapshots')}::text[]) with ordinality s(xmin, snapshot, n)
         order by s.n)`,
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
