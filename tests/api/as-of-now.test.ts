import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLifecycle, bikeStateAsOf, bookingAsOf, P_COLUMNS, voidAsOf } from '../../src/server/modules/bookings/lifecycle.js';
import { ManualClock } from '../../src/server/clock.js';
import { adminBookings, adminSummary } from '../../src/server/modules/admin/lists.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * Reads compute the life cycle as of now (decision 035) with fragments shaped for the hot
 * path: `voidAsOf` (no join to the payments) and `bikeStateAsOf` (two arrays computed once a
 * statement). Over a matrix of bookings around an instant, each must say exactly what the
 * general `bookingAsOf` says, and what `applyLifecycle` then writes at that instant.
 */
const AT = new Date('2026-11-21T09:00:00Z');
const HOLD = 30;
const NO_SHOW = 30;
const minutes = { hold: HOLD, noShow: NO_SHOW };
const at = AT.toISOString();

let database: Awaited<ReturnType<typeof createTestDatabase>>;

interface Case {
  start: number; // minutes from AT
  length: number;
  pickedUp: boolean;
  payment: 'none' | 'pending' | 'completed';
  createdAgo: number;
}

const cases: Case[] = [];
for (const start of [-120, -40, -31, -30, -20, -5, 0, 5, 9, 60])
  for (const length of [20, 90])
    for (const pickedUp of [false, true])
      for (const payment of ['none', 'pending', 'completed'] as const)
        for (const createdAgo of [300, 30, 10]) {
          // A bike is picked up at most 10 minutes early, and only once paid.
          if (pickedUp && (start > 10 || payment === 'pending')) continue;
          cases.push({ start, length, pickedUp, payment, createdAgo });
        }

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const rows = cases.map((c, i) => ({ i: i + 1, ...c }));
  await db.execute(sql`
    insert into biciclette (numero, modello) select 'M' || g, 'City Bike' from generate_series(1, ${rows.length}::int) g`);
  await db.execute(sql`
    insert into users (nome, cognome, email, password_hash, is_residente)
    select 'Caso', 'N' || g, 'as-of-' || g || '@example.it', 'x', false from generate_series(1, ${rows.length}::int) g`);
  await db.execute(sql`
    with b as (select id, row_number() over (order by id) as n from biciclette where numero like 'M%'),
         u as (select id, row_number() over (order by id) as n from users where email like 'as-of-%'),
         c as (select * from json_to_recordset(${JSON.stringify(rows)}::json)
                 as c(i int, start int, length int, "pickedUp" boolean, payment text, "createdAgo" int))
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, ritirata_at, created_at)
    select u.id, b.id, '2026-11-21', '10:00', '11:00',
           ${at}::timestamptz + make_interval(mins => c.start),
           ${at}::timestamptz + make_interval(mins => c.start + c.length), 'attiva',
           case when c."pickedUp" then ${at}::timestamptz + make_interval(mins => c.start - 5) end,
           ${at}::timestamptz - make_interval(mins => c."createdAgo")
      from c join b on b.n = c.i join u on u.n = c.i`);
  await db.execute(sql`
    insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
    select p.id, 'simulated', 'sim_as_of_' || p.id, 250, c.payment,
           case when c.payment = 'completed' then p.created_at end
      from prenotazioni p
      join (select row_number() over (order by id) as n, id from biciclette where numero like 'M%') b on b.id = p.bici_id
      join json_to_recordset(${JSON.stringify(rows)}::json) as c(i int, payment text) on c.i = b.n
     where c.payment <> 'none'`);
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

describe('reads as of now (decision 035)', () => {
  it('voidAsOf says what bookingAsOf says and what the life cycle then writes, row by row', async () => {
    const general = bookingAsOf(P_COLUMNS, at, minutes).void;
    const { rows: before } = await database.db.execute<{ id: number; general: boolean; fast: boolean }>(sql`
      select p.id, ${general} as general, ${voidAsOf(at, minutes)} as fast
        from prenotazioni p left join pagamenti pay on pay.prenotazione_id = p.id order by p.id`);
    expect(before).toHaveLength(cases.length);
    const voided = before.filter((r) => r.general).map((r) => r.id);
    // The matrix covers both answers, and every way of being void.
    expect(voided.length).toBeGreaterThan(20);
    expect(before.length - voided.length).toBeGreaterThan(20);
    expect(before.filter((r) => r.fast !== r.general)).toEqual([]);

    // The admin's counts (read from the statistics' rollup and the active rows alone) say
    // what a plain reading of every row as of now says, before the job writes anything; with
    // concluded bookings too, one of them deleted, so that the rollup's triggers are met.
    await database.db.execute(sql`
      insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, motivo_cancellazione)
      select null, (select min(id) from biciclette), (${at}::timestamptz - make_interval(days => 30 + g))::date, '10:00', '11:00',
             ${at}::timestamptz - make_interval(days => 30 + g), ${at}::timestamptz - make_interval(days => 30 + g) + interval '1 hour',
             case when g % 3 = 0 then 'cancellata' else 'completata' end, case when g % 3 = 0 then 'utente' end
        from generate_series(1, 30) g`);
    await database.db.execute(sql`delete from prenotazioni where id = (select max(id) from prenotazioni where stato = 'completata')`);
    const summary = await adminSummary({ db: database.db, clock: new ManualClock(AT), config: testConfig() });
    const live = bookingAsOf(P_COLUMNS, at, minutes).stato;
    const { rows: plain } = await database.db.execute<{ attiva: number; completata: number; cancellata: number }>(sql`
      select count(*) filter (where s = 'attiva')::int as attiva, count(*) filter (where s = 'completata')::int as completata,
             count(*) filter (where s = 'cancellata')::int as cancellata
        from (select ${live} as s from prenotazioni p left join pagamenti pay on pay.prenotazione_id = p.id) x`);
    expect(summary.bookingsByStato).toEqual(plain[0]);
    expect(summary.prenotazioniAttive).toBe(plain[0]!.attiva);
    const listed = await adminBookings(
      { db: database.db, clock: new ManualClock(AT), config: testConfig() },
      { stato: 'tutti', page: 1, pageSize: 50, q: '' },
    );
    const { rows: all } = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where stato <> 'offerta'`);
    expect(listed.total).toBe(all[0]!.n);
    expect(listed.rows).toHaveLength(50);

    await applyLifecycle(database.db, AT, HOLD, NO_SHOW);
    const { rows: after } = await database.db.execute<{ id: number; reason: string }>(sql`
      select id, motivo_cancellazione as reason from prenotazioni where stato = 'cancellata' and user_id is not null order by id`);
    expect(after.map((r) => r.id)).toEqual(voided);
    expect(new Set(after.map((r) => r.reason))).toEqual(new Set(['pagamento_scaduto', 'mancato_ritiro']));
  });

  it('bikeStateAsOf shows each bike as the life cycle then leaves it', async () => {
    const fresh = await createTestDatabase();
    try {
      // The same matrix, read before the job runs and compared with what it writes.
      const { db } = fresh;
      await db.execute(sql`insert into biciclette (numero, modello) select 'B' || g, 'City Bike' from generate_series(1, 8) g`);
      await db.execute(sql`
        insert into users (nome, cognome, email, password_hash, is_residente)
        select 'Caso', 'N' || g, 'bike-' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, 8) g`);
      const u = (n: number) => sql`(select id from users where email = ${`bike-${n}@example.it`})`;
      const b = (n: number) => sql`(select id from biciclette where numero = ${`B${n}`})`;
      const book = (n: number, start: number, length: number, pickedUp: boolean, createdAgo = 300) => sql`
        insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, ritirata_at, created_at)
        values (${u(n)}, ${b(n)}, '2026-11-21', '10:00', '11:00', ${at}::timestamptz + make_interval(mins => ${start}::int),
                ${at}::timestamptz + make_interval(mins => ${start + length}::int), 'attiva',
                case when ${pickedUp} then ${at}::timestamptz + make_interval(mins => ${start - 5}::int) end,
                ${at}::timestamptz - make_interval(mins => ${createdAgo}::int))`;
      await db.execute(book(1, -10, 60, false)); // waiting to be picked up: held
      await db.execute(book(2, -40, 60, false)); // a no-show: not held
      await db.execute(book(3, -90, 60, true)); // in ritardo: held
      await db.execute(book(4, 5, 60, true)); // picked up early: held
      await db.execute(book(5, -10, 60, false, 40)); // unpaid past its hold: not held
      await db.execute(sql`insert into pagamenti (prenotazione_id, provider, provider_payment_id, status)
                           select id, 'simulated', 'sim_b5', 'pending' from prenotazioni where bici_id = ${b(5)}`);
      await db.execute(sql`insert into manutenzioni (bici_id, inizio, fine, motivo)
                           values (${b(6)}, ${at}::timestamptz - interval '1 hour', ${at}::timestamptz + interval '1 hour', 'Revisione')`);
      await db.execute(sql`update biciclette set stato = 'fuori_servizio' where numero = 'B7'`);
      await db.execute(sql`update biciclette set stato = 'prenotata', stato_auto = true where numero = 'B8'`); // nothing holds it
      const read = async () =>
        (await db.execute<{ numero: string; stato: string }>(sql`
          select b.numero, ${bikeStateAsOf(at, minutes)} as stato from biciclette b order by b.numero`)).rows;
      const asOf = await read();
      expect(asOf).toEqual([
        { numero: 'B1', stato: 'prenotata' },
        { numero: 'B2', stato: 'disponibile' },
        { numero: 'B3', stato: 'prenotata' },
        { numero: 'B4', stato: 'prenotata' },
        { numero: 'B5', stato: 'disponibile' },
        { numero: 'B6', stato: 'manutenzione' },
        { numero: 'B7', stato: 'fuori_servizio' },
        { numero: 'B8', stato: 'disponibile' },
      ]);
      await applyLifecycle(db, AT, HOLD, NO_SHOW);
      const { rows: written } = await db.execute<{ numero: string; stato: string }>(sql`select numero, stato from biciclette order by numero`);
      expect(written).toEqual(asOf);
      // Once written, the read agrees with itself.
      expect(await read()).toEqual(asOf);
    } finally {
      await fresh.drop();
    }
  });
});
