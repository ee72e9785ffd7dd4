import { count, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { biciclette, pagamenti, prenotazioni, users } from '../../src/server/schema.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { lifecycleDue } from '../../src/server/modules/bookings/lifecycle.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';

let ctx: TestContext;
let seq = 0;

interface TestUser {
  id: number;
  cookie: string;
}

async function user(opts: { residente?: boolean } = {}): Promise<TestUser> {
  seq += 1;
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      nome: `Nome${seq}`,
      cognome: `Cognome${seq}`,
      email: `utente${seq}@test.it`,
      passwordHash: 'not-used-here',
      isResidente: opts.residente ?? true,
    })
    .returning({ id: users.id });
  const { token } = await createSession(ctx.database.db, row!.id, 'session', ctx.clock.now());
  return { id: row!.id, cookie: `bicielis_session=${token}` };
}

async function bike(numero: string, modello = 'City Bike', stato: 'disponibile' | 'manutenzione' | 'fuori_servizio' = 'disponibile') {
  const [row] = await ctx.database.db.insert(biciclette).values({ numero, modello, stato }).returning({ id: biciclette.id });
  return row!.id;
}

const book = (u: TestUser, body: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/api/prenotazioni', headers: { cookie: u.cookie }, payload: body });

const available = (u: TestUser, body: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/api/biciclette/available', headers: { cookie: u.cookie }, payload: body });

const bookingCount = async () => (await ctx.database.db.select({ n: count() }).from(prenotazioni))[0]!.n;

// TEST_NOW is 2026-11-21 09:00 UTC = 10:00 in Rome.
const TOMORROW = '2026-11-22';

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  await ctx.database.db.execute(sql`truncate prenotazioni, pagamenti, sessions, users, biciclette restart identity cascade`);
});

describe('authorisation', () => {
  it('every booking route needs a login', async () => {
    for (const [method, url] of [
      ['GET', '/api/biciclette'],
      ['POST', '/api/biciclette/available'],
      ['GET', '/api/prenotazioni/user'],
      ['POST', '/api/prenotazioni'],
      ['DELETE', '/api/prenotazioni/1'],
    ] as const) {
      const res = await ctx.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Non autenticato' });
    }
  });
});

describe('bikes and availability', () => {
  it('lists all bikes, numbers in numeric order', async () => {
    const u = await user();
    await bike('10');
    await bike('2', 'Mountain Bike', 'manutenzione');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/biciclette', headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((b: { numero: string }) => b.numero)).toEqual(['2', '10']);
    expect(res.json()[0]).toMatchObject({ modello: 'Mountain Bike', stato: 'manutenzione' });
    expect(res.json()[0].updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('offers bikes not in maintenance and not booked in an overlapping window', async () => {
    const a = await user();
    const b = await user();
    const free = await bike('1');
    const taken = await bike('2');
    await bike('3', 'City', 'manutenzione');
    await bike('4', 'City', 'fuori_servizio');
    expect((await book(a, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: taken })).statusCode).toBe(201);
    const overlapping = await available(b, { dataPrenotazione: TOMORROW, orarioInizio: '11:00', orarioFine: '13:00' });
    expect(overlapping.statusCode).toBe(200);
    expect(overlapping.json().map((x: { id: number }) => x.id)).toEqual([free]);
    // [start, end): a window starting when the booking ends is free.
    const adjacent = await available(b, { dataPrenotazione: TOMORROW, orarioInizio: '12:00', orarioFine: '14:00' });
    expect(adjacent.json().map((x: { id: number }) => x.id)).toEqual([free, taken]);
    // Same shape, to the letter, as the bike list.
    const all = await ctx.app.inject({ method: 'GET', url: '/api/biciclette', headers: { cookie: b.cookie } });
    expect(adjacent.json()).toEqual(all.json().filter((x: { id: number }) => x.id === free || x.id === taken));
    expect(adjacent.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('a booking made here or by another process shows at once', async () => {
    const [a, b] = [await user(), await user()];
    const id1 = await bike('1');
    const id2 = await bike('2');
    const window = { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00' };
    const ids = async () => (await available(a, window)).json().map((x: { id: number }) => x.id);
    expect(await ids()).toEqual([id1, id2]);
    expect((await book(b, { ...window, biciId: id1 })).statusCode).toBe(201);
    expect(await ids()).toEqual([id2]);
    // Another app process writes straight to the database: there is no answer cache, so the
    // next answer has it (tests/api/availability-coherence.test.ts: across app instances).
    const [u] = await ctx.database.db.insert(users).values({ nome: 'X', cognome: 'Y', email: 'altro@test.it', passwordHash: 'x' }).returning();
    await ctx.database.db.insert(prenotazioni).values({
      userId: u!.id, biciId: id2, dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00',
      inizio: new Date('2026-11-22T09:00:00Z'), fine: new Date('2026-11-22T10:00:00Z'),
    });
    expect(await ids()).toEqual([]);
  });

  it('concurrent requests, answered by shared queries, each get their own window’s answer', async () => {
    const [a, b] = [await user(), await user()];
    const ids = [await bike('1'), await bike('2'), await bike('3')];
    // Bike 1 taken 10–12, bike 2 taken 11–13 tomorrow.
    expect((await book(a, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: ids[0] })).statusCode).toBe(201);
    expect((await book(b, { dataPrenotazione: TOMORROW, orarioInizio: '11:00', orarioFine: '13:00', biciId: ids[1] })).statusCode).toBe(201);
    const c = await user();
    const windows = Array.from({ length: 40 }, (_, i) => {
      const start = 8 + (i % 8); // 08:00 … 15:00, some windows asked several times
      const pad = (h: number) => `${String(h).padStart(2, '0')}:00`;
      return { dataPrenotazione: TOMORROW, orarioInizio: pad(start), orarioFine: pad(start + 1) };
    });
    const expected = (w: { orarioInizio: string }) => {
      const h = Number(w.orarioInizio.slice(0, 2));
      return ids.filter((_, i) => !(i === 0 && h >= 10 && h < 12) && !(i === 1 && h >= 11 && h < 13));
    };
    // All at once: more than the batcher sends separately, so most share a query.
    const answers = await Promise.all(windows.map((w) => available(c, w)));
    answers.forEach((res, i) => {
      expect(res.statusCode).toBe(200);
      expect(res.json().map((x: { id: number }) => x.id)).toEqual(expected(windows[i]!));
    });
    // A booking made while others are still asking shows in every answer asked after it.
    const before = windows.map((w) => available(c, w));
    const booked = await book(c, { dataPrenotazione: TOMORROW, orarioInizio: '08:00', orarioFine: '16:00', biciId: ids[2] });
    expect(booked.statusCode).toBe(201);
    const after = await Promise.all(windows.map((w) => available(c, w)));
    for (const res of after) expect(res.json().map((x: { id: number }) => x.id)).not.toContain(ids[2]);
    expect((await Promise.all(before)).every((res) => res.statusCode === 200)).toBe(true);
  });

  it('the active ranges’ index (migration 0006) serves the taken-bikes query and the life-cycle probe', async () => {
    // The shapes of the availability query and the life-cycle probe (service.ts, lifecycle.ts)
    // must match the index of migration 0006 exactly (expression and partial predicate);
    // with sequential scans priced out, PostgreSQL uses it if, and only if, it can.
    // Every partial index of the active bookings (the exclusion constraint's, `fine`'s, the
    // one-per-user unique one) can also list them, so on a near-empty table the planner may
    // take any. With a realistic table (2,000 active bookings over 40 days, analysed), only the
    // range index fits a one-hour window well: the question is asked there, in a transaction
    // rolled back after.
    const plans: string[] = [];
    await ctx.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`
          with b as (insert into biciclette (numero, modello) select 'IDX-' || g, 'City Bike' from generate_series(1, 50) g returning id),
               bikes as (select id, row_number() over (order by id) - 1 as k from b),
               u as (insert into users (nome, cognome, email, password_hash)
                     select 'Indice', 'N' || g, 'indice' || g || '@example.it', 'x' from generate_series(1, 2000) g returning id),
               users_n as (select id, row_number() over (order by id) - 1 as n from u)
          insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine)
          select users_n.id, bikes.id, (now() + (users_n.n / 50) * interval '1 day')::date, '10:00', '11:00',
                 now() + (users_n.n / 50) * interval '1 day', now() + (users_n.n / 50) * interval '1 day' + interval '1 hour'
            from users_n join bikes on bikes.k = users_n.n % 50`);
        await tx.execute(sql`analyze prenotazioni`);
        await tx.execute(sql`set local enable_seqscan = off`);
        const explain = async (q: ReturnType<typeof sql>) =>
          ((await tx.execute(sql`explain ${q}`)).rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
        plans.push(
          await explain(sql`select p.bici_id from prenotazioni p where p.stato = 'attiva'
            and tstzrange(p.inizio, p.fine, '[)') && tstzrange(now(), now() + interval '1 hour', '[)')`),
          // The life-cycle probe itself, as every read sends it.
          await explain(sql`select ${lifecycleDue(sql`now()`, sql`30`, sql`30`)}`),
        );
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof TransactionRollbackError)) throw err;
      });
    expect(plans).toHaveLength(2);
    // The probe reads active bookings through their partial indexes only (decision 022 kept it cheap).
    expect(plans[1], plans[1]).not.toMatch(/Seq Scan on prenotazioni/);
    // Since the waitlist (issue 21, migration 0012) the exclusion constraint's index covers the
    // active rows and the offers, and a window's ranges can be found through it too: the
    // planner may take either range index, never a scan of the table.
    for (const plan of plans) expect(plan, plan).toMatch(/prenotazioni_active_range_idx|prenotazioni_no_overlap/);
  });

  it('validates the window', async () => {
    const u = await user();
    const bad = await available(u, { dataPrenotazione: TOMORROW, orarioInizio: '12:00', orarioFine: '11:00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("L'orario di fine deve essere successivo all'orario di inizio");
    const missing = await available(u, { orarioInizio: '10:00', orarioFine: '11:00' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.dataPrenotazione).toBe('Seleziona una data per la prenotazione');
  });
});

describe('creating a booking', () => {
  it('a resident books for free; the booking has the spec §3 shape', async () => {
    const u = await user({ residente: true });
    const id = await bike('7', 'Hybrid Sport');
    const res = await book(u, {
      dataPrenotazione: TOMORROW,
      orarioInizio: '08:00',
      orarioFine: '18:00',
      destinazione: '  Centro città  ',
      biciId: id,
      ruolo: 'ignored unknown field',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      dataPrenotazione: TOMORROW,
      orarioInizio: '08:00',
      orarioFine: '18:00',
      destinazione: 'Centro città',
      biciId: id,
      biciNumero: '7',
      biciModello: 'Hybrid Sport',
      // The bike's sede (issue 47): on a one-sede install, the first.
      sedeId: 1,
      stato: 'attiva',
      paymentStatus: null,
      createdAt: TEST_NOW.toISOString(),
      ritirataAt: null,
      riconsegnataAt: null,
      motivoCancellazione: null,
      fase: 'da_ritirare',
      // Ten minutes before 08:00 in Rome.
      ritiroDa: '2026-11-22T06:50:00.000Z',
      danno: null,
      // The bike's kind of lock (issue 34), never its code.
      lucchetto: 'nessuno',
      // Never moved by the fleet, its bike not out (issue 35).
      spostata: null,
      biciAssente: false,
      aspetta: false,
    });
    const [row] = await ctx.database.db.select().from(prenotazioni);
    // 08:00 and 18:00 in Rome (UTC+1 in November).
    expect(row!.inizio.toISOString()).toBe('2026-11-22T07:00:00.000Z');
    expect(row!.fine.toISOString()).toBe('2026-11-22T17:00:00.000Z');
  });

  it('an external user gets a pending payment of 2.50 EUR', async () => {
    const u = await user({ residente: false });
    const res = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '09:00', orarioFine: '10:00', biciId: await bike('1') });
    expect(res.statusCode).toBe(201);
    expect(res.json().paymentStatus).toBe('pending');
    const [pay] = await ctx.database.db.select().from(pagamenti);
    expect(pay).toMatchObject({ amount: 250, currency: 'eur', status: 'pending', provider: 'simulated' });
  });

  it('an empty destination is stored as null; over 200 characters is refused', async () => {
    const u = await user();
    const id = await bike('1');
    const long = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '09:00', orarioFine: '10:00', biciId: id, destinazione: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('La destinazione può avere al massimo 200 caratteri');
    const empty = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '09:00', orarioFine: '10:00', biciId: id, destinazione: '   ' });
    expect(empty.statusCode).toBe(201);
    expect(empty.json().destinazione).toBeNull();
  });

  it.each([
    [{ dataPrenotazione: '22/11/2026' }, 400, 'Data non valida: usa il formato AAAA-MM-GG'],
    [{ dataPrenotazione: '2026-02-30' }, 400, 'Data non valida: usa il formato AAAA-MM-GG'],
    [{ orarioInizio: '9:00' }, 400, 'Orario di inizio non valido: usa il formato HH:mm'],
    [{ orarioFine: '24:00' }, 400, 'Orario di fine non valido: usa il formato HH:mm'],
    [{ orarioInizio: '12:00', orarioFine: '12:00' }, 400, "L'orario di fine deve essere successivo all'orario di inizio"],
    [{ dataPrenotazione: '2026-11-20' }, 400, 'Non puoi prenotare per una data passata'],
    // Now is 10:00 in Rome: 09:00 today is past, beyond the 5 minutes of grace.
    [{ dataPrenotazione: '2026-11-21', orarioInizio: '09:00', orarioFine: '11:00' }, 400, "L'orario di inizio è già passato"],
    [{ dataPrenotazione: '2026-12-22' }, 400, 'Puoi prenotare al massimo 30 giorni in anticipo'],
    [{ biciId: 'abc' }, 400, 'Seleziona una bicicletta'],
    [{ biciId: undefined }, 400, 'Seleziona una bicicletta'],
    [{ biciId: 999_999 }, 404, 'Bicicletta non trovata'],
  ])('refuses %j with %i and writes nothing', async (override, status, message) => {
    const u = await user();
    const id = await bike('1');
    const res = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00', biciId: id, ...override });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    expect(await bookingCount()).toBe(0);
  });

  it('allows today within the grace minutes and the last day of the horizon', async () => {
    const a = await user();
    const b = await user();
    const id = await bike('1');
    const grace = await book(a, { dataPrenotazione: '2026-11-21', orarioInizio: '09:57', orarioFine: '11:00', biciId: id });
    expect(grace.statusCode).toBe(201);
    const horizon = await book(b, { dataPrenotazione: '2026-12-21', orarioInizio: '10:00', orarioFine: '11:00', biciId: id });
    expect(horizon.statusCode).toBe(201);
  });

  it('refuses a bike in maintenance or out of service with 409', async () => {
    const u = await user();
    for (const stato of ['manutenzione', 'fuori_servizio'] as const) {
      const res = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00', biciId: await bike(`m-${stato}`, 'City', stato) });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('La bicicletta non è disponibile nella fascia oraria scelta');
    }
    expect(await bookingCount()).toBe(0);
  });

  it('refuses overlapping windows on one bike, allows adjacent ones', async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    const id = await bike('1');
    expect((await book(a, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })).statusCode).toBe(201);
    const overlap = await book(b, { dataPrenotazione: TOMORROW, orarioInizio: '11:59', orarioFine: '13:00', biciId: id });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json()).toMatchObject({ message: 'La bicicletta non è disponibile nella fascia oraria scelta', code: 'BIKE_UNAVAILABLE' });
    expect((await book(b, { dataPrenotazione: TOMORROW, orarioInizio: '12:00', orarioFine: '14:00', biciId: id })).statusCode).toBe(201);
    expect((await book(c, { dataPrenotazione: TOMORROW, orarioInizio: '08:00', orarioFine: '10:00', biciId: id })).statusCode).toBe(201);
  });

  it('refuses a second active booking of the same user', async () => {
    const u = await user();
    const first = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00', biciId: await bike('1') });
    expect(first.statusCode).toBe(201);
    const second = await book(u, { dataPrenotazione: '2026-11-25', orarioInizio: '10:00', orarioFine: '11:00', biciId: await bike('2') });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('Hai già una prenotazione attiva');
    expect(await bookingCount()).toBe(1);
  });
});

describe('daylight saving time in Europe/Rome', () => {
  it('books on the last Sunday of March (the night loses an hour)', async () => {
    ctx.clock.set('2026-03-20T09:00:00Z');
    const u = await user();
    const id = await bike('1');
    const skipped = await book(u, { dataPrenotazione: '2026-03-29', orarioInizio: '02:30', orarioFine: '04:00', biciId: id });
    expect(skipped.statusCode).toBe(400);
    expect(skipped.json().message).toBe("Orario inesistente in quel giorno per il passaggio all'ora legale");
    const ok = await book(u, { dataPrenotazione: '2026-03-29', orarioInizio: '01:00', orarioFine: '04:00', biciId: id });
    expect(ok.statusCode).toBe(201);
    const [row] = await ctx.database.db.select().from(prenotazioni);
    expect(row!.inizio.toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(row!.fine.toISOString()).toBe('2026-03-29T02:00:00.000Z'); // two real hours
  });

  it('books on the last Sunday of October (the night gains an hour)', async () => {
    ctx.clock.set('2026-10-20T09:00:00Z');
    const u = await user();
    const ok = await book(u, { dataPrenotazione: '2026-10-25', orarioInizio: '01:00', orarioFine: '04:00', biciId: await bike('1') });
    expect(ok.statusCode).toBe(201);
    const [row] = await ctx.database.db.select().from(prenotazioni);
    expect(row!.inizio.toISOString()).toBe('2026-10-24T23:00:00.000Z');
    expect(row!.fine.toISOString()).toBe('2026-10-25T03:00:00.000Z'); // four real hours
    // Afternoon of that day is already winter time (UTC+1).
    ctx.clock.set('2026-10-20T09:00:00Z');
    const later = await user();
    const pm = await book(later, { dataPrenotazione: '2026-10-25', orarioInizio: '15:00', orarioFine: '16:00', biciId: await bike('2') });
    expect(pm.statusCode).toBe(201);
    const [pmRow] = await ctx.database.db.select().from(prenotazioni).where(eq(prenotazioni.id, pm.json().id));
    expect(pmRow!.inizio.toISOString()).toBe('2026-10-25T14:00:00.000Z');
  });
});

describe('own bookings and cancelling', () => {
  it('lists only the caller’s bookings, newest first', async () => {
    const a = await user();
    const b = await user();
    const id1 = await bike('1');
    const id2 = await bike('2');
    const first = (await book(a, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00', biciId: id1 })).json();
    await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${first.id}`, headers: { cookie: a.cookie } });
    ctx.clock.advance(60_000);
    const second = (await book(a, { dataPrenotazione: TOMORROW, orarioInizio: '12:00', orarioFine: '13:00', biciId: id2 })).json();
    await book(b, { dataPrenotazione: TOMORROW, orarioInizio: '15:00', orarioFine: '16:00', biciId: id2 });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: a.cookie } });
    expect(res.json().map((x: { id: number; stato: string }) => [x.id, x.stato])).toEqual([
      [second.id, 'attiva'],
      [first.id, 'cancellata'],
    ]);
  });

  it('another user’s booking is 404; a cancelled or completed one cannot be cancelled', async () => {
    const owner = await user({ residente: false });
    const other = await user();
    const created = (await book(owner, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '11:00', biciId: await bike('1') })).json();
    const url = `/api/prenotazioni/${created.id}`;
    const foreign = await ctx.app.inject({ method: 'DELETE', url, headers: { cookie: other.cookie } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Prenotazione non trovata');
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/prenotazioni/abc', headers: { cookie: owner.cookie } })).statusCode).toBe(400);

    const ok = await ctx.app.inject({ method: 'DELETE', url, headers: { cookie: owner.cookie } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ stato: 'cancellata', paymentStatus: 'failed' });
    const again = await ctx.app.inject({ method: 'DELETE', url, headers: { cookie: owner.cookie } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Solo le prenotazioni attive possono essere eliminate');

    const resident = await user();
    const done = (await book(resident, { dataPrenotazione: TOMORROW, orarioInizio: '12:00', orarioFine: '13:00', biciId: await bike('2') })).json();
    ctx.clock.set('2026-11-22T12:30:00Z');
    const late = await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${done.id}`, headers: { cookie: resident.cookie } });
    expect(late.statusCode).toBe(409);
  });
});

describe('life cycle at chosen instants', () => {
  it('a booking in its window shows its bike as prenotata; picked up and returned, it completes and frees it', async () => {
    const u = await user();
    const id = await bike('1');
    const created = (await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })).json();
    const bikes = () => ctx.app.inject({ method: 'GET', url: '/api/biciclette', headers: { cookie: u.cookie } }).then((r) => r.json()[0].stato);
    const mine = () => ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: u.cookie } }).then((r) => r.json()[0].stato);
    expect(await bikes()).toBe('disponibile');
    ctx.clock.set('2026-11-22T09:00:00Z'); // 10:00 in Rome: it starts
    expect(await bikes()).toBe('prenotata');
    expect(await mine()).toBe('attiva');
    const picked = await ctx.app.inject({ method: 'POST', url: `/api/prenotazioni/${created.id}/ritiro`, headers: { cookie: u.cookie } });
    expect(picked.statusCode).toBe(200);
    // Its end passing no longer completes it (decision 022): a ride ends when the bike is returned.
    ctx.clock.set('2026-11-22T11:00:00Z'); // 12:00 in Rome: it ends
    expect(await mine()).toBe('attiva');
    expect(await bikes()).toBe('prenotata');
    const returned = await ctx.app.inject({ method: 'POST', url: `/api/prenotazioni/${created.id}/riconsegna`, headers: { cookie: u.cookie } });
    expect(returned.statusCode).toBe(200);
    expect(await mine()).toBe('completata');
    expect(await bikes()).toBe('disponibile');
    // Once completed, the user may book again.
    const next = await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '13:00', orarioFine: '14:00', biciId: id });
    expect(next.statusCode).toBe(201);
  });

  it('an unpaid external booking is released after the hold, freeing the bike', async () => {
    const ext = await user({ residente: false });
    const other = await user();
    const id = await bike('1');
    const created = (await book(ext, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })).json();
    ctx.clock.advance(29 * 60_000);
    expect((await book(other, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })).statusCode).toBe(409);
    ctx.clock.advance(60_000); // 30 minutes after creation
    const list = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: ext.cookie } });
    expect(list.json()[0]).toMatchObject({ id: created.id, stato: 'cancellata', paymentStatus: 'failed' });
    expect((await book(other, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })).statusCode).toBe(201);
  });

  it('an unpaid booking starting sooner than the hold is released at its start', async () => {
    const ext = await user({ residente: false });
    await book(ext, { dataPrenotazione: '2026-11-21', orarioInizio: '10:10', orarioFine: '11:00', biciId: await bike('1') });
    ctx.clock.advance(9 * 60_000);
    const before = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: ext.cookie } });
    expect(before.json()[0].stato).toBe('attiva');
    ctx.clock.advance(60_000);
    const at = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: ext.cookie } });
    expect(at.json()[0]).toMatchObject({ stato: 'cancellata', paymentStatus: 'failed' });
  });

  it('leaves bikes an admin took out of service alone', async () => {
    const u = await user();
    const id = await bike('1');
    await book(u, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id });
    await ctx.database.db.update(biciclette).set({ stato: 'manutenzione' }).where(eq(biciclette.id, id));
    ctx.clock.set('2026-11-22T09:30:00Z');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/biciclette', headers: { cookie: u.cookie } });
    expect(res.json()[0].stato).toBe('manutenzione');
  });
});

describe('concurrency: the database is the arbiter', () => {
  it('50 users booking the same bike and window at once: exactly one wins', async () => {
    const people = await Promise.all(Array.from({ length: 50 }, () => user()));
    const id = await bike('1');
    const results = await Promise.all(
      people.map((p) => book(p, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    await expectInvariantsHold();
  });

  it('one user booking 20 bikes at once: exactly one booking', async () => {
    const u = await user();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => bike(`c${i}`)));
    const results = await Promise.all(
      ids.map((id) => book(u, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', biciId: id })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toBe('Hai già una prenotazione attiva');
    await expectInvariantsHold();
  });
});

async function expectInvariantsHold() {
  const overlaps = await ctx.database.db.execute(sql`
    select count(*)::int as n from prenotazioni a join prenotazioni b
      on a.bici_id = b.bici_id and a.id < b.id
     where a.stato = 'attiva' and b.stato = 'attiva'
       and tstzrange(a.inizio, a.fine, '[)') && tstzrange(b.inizio, b.fine, '[)')`);
  expect(overlaps.rows[0]).toEqual({ n: 0 });
  const doubles = await ctx.database.db.execute(sql`
    select count(*)::int as n from (select user_id from prenotazioni where stato = 'attiva' group by user_id having count(*) > 1) d`);
  expect(doubles.rows[0]).toEqual({ n: 0 });
}
