import { is, Placeholder, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { namedStatements } from '../../src/server/db/prepared.js';
import { adminBookings, adminDamages, adminOverdue, adminSummary } from '../../src/server/modules/admin/index.js';
import { everyBookingPageQuery } from '../../src/server/modules/admin/lists.js';
import { listTickets } from '../../src/server/modules/interventi/index.js';
import { adminWaitlist } from '../../src/server/modules/waitlist/index.js';
import { adminBookingsQuerySchema } from '../../src/shared/schemas/admin.js';
import { fleetReading } from '../../src/server/modules/bookings/index.js';
import { ownBookingsQuery } from '../../src/server/modules/bookings/service.js';
import { RULES_CHANNEL, RulesCache } from '../../src/server/modules/rules/store.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { addBike, bookThroughApi, sessionUser } from '../helpers/booking-fixtures.js';
import { collectingLogger } from '../helpers/leak-scan.js';

/**
 * Issue 51 (decision 059): what made the booking fast, held. The test cluster loads
 * pg_stat_statements (tests/helpers/global-setup.ts), so the statements a booking sends, and
 * how often PostgreSQL planned them, are counted by the server itself.
 *
 * A booking used to send eight statements and have PostgreSQL plan four of them anew each time
 * (2–3 ms apiece, more than running them), and the statistics' triggers re-planned an insert of
 * nothing on every booking.
 */
let ctx: TestContext;
const db = () => ctx.database.db;

interface Counted {
  query: string;
  calls: number;
  plans: number;
  /** Sent by the app (false: run by a trigger or a function). */
  toplevel: boolean;
}

async function counted(): Promise<Counted[]> {
  const { rows } = await db().execute<{ query: string; calls: string; plans: string; toplevel: boolean }>(sql`
    select query, calls, plans, toplevel from pg_stat_statements
     where dbid = (select oid from pg_database where datname = current_database())`);
  return rows.map((r) => ({ query: r.query, calls: Number(r.calls), plans: Number(r.plans), toplevel: r.toplevel }));
}

const resetCounts = () =>
  db().execute(sql`select pg_stat_statements_reset(0, (select oid from pg_database where datname = current_database()), 0)`);

/** The statement whose text contains `marker` (exactly one must). */
function one(rows: Counted[], marker: string): Counted {
  const found = rows.filter((r) => r.query.includes(marker));
  expect(found, `statements containing ${marker}`).toHaveLength(1);
  return found[0]!;
}

const BOOKINGS = 24;
/** /admin's reads, rendered one after the other (the last case). */
const RENDERS = 48;
/** The page renders' reads prepared once (decision 071): their generic plans are held like the booking's. */
const READS = [
  'admin_bookings_total',
  'admin_damages',
  'admin_overdue',
  'admin_waitlist',
  'bikes_as_of',
  'own_waits',
  'tickets_aperti',
  'tickets_chiusi',
  'tickets_tutti',
];

let rulesListener: ReturnType<typeof listenForChanges> | undefined;

beforeAll(async () => {
  // As main.ts runs it: sessions and the service's rules kept in memory, told of changes.
  const rulesCache = new RulesCache();
  ctx = await createTestApp({ sessionCache: true, deps: { rulesCache } });
  rulesListener = listenForChanges(ctx.database.url, { [RULES_CHANNEL]: rulesCache }, collectingLogger('warn'));
  await rulesListener.ready;
  await db().execute(sql`create extension if not exists pg_stat_statements`);
});
afterAll(async () => {
  await rulesListener?.stop();
  await ctx.close();
});
beforeEach(async () => {
  await db().execute(sql`truncate prenotazioni, pagamenti, stats_delta cascade`);
});

describe('the booking path (issue 51)', () => {
  it('sends its statements once per booking, and PostgreSQL plans them once per connection, not once per booking', async () => {
    const bikes = await Promise.all(Array.from({ length: BOOKINGS }, () => addBike(db())));
    const people = await Promise.all(Array.from({ length: BOOKINGS }, (_, i) => sessionUser(ctx, { residente: i % 2 === 0 })));
    // A first booking fills the rules' cache, and every session is read once, before the count:
    // a booking is then what a person's next tap costs.
    await bookThroughApi(ctx.app, await sessionUser(ctx, { residente: true }), await addBike(db()));
    for (const p of people) expect((await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie: p.cookie } })).statusCode).toBe(200);
    await resetCounts();
    for (let i = 0; i < BOOKINGS; i++) await bookThroughApi(ctx.app, people[i]!, bikes[i]!);

    const rows = await counted();
    const early = one(rows, 'as sede_id,');
    const lock = one(rows, 'for no key update of b');
    const insert = one(rows, 'insert into prenotazioni (user_id, bici_id');
    for (const s of [early, lock, insert]) {
      expect(s.calls).toBe(BOOKINGS);
      // Five custom plans, then the generic one kept (per connection the pool used): planned
      // anew each time, `plans` would equal `calls`.
      expect(s.plans, s.query.slice(0, 60)).toBeLessThanOrEqual(BOOKINGS / 2);
    }
    // The transaction's id and timeline came back with the insert: no statement of their own.
    expect(rows.filter((r) => r.query.includes('txid_current_if_assigned') && !r.query.includes('insert into'))).toEqual([]);
    // What the app sent, all told: the early read, begin, the lock, the insert, commit.
    const sent = rows.filter((r) => r.toplevel && r.calls > 0 && !r.query.includes('pg_stat_statements'));
    expect(sent.reduce((n, r) => n + r.calls, 0) / BOOKINGS, sent.map((r) => `${r.calls}× ${r.query.slice(0, 50)}`).join('\n')).toBe(5);
  });

  it('the statistics triggers do nothing for a statement that changes no figure, and keep their plans', async () => {
    const { rows } = await db().execute<{ proname: string; proconfig: string[] | null }>(sql`
      select proname, proconfig from pg_proc where proname in ('stats_bookings_delta', 'stats_payments_delta') order by proname`);
    expect(rows).toEqual([
      { proname: 'stats_bookings_delta', proconfig: ['plan_cache_mode=force_generic_plan'] },
      { proname: 'stats_payments_delta', proconfig: ['plan_cache_mode=force_generic_plan'] },
    ]);
    const bike = await addBike(db());
    const external = await sessionUser(ctx, { residente: false });
    await resetCounts();
    // An external's booking inserts a pending payment: no revenue, no hold released.
    await bookThroughApi(ctx.app, external, bike);
    const counts = await counted();
    expect(counts.filter((r) => r.query.includes('revenue_cents') && r.query.startsWith('INSERT INTO stats_delta'))).toEqual([]);
    // The booking's own figures (a ride, its seconds) are still counted, once.
    expect(one(counts, 'INSERT INTO stats_delta (day, kind, key, rides').calls).toBe(1);
    const delta = await db().execute<{ rides: string }>(sql`select coalesce(sum(rides), 0) as rides from stats_delta where kind = 'day'`);
    expect(Number(delta.rows[0]!.rides)).toBe(1);
  });

  it("keeps index plans for the booking's statements as a bike's history grows (the generic plan PostgreSQL keeps)", async () => {
    const bike = await addBike(db());
    // Years of a busy college: 30,000 past rides of 1,500 people over 60 bikes, and the live bookings of the
    // horizon (1,500, half of them externals' with a pending payment), so that the planner
    // weighs what a real install has: a long history, few live rows per bike.
    const fleet = await db().execute<{ id: number }>(sql`
      insert into biciclette (numero, modello) select 'H' || g, 'City Bike' from generate_series(1, 60) g returning id`);
    const first = fleet.rows[0]!.id;
    const people = await db().execute<{ id: number }>(sql`
      insert into users (nome, cognome, email, password_hash, is_residente)
      select 'Storia', 'S' || g, 'storia' || g || '@example.it', 'x', g % 2 = 0 from generate_series(1, 1500) g returning id`);
    const firstPerson = people.rows[0]!.id;
    await db().execute(sql`
      insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, ritirata_at, riconsegnata_at)
      select ${firstPerson} + g % 1500, ${first} + g % 60, (d + interval '9 hours')::date, '10:00', '11:00', d + interval '9 hours', d + interval '10 hours',
             'completata', d + interval '9 hours', d + interval '10 hours'
        from generate_series(1, 30000) g, lateral (select timestamptz '2020-01-01' + (g / 60) * interval '1 day' as d) x`);
    await db().execute(sql`
      with live as (
        insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
        select ${firstPerson} + g, ${first} + g % 60, (d + interval '9 hours')::date, '10:00', '11:00', d + interval '9 hours', d + interval '10 hours', 'attiva'
          from generate_series(0, 1499) g, lateral (select timestamptz '2026-11-23' + (g / 60) * interval '1 day' as d) x
        returning id, user_id)
      insert into pagamenti (prenotazione_id, provider, amount, status)
      select live.id, 'simulated', 250, 'pending' from live join users u on u.id = live.user_id where not u.is_residente`);
    // The paid rides of the history: the pending payments are a few among many (their partial index).
    await db().execute(sql`
      insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at)
      select id, 'simulated', 'sim_' || id, 250, 'completed', fine from prenotazioni where stato = 'completata' and id % 2 = 0`);
    expect(bike).toBeGreaterThan(0);
    await db().execute(sql`analyze prenotazioni`);
    await db().execute(sql`analyze pagamenti`);
    const statements = namedStatements().filter((s) => s.name.startsWith('booking_') || READS.includes(s.name));
    expect(statements.map((s) => s.name).sort()).toEqual([...READS, 'booking_bike_lock', 'booking_early', 'booking_fair_use', 'booking_insert', 'booking_user_lock'].sort());
    // With the drizzle-prepared read of a person's bookings (decision 071).
    const own = { name: 'own_bookings', text: () => ownBookingsQuery(db(), { hold: 30, noShow: 15 }).toSQL().sql };
    // And /admin's first page of every booking (its minutes in the text).
    const page = { name: 'admin_bookings', text: () => everyBookingPageQuery(db(), { hold: 30, noShow: 15 }).toSQL().sql };
    for (const s of [...statements, own, page]) {
      const { rows } = await db().execute<{ 'QUERY PLAN': string }>(sql.raw(`explain (generic_plan, costs off) ${s.text()}`));
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan, s.name).not.toMatch(/Seq Scan on (prenotazioni|pagamenti)/);
      // A hashed subplan over the few open offers is fine for a read; the booking's own statements have none.
      if (s.name.startsWith('booking_')) expect(plan, s.name).not.toMatch(/hashed SubPlan/);
    }
    // A person's bookings and the first page of every booking are run by their generic plans. With
    // the page's limit as a value, its generic plan cost more than a custom one on this history and
    // PostgreSQL planned every run anew (1.3 ms of the /admin render); with the rules' minutes as
    // values, so did a person's bookings on the guard's data (1.1 ms of the /dashboard render),
    // whose generic plan priced a `make_interval` call per row: both have the minutes in the text.
    const minutes = { hold: 30, noShow: 15 };
    for (const text of [ownBookingsQuery(db(), minutes).toSQL().sql, everyBookingPageQuery(db(), minutes).toSQL().sql]) {
      expect(text).toContain('make_interval(mins => 15::int)');
      expect(text).not.toMatch(/make_interval\(mins => \$\d+/);
    }
    const client = await ctx.database.pool.connect();
    try {
      for (const [name, query] of [['own_probe', ownBookingsQuery(db(), minutes).toSQL()], ['page_probe', everyBookingPageQuery(db(), minutes).toSQL()]] as const) {
        // A person with 20 past rides and one live booking, as the history spreads them.
        const bound: Record<string, unknown> = { at: ctx.clock.now().toISOString(), userId: firstPerson + 1, ...minutes };
        const values = query.params.map((p) => (is(p, Placeholder) ? bound[p.name] : p));
        for (let i = 0; i < 8; i++) expect((await client.query({ name, text: query.sql, values })).rowCount, name).toBeGreaterThan(0);
        const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
          'select generic_plans, custom_plans from pg_prepared_statements where name = $1',
          [name],
        );
        expect(rows.map((r) => [Number(r.custom_plans), Number(r.generic_plans)]), name).toEqual([[5, 3]]);
        await client.query(`deallocate ${name}`);
      }
    } finally {
      client.release();
    }
  });
});

describe("the dashboard's reads (issue 51, the page renders)", () => {
  it("are planned once per connection, not at every request: a person's bookings and waits, the fleet, /admin's overdue rides and damages", async () => {
    const person = await sessionUser(ctx, { residente: true });
    const bike = await addBike(db());
    await bookThroughApi(ctx.app, person, bike);
    const reads = ['/api/prenotazioni/user', '/api/biciclette', '/api/attese'];
    const open = async () => {
      for (const url of reads) expect((await ctx.app.inject({ method: 'GET', url, headers: { cookie: person.cookie } })).statusCode, url).toBe(200);
    };
    await open();
    await resetCounts();
    for (let i = 0; i < BOOKINGS; i++) await open();
    const rows = await counted();
    const own = one(rows, 'where ("prenotazioni"."user_id" = $');
    const fleet = one(rows, 'order by lpad(b.numero');
    const waits = one(rows, "order by (a.stato = 'offerta') desc, a.inizio, a.id");
    // And /admin's overdue rides and damage reports, for every sede and for one.
    const deps = { db: db(), clock: ctx.clock, config: ctx.config };
    await resetCounts();
    for (let i = 0; i < BOOKINGS; i++) await Promise.all([adminOverdue(deps, i % 2 ? undefined : 1), adminDamages(deps, i % 2 ? 1 : undefined)]);
    const admin = await counted();
    const overdue = one(admin, 'order by p.fine, p.id');
    const damages = one(admin, 'from interventi d');
    for (const s of [own, fleet, waits, overdue, damages]) {
      // One text for every request (the instant and the rules' minutes are bound values)…
      expect(s.calls, s.query.slice(0, 60)).toBe(BOOKINGS);
      // …planned a few times per connection at most: planned anew each time, `plans` would equal `calls`.
      expect(s.plans, s.query.slice(0, 60)).toBeLessThanOrEqual(BOOKINGS / 2);
    }
  });

  it("/admin's render reads are planned once per connection too: the summary, the first page of bookings and its total, today's lines, the open tickets", async () => {
    const person = await sessionUser(ctx, { residente: true });
    const bike = await addBike(db());
    const booking = await bookThroughApi(ctx.app, person, bike);
    const deps = { db: db(), clock: ctx.clock, config: ctx.config };
    const firstPage = adminBookingsQuerySchema.parse({ stato: 'tutti', page: '1', pageSize: '50' });
    // One after the other, so that the pool lends the same connection each time (its idle
    // connections are a stack): five custom plans there, then the generic one kept. A statement
    // PostgreSQL will not keep a plan for is planned at every call, on any connection.
    const render = async (i: number) => {
      await adminSummary(deps);
      const page = await adminBookings(deps, firstPage);
      await adminWaitlist(deps, i % 2 ? undefined : 1);
      await listTickets(db(), i % 2 ? null : [1], { stato: 'aperti' });
      // The prepared page is the list's: the booking made above, with its person.
      expect(page.rows.map((r) => [r.id, r.stato, r.userEmail])).toEqual([[booking, 'attiva', expect.stringMatching(/@test\.it$/)]]);
    };
    await render(0);
    await resetCounts();
    for (let i = 0; i < RENDERS; i++) await render(i);
    const rows = await counted();
    const statements = [
      one(rows, '"danniAperti"'),
      one(rows, 'order by "prenotazioni"."data_prenotazione" desc'),
      one(rows, '::int as n from'),
      one(rows, 'group by a.data_prenotazione'),
      one(rows, 'from interventi i'),
    ];
    for (const s of statements) {
      // One text for every render, every sede or one (the instant and the sedi are bound values; the page's minutes change only with the rules)…
      expect(s.calls, s.query.slice(0, 60)).toBe(RENDERS);
      // …planned a few times per connection at most (11 of 48 here, on the two connections the
      // bookings page and its total take): planned anew each time, `plans` would equal `calls`.
      expect(s.plans, s.query.slice(0, 60)).toBeLessThanOrEqual(RENDERS / 3);
    }
  });

  it("/bici/{numero}'s read of the person's booking of the bike is planned once per connection", async () => {
    const person = await sessionUser(ctx, { residente: true });
    const bike = await addBike(db());
    await bookThroughApi(ctx.app, person, bike);
    const { rows: bikes } = await db().execute<{ numero: string }>(sql`select numero from biciclette where id = ${bike}`);
    const deps = { db: db(), clock: ctx.clock, config: ctx.config };
    const open = async () => {
      const page = await fleetReading.bikePage(deps, person.id, bikes[0]!.numero);
      // Booked for tomorrow: the bike is free now, and the booking not yet the person's to act on.
      expect([page.biciId, page.stato, page.prenotazioneCorrente]).toEqual([bike, 'libera', null]);
    };
    await open();
    await resetCounts();
    for (let i = 0; i < RENDERS; i++) await open();
    const rows = await counted();
    // The fleet now (`pg_current_snapshot()`, fleet-now.ts) is still planned at every read: prepared,
    // PostgreSQL kept no generic plan for it, even with the minutes in its text (decision 072).
    for (const s of [one(rows, '"prenotazioni"."bici_id" = $')]) {
      expect(s.calls, s.query.slice(0, 60)).toBe(RENDERS);
      expect(s.plans, s.query.slice(0, 60)).toBeLessThanOrEqual(RENDERS / 3);
    }
  });
});
