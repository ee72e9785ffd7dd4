import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/schema.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import type { StatsResponse } from '../../src/shared/schemas/stats.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

// TEST_NOW is 2026-11-21 10:00 in Rome: the 7-day period is 2026-11-15 … 2026-11-21, the
// 30-day one starts 2026-10-23 and contains the change from summer time (2026-10-25 03:00).
let ctx: TestContext;
let adminCookie: string;
let userCookie: string;
const db = () => ctx.database.db;
let seq = 0;

async function person(opts: { ruolo?: 'admin' | 'user'; residente?: boolean; nome?: string; email?: string } = {}) {
  seq += 1;
  const [row] = await db()
    .insert(users)
    .values({
      nome: opts.nome ?? `Nome${seq}`,
      cognome: `Cognome${seq}`,
      email: opts.email ?? `stats${seq}@test.it`,
      passwordHash: 'not-used-here',
      ruolo: opts.ruolo ?? 'user',
      isResidente: opts.residente ?? false,
    })
    .returning({ id: users.id });
  const { token } = await createSession(db(), row!.id, 'session', ctx.clock.now());
  return { id: row!.id, cookie: `bicielis_session=${token}` };
}

async function bike(numero: string): Promise<number> {
  const { rows } = await db().execute<{ id: number }>(
    sql`insert into biciclette (numero, modello) values (${numero}, 'City Bike') returning id`,
  );
  return rows[0]!.id;
}

async function booking(
  userId: number,
  biciId: number,
  day: string,
  from: string,
  to: string,
  stato: 'attiva' | 'completata' | 'cancellata',
  payment?: { status: 'completed' | 'failed' | 'refunded' | 'pending'; amount?: number },
  destinazione: string | null = null,
): Promise<number> {
  const { rows } = await db().execute<{ id: number }>(sql`
    insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, destinazione)
    values (${userId}, ${biciId}, ${day}::date, ${from}, ${to},
            (${day}::date + ${from}::time) at time zone 'Europe/Rome', (${day}::date + ${to}::time) at time zone 'Europe/Rome',
            ${stato}, ${destinazione})
    returning id`);
  const id = rows[0]!.id;
  if (payment) {
    const paid = payment.status === 'completed' || payment.status === 'refunded';
    await db().execute(sql`
      insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, status, completed_at, refunded_at)
      values (${id}, 'simulated', ${paid ? `pi_${id}` : null}, ${payment.amount ?? 250}, ${payment.status},
              ${payment.status === 'completed' ? sql`now()` : null}, ${payment.status === 'refunded' ? sql`now()` : null})`);
  }
  return id;
}

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const stats = async (period: number) => {
  const res = await get(`/api/admin/stats?period=${period}`, adminCookie);
  expect(res.statusCode).toBe(200);
  return res.json<StatsResponse>();
};

let b1: number, b2: number, b3: number;
let cancelMe: number;

beforeAll(async () => {
  ctx = await createTestApp();
  adminCookie = (await person({ ruolo: 'admin' })).cookie;
  const plain = await person();
  userCookie = plain.cookie;
  const r = await person({ residente: true });
  const e1 = await person({ nome: '=HYPERLINK("http://x")', email: 'e1@test.it' });
  const e2 = await person();
  b1 = await bike('1');
  b2 = await bike('2');
  b3 = await bike('3'); // never taken
  await booking(r.id, b1, '2026-11-20', '09:00', '11:00', 'completata', undefined, '+SUM(A1)');
  await booking(e1.id, b1, '2026-11-20', '14:00', '15:00', 'completata', { status: 'completed', amount: 250 }, '@Ostia; "mare"');
  await booking(e2.id, b2, '2026-11-21', '16:00', '18:00', 'attiva', { status: 'completed', amount: 300 }, '-1');
  await booking(e1.id, b2, '2026-11-19', '10:00', '11:00', 'cancellata', { status: 'failed' });
  await booking(e2.id, b1, '2026-11-18', '08:00', '09:00', 'cancellata', { status: 'refunded' });
  await booking(r.id, b2, '2026-11-10', '10:00', '12:00', 'completata');
  // Across the DST change: 01:30 summer time to 03:30 winter time is three hours.
  await booking(r.id, b1, '2026-10-25', '01:30', '03:30', 'completata');
  await booking(e1.id, b1, '2026-10-01', '10:00', '11:00', 'completata', { status: 'completed', amount: 250 });
  // Made, then cancelled with its hold released (the triggers follow updates).
  cancelMe = await booking(plain.id, b3, '2026-11-17', '12:00', '13:00', 'attiva', { status: 'pending' });
  await db().execute(sql`update prenotazioni set stato = 'cancellata' where id = ${cancelMe}`);
  await db().execute(sql`update pagamenti set status = 'failed' where prenotazione_id = ${cancelMe}`);
  // Made and deleted: counts nowhere.
  const gone = await booking(plain.id, b3, '2026-11-16', '12:00', '13:00', 'completata');
  await db().execute(sql`delete from prenotazioni where id = ${gone}`);
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/admin/stats', () => {
  it('is for admins only: 401 anonymous, 403 user, 400 for an unknown period', async () => {
    expect((await get('/api/admin/stats?period=7')).statusCode).toBe(401);
    expect((await get('/api/admin/stats?period=7', userCookie)).statusCode).toBe(403);
    expect((await get('/api/admin/stats/export.csv?period=7')).statusCode).toBe(401);
    expect((await get('/api/admin/stats/export.csv?period=7', userCookie)).statusCode).toBe(403);
    expect((await get('/api/admin/stats?period=8', adminCookie)).statusCode).toBe(400);
  });

  it('last 7 days: every day zero-filled, rides, cancellations, released holds, revenue (refunds excluded)', async () => {
    const s = await stats(7);
    expect(s).toMatchObject({ period: 7, from: '2026-11-15', to: '2026-11-21', timeZone: 'Europe/Rome' });
    expect(s.days.map((d) => [d.date, d.rides, d.cancellations, d.releasedHolds, d.revenueCents])).toEqual([
      ['2026-11-15', 0, 0, 0, 0],
      ['2026-11-16', 0, 0, 0, 0],
      ['2026-11-17', 0, 1, 1, 0],
      ['2026-11-18', 0, 1, 0, 0],
      ['2026-11-19', 0, 1, 1, 0],
      ['2026-11-20', 2, 0, 0, 250],
      ['2026-11-21', 1, 0, 0, 300],
    ]);
    expect(s.totals).toEqual({
      bookings: 6,
      rides: 3,
      cancellations: 3,
      releasedHolds: 2,
      revenueCents: 550,
      residentRides: 1,
      externalRides: 2,
      noShows: 0,
      damageReports: 0,
      ticketsOpened: 0,
      ticketsClosed: 0,
      repairMedianHours: null,
    });
  });

  it('last 7 days: use by hour (24 hours) and per bike, the never-taken bike with 0, most used first', async () => {
    const s = await stats(7);
    expect(s.hours).toHaveLength(24);
    expect(s.hours.filter((h) => h.rides > 0)).toEqual([
      { hour: 9, rides: 1 },
      { hour: 14, rides: 1 },
      { hour: 16, rides: 1 },
    ]);
    expect(s.bikes.map((b) => [b.id, b.numero, b.rides, b.hours])).toEqual([
      [b1, '1', 2, 3],
      [b2, '2', 1, 2],
      [b3, '3', 0, 0],
    ]);
  });

  it('last 30 days: a ride across the DST change counts 3 hours at 01:00; residents vs externals', async () => {
    const s = await stats(30);
    expect(s.days).toHaveLength(30);
    expect(s.days[0]!.date).toBe('2026-10-23');
    expect(s.days.find((d) => d.date === '2026-10-25')!.rides).toBe(1);
    expect(s.hours[1]).toEqual({ hour: 1, rides: 1 });
    expect(s.bikes.map((b) => [b.numero, b.rides, b.hours])).toEqual([
      ['1', 3, 6],
      ['2', 2, 4],
      ['3', 0, 0],
    ]);
    expect(s.totals).toMatchObject({ rides: 5, residentRides: 3, externalRides: 2, revenueCents: 550 });
  });

  it('last 365 days: 365 days, older bookings included', async () => {
    const s = await stats(365);
    expect(s.days).toHaveLength(365);
    expect(s.totals).toMatchObject({ rides: 6, revenueCents: 800, cancellations: 3 });
  });

  it('the rollup equals the same numbers counted from the bookings themselves', async () => {
    const { rows } = await db().execute<{ day: string; rides: string; cancellations: string; released: string; revenue: string }>(sql`
      select p.data_prenotazione::text as day,
             count(*) filter (where p.stato <> 'cancellata') as rides,
             count(*) filter (where p.stato = 'cancellata') as cancellations,
             count(*) filter (where pg.status = 'failed') as released,
             coalesce(sum(pg.amount) filter (where pg.status = 'completed'), 0) as revenue
        from prenotazioni p left join pagamenti pg on pg.prenotazione_id = p.id
       group by 1 order by 1`);
    const s = await stats(365);
    for (const r of rows) {
      const d = s.days.find((x) => x.date === r.day)!;
      expect([d.rides, d.cancellations, d.releasedHolds, d.revenueCents]).toEqual([
        Number(r.rides),
        Number(r.cancellations),
        Number(r.released),
        Number(r.revenue),
      ]);
    }
  });
});

describe('GET /api/admin/stats/export.csv', () => {
  it("is the period's bookings as UTF-8 CSV with a BOM, a file name, and formulas neutralised", async () => {
    const res = await get('/api/admin/stats/export.csv?period=7', adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="prenotazioni_2026-11-15_2026-11-21.csv"');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('"ID";"Data";"Inizio";"Fine";"Utente";"Email";"Residente";"Bici";"Modello";"Destinazione";"Stato";"Pagamento"');
    expect(lines).toHaveLength(1 + 6);
    expect(lines[1]).toContain(`"${cancelMe}";"2026-11-17";"12:00";"13:00"`);
    const ride = lines.find((l) => l.includes('"2026-11-20";"09:00"'))!;
    expect(ride).toContain(`"Sì";"1";"City Bike";"'+SUM(A1)";"completata";""`);
    const paid = lines.find((l) => l.includes('"2026-11-20";"14:00"'))!;
    expect(paid).toContain(`"'=HYPERLINK(""http://x"") Cognome`);
    expect(paid).toContain(`"'@Ostia; ""mare"""`);
    expect(paid).toContain('"Pagato 2,50 €"');
    expect(lines.find((l) => l.includes('"2026-11-21"'))).toContain(`"'-1";"attiva"`);
  });
});
