import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runOfferPass } from '../../src/server/modules/waitlist/offers.js';
import type { BikeDto, BookingDto } from '../../src/shared/schemas/booking.js';
import type { ClosureDto, ClosureOutcomeDto, DayHours, PublicRulesDto } from '../../src/shared/schemas/rules.js';
import type { AdminWaitlistDto, WaitDto } from '../../src/shared/schemas/waitlist.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, truncateAll } from '../helpers/admin-fixtures.js';
import { createLoggedInUser } from '../helpers/factories.js';

/**
 * Issue 47: a person books where they are. Two sedi: the install's first (every person's home
 * unless a test says otherwise) and `Residenza Nord`. TEST_NOW is Saturday 2026-11-21 10:00 in
 * Rome; the window is Sunday 2026-11-22 10:00–12:00 unless a test says otherwise.
 */
let ctx: TestContext;
const mailer = capturingMailer();
const db = () => ctx.database.db;
const SUNDAY = '2026-11-22';
const MONDAY = '2026-11-23';
const WINDOW = { dataPrenotazione: SUNDAY, orarioInizio: '10:00', orarioFine: '12:00' };

interface Who {
  id: number;
  cookie: string;
}
let first: number;
let nord: number;
let admin: Who;
let seq = 0;

/** A person logged in, at home at `sede` (the first by default), in `lingua`. */
async function somebody(opts: { sede?: number; ruolo?: 'admin' | 'user'; lingua?: 'it' | 'en' } = {}): Promise<Who> {
  seq += 1;
  const { user, cookie } = await createLoggedInUser(ctx.app, db(), {
    email: `sedi-${seq}@example.it`,
    isResidente: true,
    ruolo: opts.ruolo ?? 'user',
    lingua: opts.lingua ?? 'it',
    sedeId: opts.sede ?? first,
  });
  return { id: user.id, cookie };
}

async function bike(numero: string, sede: number): Promise<number> {
  const { rows } = await db().execute<{ id: number }>(sql`insert into biciclette (numero, modello, sede_id) values (${numero}, 'City Bike', ${sede}) returning id`);
  return rows[0]!.id;
}

const available = (who: Who, extra: object = {}) => call(ctx.app, who, 'POST', '/api/biciclette/available', { ...WINDOW, ...extra });
const numbers = (res: { json: () => unknown }) => (res.json() as BikeDto[]).map((b) => b.numero);
const book = (who: Who, biciId: number, extra: object = {}) => call(ctx.app, who, 'POST', '/api/prenotazioni', { ...WINDOW, destinazione: null, biciId, ...extra });
const week = (sunday: DayHours): DayHours[] => [...Array.from({ length: 6 }, () => ({ apertura: '08:00', chiusura: '20:00' })), sunday];

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer } });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  mailer.sent.length = 0;
  await truncateAll(db());
  await db().execute(sql`truncate attese, chiusure, manutenzioni, orari_sede restart identity cascade`);
  await db().execute(sql`delete from sedi where id <> (select min(id) from sedi)`);
  await db().execute(sql`update regole set prenotazioni_settimanali_max = null, durata_massima_minuti = null, preavviso_minimo_minuti = null`);
  first = (await db().execute<{ id: number }>(sql`select min(id) as id from sedi`)).rows[0]!.id;
  nord = (await db().execute<{ id: number }>(sql`insert into sedi (nome) values ('Residenza Nord') returning id`)).rows[0]!.id;
  admin = await somebody({ ruolo: 'admin' });
});

describe('availability and booking per sede', () => {
  it('answers the home sede by default, the sede asked for, and refuses an unknown or archived one in the person’s language', async () => {
    await bike('01', first);
    await bike('02', first);
    await bike('51', nord);
    const anna = await somebody();
    const bruno = await somebody({ sede: nord });

    const home = await available(anna);
    expect(home.statusCode, home.body).toBe(200);
    expect(numbers(home)).toEqual(['01', '02']);
    expect((home.json() as BikeDto[]).every((b) => b.sedeId === first)).toBe(true);
    expect(numbers(await available(anna, { sedeId: nord }))).toEqual(['51']);
    expect(numbers(await available(anna, { sedeId: first }))).toEqual(['01', '02']);
    // Bruno lives at Nord: his form opens there.
    expect(numbers(await available(bruno))).toEqual(['51']);

    const unknown = await available(anna, { sedeId: 999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'SEDE_NOT_FOUND', message: 'Sede non trovata' });
    const english = await somebody({ lingua: 'en' });
    expect((await available(english, { sedeId: 999_999 })).json()).toMatchObject({ message: 'Location not found' });
    const archived = (await db().execute<{ id: number }>(sql`insert into sedi (nome, archiviata_at) values ('Chiusa', now()) returning id`)).rows[0]!.id;
    const refused = await available(anna, { sedeId: archived });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'SEDE_NOT_FOUND' });
    // A sede id that is not one at all is refused by the schema.
    expect((await available(anna, { sedeId: '2' })).statusCode).toBe(400);
  });

  it('books a bike at another sede: the booking is that sede’s, and its bike leaves only that sede’s answer', async () => {
    await bike('01', first);
    const north = await bike('51', nord);
    await bike('52', nord);
    const anna = await somebody();
    const res = await book(anna, north);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ biciNumero: '51', sedeId: nord });
    expect(numbers(await available(await somebody(), { sedeId: nord }))).toEqual(['52']);
    expect(numbers(await available(await somebody()))).toEqual(['01']);
  });

  it('keeps one active booking per person across the whole install, whatever the sede', async () => {
    const here = await bike('01', first);
    const there = await bike('51', nord);
    const anna = await somebody();
    expect((await book(anna, here)).statusCode).toBe(201);
    const second = await book(anna, there, { dataPrenotazione: MONDAY });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'ALREADY_ACTIVE' });
    // And the other way round, for a person at home at Nord.
    const bruno = await somebody({ sede: nord });
    expect((await book(bruno, there)).statusCode).toBe(201);
    expect((await book(bruno, here, { dataPrenotazione: MONDAY })).json()).toMatchObject({ code: 'ALREADY_ACTIVE' });
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where stato = 'attiva'`);
    expect(rows[0]!.n).toBe(2);
  });

  it('GET /api/biciclette lists every bike with its sede, or one sede’s with ?sedeId=', async () => {
    await bike('01', first);
    await bike('51', nord);
    const anna = await somebody();
    const all = await call(ctx.app, anna, 'GET', '/api/biciclette');
    expect((all.json() as BikeDto[]).map((b) => [b.numero, b.sedeId])).toEqual([
      ['01', first],
      ['51', nord],
    ]);
    expect(numbers(await call(ctx.app, anna, 'GET', `/api/biciclette?sedeId=${nord}`))).toEqual(['51']);
    expect(numbers(await call(ctx.app, anna, 'GET', `/api/biciclette?sedeId=${first}`))).toEqual(['01']);
    expect((await call(ctx.app, anna, 'GET', '/api/biciclette?sedeId=01')).statusCode).toBe(400);
  });
});

describe('hours per sede', () => {
  it('a sede’s own week applies to its bookings and its form only; null gives the install’s back; audited', async () => {
    const here = await bike('01', first);
    const there = await bike('51', nord);
    const anna = await somebody();
    const url = `/api/admin/sedi/${nord}/orari`;
    expect((await call(ctx.app, admin, 'GET', url)).json()).toEqual({ orari: null });

    // Nord is closed on Sundays; the install is open every day.
    const put = await call(ctx.app, admin, 'PUT', url, { orari: week(null) });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call(ctx.app, admin, 'GET', url)).json()).toEqual({ orari: week(null) });

    const closed = await available(anna, { sedeId: nord });
    expect(closed.statusCode).toBe(400);
    expect(closed.json()).toMatchObject({ code: 'OUTSIDE_HOURS' });
    expect((await book(anna, there)).json()).toMatchObject({ code: 'OUTSIDE_HOURS' });
    expect(numbers(await available(anna))).toEqual(['01']);
    // Monday at Nord: 08:00–20:00, so 07:00 is outside.
    expect((await available(anna, { sedeId: nord, dataPrenotazione: MONDAY, orarioInizio: '07:00', orarioFine: '09:00' })).json()).toMatchObject({
      code: 'OUTSIDE_HOURS',
    });
    expect((await available(anna, { dataPrenotazione: MONDAY, orarioInizio: '07:00', orarioFine: '09:00' })).statusCode).toBe(200);

    // The form's rules follow the sede asked for; by default the home sede's.
    const rules = async (q: string) => (await call(ctx.app, anna, 'GET', `/api/regole${q}`)).json() as PublicRulesDto;
    expect((await rules(`?sedeId=${nord}`)).orari[6]).toBeNull();
    expect((await rules('')).orari[6]).toEqual({ apertura: '00:00', chiusura: '23:59' });
    expect((await call(ctx.app, anna, 'GET', '/api/regole?sedeId=999999')).statusCode).toBe(404);

    const [entry] = await auditRows(db());
    expect(entry).toMatchObject({ action: 'rules.update', before: { sedeId: nord, orari: null }, after: { sedeId: nord, orari: week(null) } });

    expect((await call(ctx.app, admin, 'PUT', url, { orari: null })).json()).toEqual({ orari: null });
    expect((await book(anna, there)).statusCode).toBe(201);
    expect((await book(await somebody(), here)).statusCode).toBe(201);
  });

  it('refuses an unknown sede, an archived one for a change, and a week that is not seven days', async () => {
    expect((await call(ctx.app, admin, 'GET', '/api/admin/sedi/999999/orari')).statusCode).toBe(404);
    const put = await call(ctx.app, admin, 'PUT', '/api/admin/sedi/999999/orari', { orari: null });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ message: 'Sede non trovata' });
    const archived = (await db().execute<{ id: number }>(sql`insert into sedi (nome, archiviata_at) values ('Chiusa', now()) returning id`)).rows[0]!.id;
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${archived}/orari`, { orari: week(null) })).statusCode).toBe(404);
    expect((await call(ctx.app, admin, 'GET', `/api/admin/sedi/${archived}/orari`)).json()).toEqual({ orari: null });
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${nord}/orari`, { orari: week(null).slice(1) })).statusCode).toBe(400);
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/sedi/${nord}/orari`, {})).statusCode).toBe(400);
  });
});

describe('closures per sede', () => {
  it('a closure of one sede cancels and blocks only that sede’s bookings; one of every sede blocks all', async () => {
    const here = await bike('01', first);
    const there = await bike('51', nord);
    const [anna, bruno] = [await somebody(), await somebody({ sede: nord })];
    const kept = (await book(anna, here)).json() as BookingDto;
    const gone = (await book(bruno, there)).json() as BookingDto;
    const closure = { dal: SUNDAY, al: SUNDAY, motivo: 'Lavori in cortile', sedeId: nord };

    const preview = await call(ctx.app, admin, 'POST', '/api/admin/chiusure/anteprima', closure);
    expect((preview.json() as ClosureOutcomeDto).cancellate.map((b) => b.id)).toEqual([gone.id]);
    const made = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', closure);
    expect(made.statusCode, made.body).toBe(201);
    expect((made.json() as ClosureOutcomeDto).chiusura).toMatchObject({ sedeId: nord, motivo: 'Lavori in cortile' });
    const { rows } = await db().execute<{ id: number; stato: string }>(sql`select id, stato from prenotazioni order by id`);
    expect(rows).toEqual([
      { id: kept.id, stato: 'attiva' },
      { id: gone.id, stato: 'cancellata' },
    ]);

    const carla = await somebody();
    expect((await available(carla, { sedeId: nord, orarioInizio: '14:00', orarioFine: '15:00' })).json()).toMatchObject({ code: 'CLOSED' });
    expect((await book(carla, there, { orarioInizio: '14:00', orarioFine: '15:00' })).json()).toMatchObject({ code: 'CLOSED' });
    expect((await available(carla, { orarioInizio: '14:00', orarioFine: '15:00' })).statusCode).toBe(200);
    const rules = async (q: string) => ((await call(ctx.app, carla, 'GET', `/api/regole${q}`)).json() as PublicRulesDto).chiusure;
    expect(await rules(`?sedeId=${nord}`)).toEqual([{ dal: SUNDAY, al: SUNDAY, motivo: 'Lavori in cortile' }]);
    expect(await rules('')).toEqual([]);
    const list = (await call(ctx.app, admin, 'GET', '/api/admin/chiusure')).json() as ClosureDto[];
    expect(list.map((c) => c.sedeId)).toEqual([nord]);

    // A closure of every sede (no sedeId) touches the first sede's booking too.
    const all = await call(ctx.app, admin, 'POST', '/api/admin/chiusure/anteprima', { dal: SUNDAY, al: SUNDAY, motivo: 'Festa' });
    expect((all.json() as ClosureOutcomeDto).cancellate.map((b) => b.id)).toEqual([kept.id]);
    const everywhere = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: MONDAY, al: MONDAY, motivo: 'Festa', sedeId: null });
    expect((everywhere.json() as ClosureOutcomeDto).chiusura).toMatchObject({ sedeId: null });
    expect((await available(carla, { dataPrenotazione: MONDAY })).json()).toMatchObject({ code: 'CLOSED' });
    expect((await available(carla, { dataPrenotazione: MONDAY, sedeId: nord })).json()).toMatchObject({ code: 'CLOSED' });
  });

  it('refuses a closure of an unknown or archived sede', async () => {
    const archived = (await db().execute<{ id: number }>(sql`insert into sedi (nome, archiviata_at) values ('Chiusa', now()) returning id`)).rows[0]!.id;
    for (const sedeId of [999_999, archived]) {
      const res = await call(ctx.app, admin, 'POST', '/api/admin/chiusure', { dal: SUNDAY, al: SUNDAY, motivo: 'Lavori', sedeId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'SEDE_NOT_FOUND' });
    }
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from chiusure`);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('the waitlist per sede', () => {
  const waits = async (who: Who) => {
    await ctx.app.freedTime.settled();
    return (await call(ctx.app, who, 'GET', '/api/attese')).json() as WaitDto[];
  };

  it('never offers a bike of another sede, even when the other sede has free bikes', async () => {
    const here = await bike('01', first);
    const there = await bike('51', nord);
    const holder = await somebody();
    const held = (await book(holder, here)).json() as BookingDto;
    const anna = await somebody();

    // Nord's bike is free: the first sede's line is still the one Anna joins (her home).
    const joined = await call(ctx.app, anna, 'POST', '/api/attese', { ...WINDOW, destinazione: null });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json()).toMatchObject({ sedeId: first, stato: 'in_attesa', posizione: 1 });
    // Waiting at Nord makes no sense: a bike is free there.
    expect((await call(ctx.app, anna, 'POST', '/api/attese', { ...WINDOW, orarioFine: '11:00', destinazione: null, sedeId: nord })).json()).toMatchObject({
      code: 'BIKE_FREE',
    });

    const pass = await runOfferPass(db(), ctx.clock.now(), 15, true);
    expect(pass.offers).toEqual([]);
    expect((await waits(anna))[0]).toMatchObject({ stato: 'in_attesa', offerta: null });

    const admins = (await call(ctx.app, admin, 'GET', '/api/admin/attese')).json() as AdminWaitlistDto;
    expect(admins.finestre).toEqual([]); // Today's lines only: Sunday's is not today's.

    // The first sede's bike frees up: it is hers.
    expect((await call(ctx.app, holder, 'DELETE', `/api/prenotazioni/${held.id}`)).statusCode).toBe(200);
    const [offered] = await waits(anna);
    expect(offered).toMatchObject({ stato: 'offerta', offerta: { biciId: here } });
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where bici_id = ${there}`);
    expect(rows[0]!.n).toBe(0);
  });

  it('joins the line of the sede asked for, and is offered its bike; the place in line counts that sede’s line only', async () => {
    await bike('01', first);
    const there = await bike('51', nord);
    const [h1, h2] = [await somebody(), await somebody()];
    await book(h1, await bike('02', first), { orarioInizio: '09:00', orarioFine: '18:00' });
    await book(h2, there);
    const firstHolder = await somebody();
    await book(firstHolder, (await db().execute<{ id: number }>(sql`select id from biciclette where numero = '01'`)).rows[0]!.id);

    const anna = await somebody();
    const bruno = await somebody();
    expect((await call(ctx.app, anna, 'POST', '/api/attese', { ...WINDOW, destinazione: null })).json()).toMatchObject({ sedeId: first, posizione: 1 });
    const north = await call(ctx.app, bruno, 'POST', '/api/attese', { ...WINDOW, destinazione: null, sedeId: nord });
    expect(north.statusCode, north.body).toBe(201);
    expect(north.json()).toMatchObject({ sedeId: nord, posizione: 1 });
    expect((await call(ctx.app, await somebody(), 'POST', '/api/attese', { ...WINDOW, destinazione: null, sedeId: 999_999 })).statusCode).toBe(404);

    // Nord's bike frees up: Bruno's, not Anna's (who joined earlier, at the other sede).
    const nordBooking = (await db().execute<{ id: number }>(sql`select id from prenotazioni where bici_id = ${there}`)).rows[0]!.id;
    expect((await call(ctx.app, h2, 'DELETE', `/api/prenotazioni/${nordBooking}`)).statusCode).toBe(200);
    expect((await waits(bruno))[0]).toMatchObject({ stato: 'offerta', offerta: { biciId: there } });
    expect((await waits(anna))[0]).toMatchObject({ stato: 'in_attesa' });
    const accepted = await call(ctx.app, bruno, 'POST', `/api/attese/${north.json().id}/accetta`);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ biciId: there, sedeId: nord });
  });

  it('the admin’s list of today’s lines names each line’s sede', async () => {
    const here = await bike('01', first);
    const there = await bike('51', nord);
    const today = { dataPrenotazione: '2026-11-21', orarioInizio: '15:00', orarioFine: '16:00' };
    await book(await somebody(), here, today);
    await book(await somebody(), there, today);
    await call(ctx.app, await somebody(), 'POST', '/api/attese', { ...today, destinazione: null });
    await call(ctx.app, await somebody(), 'POST', '/api/attese', { ...today, destinazione: null, sedeId: nord });
    const list = (await call(ctx.app, admin, 'GET', '/api/admin/attese')).json() as AdminWaitlistDto;
    expect(list.finestre.map((f) => [f.orarioInizio, f.sedeId, f.inAttesa])).toEqual([
      ['15:00', first, 1],
      ['15:00', nord, 1],
    ]);
  });
});
