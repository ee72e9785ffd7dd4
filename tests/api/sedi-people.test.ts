import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicConfig } from '../../src/shared/api-types.js';
import { sendRideNotices } from '../../src/server/modules/bookings/notices.js';
import { bookingCalendar } from '../../src/server/modules/calendar/service.js';
import { announceOffers } from '../../src/server/modules/waitlist/offers.js';
import { importResidents } from '../../src/server/modules/residents/index.js';
import { insertResidentAccounts } from '../../src/server/modules/users/index.js';
import { residenti, users } from '../../src/server/schema.js';
import { capturingMailer, person } from '../helpers/admin-fixtures.js';
import { insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { noteSecret } from '../helpers/leak-scan.js';

/**
 * Issue 47, people: the home sede at registration and in the profile, the resident import's
 * `sede` column, accounts made from codes, GET /api/config's sedi, and the sede named in the
 * notices and the calendar only when there are several.
 */

let ctx: TestContext;
let first: number;
let seq = 0;
const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestApp();
  first = (await db().execute<{ id: number }>(sql`select min(id)::int as id from sedi`)).rows[0]!.id;
});
afterAll(async () => {
  await ctx?.close();
});

/** One registration, from an address of its own (the limit counts per client). */
async function register(body: Record<string, unknown>, language = 'it') {
  seq += 1;
  const password = `password-sedi-${seq}`;
  noteSecret(password);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: `10.47.0.${seq}`,
    headers: { 'accept-language': language },
    payload: { nome: 'Nora', cognome: 'Sede', email: `sedi-${process.pid}-${seq}@test.it`, password, ...body },
  });
}

const config = async () => (await ctx.app.inject({ method: 'GET', url: '/api/config' })).json<PublicConfig>();

async function bikeAt(numero: string, sedeId: number): Promise<number> {
  const { rows } = await db().execute<{ id: number }>(
    sql`insert into biciclette (numero, modello, sede_id) values (${numero}, 'City Bike', ${sedeId}) returning id`,
  );
  return rows[0]!.id;
}

/** A start reminder of a booking on bike `numero` at `sedeId`: the email's text and the push's title. */
async function startReminderOf(numero: string, sedeId: number) {
  const mailer = capturingMailer();
  const pushed: { title: string }[] = [];
  const who = await person(ctx, { nome: 'Rita' });
  const bike = await bikeAt(numero, sedeId);
  // Now is 10:00 in Rome: it starts at 10:20 (booked yesterday).
  await insertBooking(db(), { userId: who.id, biciId: bike, date: '2026-11-21', from: '10:20', to: '11:00', createdAt: new Date('2026-11-20T09:00:00Z') });
  await sendRideNotices(
    {
      db: db(),
      mailer,
      push: { send: async (_userId, payload) => void pushed.push({ title: payload.title }) },
      config: { publicUrl: 'https://bici.test' },
      log: { error: () => undefined },
    },
    ctx.clock.now(),
  );
  const mail = mailer.sent.find((m) => m.to === who.email)!;
  const bookingId = (await db().execute<{ id: number }>(sql`select id from prenotazioni where bici_id = ${bike}`)).rows[0]!.id;
  const ics = (await bookingCalendar(db(), ctx.config, who.id, bookingId, ctx.clock.now()))!;
  return { text: mail.text, subject: mail.subject, push: pushed[0]!.title, summary: /^SUMMARY:(.*)$/m.exec(ics)![1]!.trim() };
}

describe('one sede: as before sedi', () => {
  it('GET /api/config lists the one open sede', async () => {
    expect((await config()).sedi).toEqual([{ id: first, nome: 'Sede principale' }]);
  });

  it('registers without sedeId at the first sede, and refuses an unknown one in the person’s language', async () => {
    const plain = await register({});
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toMatchObject({ sedeId: first });
    const asked = await register({ sedeId: first });
    expect(asked.statusCode, asked.body).toBe(201);
    const unknown = await register({ sedeId: 999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Sede non trovata', code: 'SEDE_NOT_FOUND' });
    const english = await register({ sedeId: 999_999 }, 'en');
    expect(english.json()).toMatchObject({ message: 'Location not found' });
    expect((await register({ sedeId: 'uno' })).statusCode).toBe(400);
  });

  it('tells a booking without naming its sede: email, push and calendar as before', async () => {
    const told = await startReminderOf('36', first);
    expect(told.text).toContain('alle 10:20 inizia la tua prenotazione della bicicletta n. 36 (fino alle 11:00).');
    expect(told.push).toBe('Bici n. 36 alle 10:20');
    expect(told.summary).toBe('Bicicletta 36 (City Bike)');
  });
});

describe('two sedi', () => {
  let nord: number;
  let archived: number;
  beforeAll(async () => {
    nord = (await db().execute<{ id: number }>(sql`insert into sedi (nome) values ('Residenza Nord') returning id`)).rows[0]!.id;
    archived = (await db().execute<{ id: number }>(sql`insert into sedi (nome, archiviata_at) values ('Residenza Vecchia', now()) returning id`)).rows[0]!.id;
  });

  it('GET /api/config lists the open sedi, the first first, not the archived one', async () => {
    expect((await config()).sedi).toEqual([
      { id: first, nome: 'Sede principale' },
      { id: nord, nome: 'Residenza Nord' },
    ]);
  });

  it('registers at the sede asked for, at the first without one, never at an archived one', async () => {
    const atNord = await register({ sedeId: nord });
    expect(atNord.statusCode, atNord.body).toBe(201);
    expect(atNord.json()).toMatchObject({ sedeId: nord });
    expect((await register({})).json()).toMatchObject({ sedeId: first });
    const old = await register({ sedeId: archived });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ message: 'Sede non trovata' });
  });

  it('a resident code with a sede: its account is there by default, or where the person chose', async () => {
    await db().insert(residenti).values([
      { sigla: 'NORD01', nome: 'Nora', cognome: 'Sede', sedeId: nord },
      { sigla: 'NORD02', nome: 'Nora', cognome: 'Sede', sedeId: nord },
    ]);
    const byCode = await register({ siglaResidente: 'nord01' });
    expect(byCode.statusCode, byCode.body).toBe(201);
    expect(byCode.json()).toMatchObject({ sedeId: nord, isResidente: true });
    const chosen = await register({ siglaResidente: 'NORD02', sedeId: first });
    expect(chosen.json()).toMatchObject({ sedeId: first });
  });

  it('/profilo changes the home sede (an open one), and the session shows it at once', async () => {
    const who = await person(ctx);
    const patch = (sedeId: unknown) => ctx.app.inject({ method: 'PATCH', url: '/api/profilo', headers: { cookie: who.cookie }, payload: { sedeId } });
    const before = await ctx.app.inject({ method: 'GET', url: '/api/profilo', headers: { cookie: who.cookie } });
    expect(before.json()).toMatchObject({ sedeId: first });
    const moved = await patch(nord);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ sedeId: nord });
    const session = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: who.cookie } });
    expect(session.json()).toMatchObject({ sedeId: nord });
    expect((await patch(archived)).statusCode).toBe(404);
    expect((await patch(999_999)).json()).toMatchObject({ code: 'SEDE_NOT_FOUND' });
    expect((await patch('2')).statusCode).toBe(400);
    const [row] = await db().select({ sedeId: users.sedeId }).from(users).where(eq(users.id, who.id));
    expect(row).toEqual({ sedeId: nord });
  });

  it('the resident import: a known sede (any case), an unknown one rejected on its row, the column left out keeps the sede', async () => {
    const report = await importResidents(
      db(),
      ['sigla,nome,cognome,corsoDiStudi,annoCorso,attivo,sede', 'IMP1,Ada,Uno,,,si,residenza NORD ', 'IMP2,Bea,Due,,,si,', 'IMP3,Cleo,Tre,,,si,Marte', 'IMP4,Dora,Quattro,,,si,Residenza Vecchia'].join('\n'),
    );
    expect(report.inserted).toBe(2);
    expect(report.rejected).toEqual([
      { line: 4, reason: 'sede: sede sconosciuta: Marte' },
      { line: 5, reason: 'sede: sede sconosciuta: Residenza Vecchia' },
    ]);
    const sedeOf = async (sigla: string) => (await db().select({ sedeId: residenti.sedeId }).from(residenti).where(eq(residenti.sigla, sigla)))[0]?.sedeId;
    expect(await sedeOf('IMP1')).toBe(nord);
    expect(await sedeOf('IMP2')).toBeNull();
    expect(await sedeOf('IMP3')).toBeUndefined();
    // Without the column, an update keeps the code's sede.
    const again = await importResidents(db(), 'sigla,nome,cognome,corsoDiStudi,annoCorso,attivo\nIMP1,Ada,Uno,Fisica,,si\n');
    expect(again).toMatchObject({ inserted: 0, updated: 1, rejected: [] });
    expect(await sedeOf('IMP1')).toBe(nord);
  });

  it('accounts made from codes are at the code’s sede, else at the first', async () => {
    await insertResidentAccounts(db(), { passwordHash: 'not-used-here', domain: 'sedi.test', now: ctx.clock.now().toISOString() });
    const { rows } = await db().execute<{ sigla: string; sede_id: number }>(
      sql`select sigla_residente as sigla, sede_id from users where sigla_residente in ('IMP1', 'IMP2') order by sigla_residente`,
    );
    expect(rows).toEqual([
      { sigla: 'IMP1', sede_id: nord },
      { sigla: 'IMP2', sede_id: first },
    ]);
  });

  it('tells a booking with its bike’s sede: email, push and calendar', async () => {
    const told = await startReminderOf('15', nord);
    expect(told.text).toContain('della bicicletta n. 15 · Residenza Nord (fino alle 11:00).');
    expect(told.push).toBe('Bici n. 15 · Residenza Nord alle 10:20');
    expect(told.summary).toBe('Bicicletta 15 (City Bike) · Residenza Nord');
    const home = await startReminderOf('40', first);
    expect(home.push).toBe('Bici n. 40 · Sede principale alle 10:20');
  });

  it('a waitlist offer names the bike’s sede', async () => {
    const mailer = capturingMailer();
    const who = await person(ctx, { nome: 'Olga' });
    const bike = await bikeAt('16', nord);
    await db().execute(sql`insert into attese (user_id, sede_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato)
      values (${who.id}, ${nord}, '2026-11-22', '10:00', '11:00', '2026-11-22T09:00:00Z', '2026-11-22T10:00:00Z', 'offerta')`);
    await db().execute(sql`insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, attesa_id, offerta_scade_at)
      select ${who.id}, ${bike}, '2026-11-22', '10:00', '11:00', '2026-11-22T09:00:00Z', '2026-11-22T10:00:00Z', 'offerta', a.id, '2026-11-21T09:30:00Z'
        from attese a where a.user_id = ${who.id}`);
    const told = await announceOffers(
      { db: db(), mailer, log: { error: () => undefined }, publicUrl: 'https://bici.test', timeZone: 'Europe/Rome' },
      ctx.clock.now(),
    );
    expect(told).toBe(1);
    expect(mailer.sent[0]!.text).toContain('n. 16 · Residenza Nord');
  });
});
