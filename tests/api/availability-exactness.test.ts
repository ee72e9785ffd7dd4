import { sql } from 'drizzle-orm';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bikeStateAsOf, bookingAsOf, P_COLUMNS } from '../../src/server/modules/bookings/lifecycle.js';
import { freeBikes, pruneAvailabilityChanges, readFleetPicture } from '../../src/server/modules/bookings/availability.js';
import { addDays, zonedInstant, zonedToday } from '../../src/shared/time.js';
import { seededRandom } from '../../src/server/lib/seeded-random.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { createLoggedInUser } from '../helpers/factories.js';

/**
 * The fast availability path (decision 040: the fleet's picture kept in the process, checked
 * against PostgreSQL's snapshot with each batch) against a plain SQL reading of the same rules,
 * for 1,000 random windows: admin states and the life cycle's own marks, planned maintenance,
 * waitlist offers, bookings picked up, overdue, paid, unpaid (their hold running out) and not
 * picked up (their no-show instant passing). Between windows the clock moves across those
 * instants and another connection writes (bookings made and cancelled, maintenance planned, a
 * bike taken out of service and back), so the picture must notice both time and writes.
 */
const TZ = 'Europe/Rome';
const HOLD = 30;
const NO_SHOW = 30;
const BIKES = 24;
const WINDOWS = 1_000;

let ctx: TestContext;
let cookie: string;
let other: pg.Client;

const SEED = Number(process.env.EXACTNESS_SEED ?? 20261127);
const random = seededRandom(SEED);
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)]!;

const minute = 60_000;
/** The plain reading: every rule written out for one window at one sede, bookings joined to their payment. */
async function plainAnswer(start: Date, end: Date, now: Date, sedeId: number) {
  const at = now.toISOString();
  const minutes = { hold: HOLD, noShow: NO_SHOW };
  const window = sql`tstzrange(${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz, '[)')`;
  const { rows } = await ctx.database.db.execute<{ id: number; numero: string; modello: string; sedeId: number; stato: string; updatedAt: string }>(sql`
    select b.id, b.numero, b.modello, b.sede_id as "sedeId", ${bikeStateAsOf(at, minutes)} as stato,
           to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"
      from biciclette b
     where b.sede_id = ${sedeId}
       and (b.stato in ('disponibile', 'prenotata') or (b.stato = 'manutenzione' and b.stato_auto))
       and not exists (select 1 from manutenzioni m where m.bici_id = b.id and tstzrange(m.inizio, m.fine, '[)') && ${window})
       and not exists (select 1 from prenotazioni p left join pagamenti pay on pay.prenotazione_id = p.id
                        where p.bici_id = b.id
                          and ((p.stato = 'attiva' and tstzrange(p.inizio, p.fine, '[)') && ${window}
                                and not ${bookingAsOf(P_COLUMNS, at, minutes).void})
                               or (p.stato = 'offerta' and tstzrange(p.inizio, p.fine, '[)') && ${window})
                               or (p.stato = 'attiva' and p.fine <= ${at}::timestamptz and p.ritirata_at is not null)))
     order by lpad(b.numero, 20, '0'), b.numero`);
  return rows;
}

/** The fast answer for the sede asked for; without one, the caller's home sede (the first). */
async function fastAnswer(dataPrenotazione: string, orarioInizio: string, orarioFine: string, sedeId?: number) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/biciclette/available',
    headers: { cookie },
    payload: { dataPrenotazione, orarioInizio, orarioFine, ...(sedeId === undefined ? {} : { sedeId }) },
  });
}

/** The first sede (every person's home here, with the BIKES numbered ones) and a second one, with four bikes N1–N4 (issue 47). */
let sedi: { first: number; second: number };

/** A bike the writers change: one of the first sede's last ones, or one of Nord's. */
const someBike = () => (random() < 0.3 ? `N${int(1, 4)}` : String(int(15, BIKES)));

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  ({ cookie } = await createLoggedInUser(ctx.app, db, { email: 'asks@example.it', isResidente: true }));
  other = new pg.Client({ connectionString: ctx.database.url });
  await other.connect();
  const now = TEST_NOW.getTime();
  await db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City Bike' from generate_series(1, ${BIKES}::int) g`);
  const first = (await db.execute<{ id: number }>(sql`select min(id) as id from sedi`)).rows[0]!.id;
  const second = (await db.execute<{ id: number }>(sql`insert into sedi (nome) values ('Residenza Nord') returning id`)).rows[0]!.id;
  sedi = { first, second };
  // Nord's bikes come after the first sede's: the seeded bookings run out of people before them, the writers below touch them.
  await db.execute(sql`insert into biciclette (numero, modello, sede_id) select 'N' || g, 'City Bike', ${second}::int from generate_series(1, 4) g`);
  // Admin states, and the life cycle's own marks (stato_auto).
  await db.execute(sql`update biciclette set stato = 'manutenzione' where numero = '3'`);
  await db.execute(sql`update biciclette set stato = 'fuori_servizio' where numero = '4'`);
  await db.execute(sql`update biciclette set stato = 'prenotata', stato_auto = false where numero = '5'`);
  await db.execute(sql`update biciclette set stato = 'manutenzione', stato_auto = true where numero = '6'`);
  await db.execute(sql`update biciclette set stato = 'prenotata', stato_auto = true where numero = '7'`);
  await db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Persona', 'N' || g, 'exact-' || g || '@example.it', 'x', g % 3 <> 0 from generate_series(1, 600) g`);
  const people = (await db.execute<{ id: number; is_residente: boolean }>(sql`select id, is_residente from users where email like 'exact-%' order by id`)).rows;

  // Per bike, bookings one after another from three hours ago to four days ahead.
  const bikes = (await db.execute<{ id: number }>(sql`select id from biciclette order by id`)).rows.map((r) => r.id);
  const bookings: unknown[] = [];
  let person = 0;
  for (const bike of bikes) {
    let cursor = now - 3 * 60 * minute + int(0, 12) * 5 * minute;
    while (cursor < now + 4 * 24 * 60 * minute && person < people.length - 20) {
      const start = cursor;
      const end = start + int(3, 36) * 5 * minute;
      cursor = end + int(0, 24) * 5 * minute;
      const who = people[person++]!;
      const kind = random();
      const state = kind < 0.12 ? 'cancellata' : kind < 0.2 ? 'completata' : 'attiva';
      const pickedUp = state !== 'cancellata' && start - 10 * minute <= now && random() < 0.6;
      const paying = !who.is_residente;
      const createdAgo = pick([0, 5, 20, 29, 31, 45, 240]);
      bookings.push({
        user: who.id,
        bike,
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        state,
        pickedUp: pickedUp ? new Date(Math.min(start, now) - 2 * minute).toISOString() : null,
        returned: state === 'completata' && pickedUp ? new Date(Math.min(end, now)).toISOString() : null,
        created: new Date(Math.min(start, now) - createdAgo * minute).toISOString(),
        payment: paying ? (pickedUp || state === 'completata' ? 'completed' : pick(['pending', 'pending', 'completed', 'failed'])) : null,
      });
    }
  }
  await db.execute(sql`
    with c as (select * from json_to_recordset(${JSON.stringify(bookings)}::json)
                 as c("user" int, bike int, start timestamptz, "end" timestamptz, state text, "pickedUp" timestamptz,
                      returned timestamptz, created timestamptz, payment text)),
         made as (
           insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato,
                                     motivo_cancellazione, ritirata_at, riconsegnata_at, created_at)
           select c."user", c.bike, (c.start at time zone ${TZ})::date, to_char(c.start at time zone ${TZ}, 'HH24:MI'),
                  to_char(c."end" at time zone ${TZ}, 'HH24:MI'), c.start, c."end", c.state,
                  case when c.state = 'cancellata' then 'utente' end,
                  case when c.returned is not null or c.state = 'attiva' then c."pickedUp" end, c.returned, c.created
             from c
            -- One active booking per person (invariant 2): later ones of the same person are completed.
           returning id, user_id)
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, status, completed_at)
    select made.id, 'simulated', 'sim_exact_' || made.id, c.payment, case when c.payment = 'completed' then c.created end
      from made join c on c."user" = made.user_id
     where c.payment is not null`);
  // Waitlist offers (issue 21): a bike held for the first in line, after their bookings.
  for (const [numero, fromNow] of [['8', 4 * 24 * 60 + 300], ['9', 4 * 24 * 60 + 420], ['10', 4 * 24 * 60 + 600]] as const) {
    const who = people[people.length - 1 - Number(numero)]!;
    const start = new Date(now + fromNow * minute).toISOString();
    const end = new Date(now + (fromNow + 90) * minute).toISOString();
    await db.execute(sql`
      with w as (insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
                 values (${who.id}, (${start}::timestamptz at time zone ${TZ})::date, '10:00', '11:30', ${start}, ${end}, 'offerta') returning id)
      insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, attesa_id, offerta_scade_at)
      select ${who.id}, b.id, (${start}::timestamptz at time zone ${TZ})::date, '10:00', '11:30', ${start}, ${end}, 'offerta', w.id,
             ${end}::timestamptz
        from w, biciclette b where b.numero = ${numero}`);
  }
  // Planned maintenance: one under way, some ahead (issue 20).
  await db.execute(sql`
    insert into manutenzioni (bici_id, inizio, fine, motivo)
    select b.id, ${TEST_NOW.toISOString()}::timestamptz + make_interval(mins => x.da), ${TEST_NOW.toISOString()}::timestamptz + make_interval(mins => x.a), 'Revisione'
      from (values ('11', -60, 120), ('12', 600, 1500), ('13', 2000, 2100), ('14', 45, 50)) as x(numero, da, a)
      join biciclette b on b.numero = x.numero`);
}, 120_000);

afterAll(async () => {
  await other?.end();
  await ctx?.close();
});

describe('availability: the fleet picture against a plain reading (decision 040)', () => {
  it(`answers 1,000 random windows exactly as the plain SQL reading, while the clock moves and others write (seed ${SEED})`, async () => {
    let compared = 0;
    let nonEmpty = 0;
    let partial = 0;
    let firstSede = 0;
    let writes = 0;
    let moves = 0;
    for (let i = 0; i < WINDOWS; i++) {
      if (i % 25 === 24) {
        // The clock moves across the instants the life cycle compares it with.
        ctx.clock.advance(pick([1, 4, 5, 9, 10, 11, 29, 30, 31, 61]) * minute);
        moves++;
      }
      if (i % 40 === 39) {
        const what = int(0, 3);
        if (what === 0) await other.query(`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente' where id = (select id from prenotazioni where stato = 'attiva' and ritirata_at is null order by random() limit 1)`);
        else if (what === 1) await other.query(`update biciclette set stato = case stato when 'disponibile' then 'fuori_servizio' else 'disponibile' end where numero = $1 and stato in ('disponibile', 'fuori_servizio')`, [someBike()]);
        else if (what === 2) await other.query(`insert into manutenzioni (bici_id, inizio, fine, motivo) select id, $2::timestamptz, $2::timestamptz + interval '3 hours', 'Freni' from biciclette where numero = $1`, [someBike(), new Date(ctx.clock.now().getTime() + int(0, 48) * 60 * minute).toISOString()]);
        else await other.query(`update pagamenti set status = 'completed', completed_at = now() where id = (select id from pagamenti where status = 'pending' order by random() limit 1)`);
        writes++;
      }
      const now = ctx.clock.now();
      // A local day from today to five days ahead, 15 minutes to 4 hours from 00:00 to 23:55,
      // not starting before now.
      let start: number;
      let end: number;
      let day: string;
      let from: string;
      let to: string;
      do {
        // eslint-disable-next-line test-days/no-day-offset -- the clock stands still at TEST_NOW, in a database of this test's own
        day = addDays(zonedToday(now, TZ), int(0, 5));
        const length = int(3, 48) * 5;
        const at = int(0, (24 * 60 - 5 - length) / 5) * 5;
        from = hhmm(at);
        to = hhmm(at + length);
        start = zonedInstant(day, from, TZ)!.getTime();
        end = zonedInstant(day, to, TZ)!.getTime();
      } while (start < now.getTime());
      // The home sede by default, or a sede named (issue 47): each answers only its own bikes.
      const asked = pick([undefined, sedi.first, sedi.second]);
      const res = await fastAnswer(day, from, to, asked);
      expect(res.statusCode, res.body).toBe(200);
      const plain = await plainAnswer(new Date(start), new Date(end), now, asked ?? sedi.first);
      expect(res.json(), `window ${new Date(start).toISOString()}–${new Date(end).toISOString()} at ${now.toISOString()}`).toEqual(plain);
      compared++;
      if (plain.length > 0) nonEmpty++;
      if (asked !== sedi.second) {
        firstSede++;
        if (plain.length < BIKES - 2) partial++;
      }
    }
    expect(compared).toBe(WINDOWS);
    // The windows meant something: most leave some bikes out, and few are answered with none.
    expect(partial).toBeGreaterThan(firstSede * 0.5);
    expect(firstSede).toBeGreaterThan(WINDOWS * 0.5);
    expect(nonEmpty).toBeGreaterThan(WINDOWS * 0.9);
    expect(writes).toBeGreaterThan(20);
    expect(moves).toBeGreaterThan(30);
  }, 300_000);

  it('an answer leaves compressed as the app compresses (brotli, else gzip, Vary), and decodes to the same text', async () => {
    // Past the seeded bookings: most bikes free, an answer over the 1 KB threshold.
    // eslint-disable-next-line test-days/no-day-offset -- the clock stands still at TEST_NOW, in a database of this test's own
    const day = addDays(zonedToday(ctx.clock.now(), TZ), 5);
    const payload = { dataPrenotazione: day, orarioInizio: '20:00', orarioFine: '21:00' };
    const ask = (encoding?: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/biciclette/available', headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) }, payload });
    const plain = await ask();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [accept, expected, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['br;q=0, *', 'gzip', zlib.gunzipSync],
    ] as const) {
      const [first, second] = [await ask(accept), await ask(accept)];
      for (const res of [first, second]) {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(expected);
        expect(res.headers.vary).toContain('accept-encoding');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(decode(res.rawPayload).toString()).toBe(plain.body);
      }
    }
    expect((await ask('identity')).headers['content-encoding']).toBeUndefined();
  });

  it('two windows with the same free bikes share one compressed answer; a new picture starts afresh', async () => {
    const now = ctx.clock.now();
    const minutes = { hold: HOLD, noShow: NO_SHOW };
    const picture = await readFleetPicture(ctx.database.db, sedi.first, now, minutes, now.getTime());
    // eslint-disable-next-line test-days/no-day-offset -- the clock stands still at TEST_NOW, in a database of this test's own
    const day = addDays(zonedToday(now, TZ), 5);
    const window = (from: string, to: string) => ({ inizio: zonedInstant(day, from, TZ)!, fine: zonedInstant(day, to, TZ)! });
    const a = freeBikes(picture, window('20:00', '21:00'));
    const b = freeBikes(picture, window('21:00', '22:00'));
    expect(b.json).toBe(a.json);
    expect(b.compressed).toBe(a.compressed);
    // Another sede's bikes are another picture's, another answer (decision 064).
    const second = await readFleetPicture(ctx.database.db, sedi.second, now, minutes, now.getTime());
    expect(freeBikes(second, window('20:00', '21:00')).compressed).not.toBe(a.compressed);
    const again = await readFleetPicture(ctx.database.db, sedi.first, now, minutes, now.getTime());
    expect(freeBikes(again, window('20:00', '21:00')).compressed).not.toBe(a.compressed);
  });

  it('the picture keeps the first instant at which an answer turns, and is read again from it', async () => {
    const now = ctx.clock.now();
    const picture = await readFleetPicture(ctx.database.db, sedi.first, now, { hold: HOLD, noShow: NO_SHOW }, now.getTime());
    expect(picture.validUntil).toBeGreaterThan(now.getTime());
    // Nothing an answer depends on changes strictly between the reading and that instant.
    const just = new Date(picture.validUntil - 1);
    const at = new Date(picture.validUntil + 1);
    const window = { start: new Date(now.getTime() + 5 * minute), end: new Date(now.getTime() + 3 * 24 * 60 * minute) };
    const before = await plainAnswer(window.start, window.end, now, sedi.first);
    expect(await plainAnswer(window.start, window.end, just, sedi.first)).toEqual(before);
    // And the instant is one the conditions compare with: a booking's or a maintenance's bound.
    const { rows } = await ctx.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from (
        select unnest(array[p.inizio, p.fine, p.inizio - interval '10 minutes', least(p.inizio + interval '30 minutes', p.fine), p.created_at + interval '30 minutes']) as t
          from prenotazioni p where p.stato = 'attiva'
        union all select unnest(array[m.inizio, m.fine]) from manutenzioni m) x
       where abs(extract(epoch from x.t) * 1000 - ${picture.validUntil}) < 1`);
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(at.getTime()).toBeGreaterThan(picture.validUntil);
  });

  it('every writer of the tables the picture depends on leaves its transaction id, once per transaction', async () => {
    const count = async () => (await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from disponibilita_modifiche`)).rows[0]!.n;
    for (const statement of [
      `update biciclette set modello = modello where numero = '1'`,
      `update prenotazioni set destinazione = 'Piazza' where id = (select min(id) from prenotazioni)`,
      `update pagamenti set amount = amount where id = (select min(id) from pagamenti)`,
      `update manutenzioni set motivo = motivo where id = (select min(id) from manutenzioni)`,
    ]) {
      const before = await count();
      await other.query('begin');
      await other.query(statement);
      await other.query(statement);
      await other.query('commit');
      expect(await count(), statement).toBe(before + 1);
    }
    // A writer rolled back leaves nothing.
    const before = await count();
    await other.query('begin');
    await other.query(`update biciclette set modello = modello where numero = '1'`);
    await other.query('rollback');
    expect(await count()).toBe(before);
  });

  it('the life-cycle job prunes the change rows after ten minutes, and keeps the recent ones', async () => {
    await ctx.database.db.execute(sql`insert into disponibilita_modifiche (xid, created_at) values (1, now() - interval '11 minutes'), (2, now() - interval '9 minutes')`);
    expect(await pruneAvailabilityChanges(ctx.database.db)).toBeGreaterThanOrEqual(1);
    const { rows } = await ctx.database.db.execute<{ xid: string }>(sql`select xid::text from disponibilita_modifiche where xid in (1, 2)`);
    expect(rows.map((r) => r.xid)).toEqual(['2']);
  });
});
