import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lifecycleJob } from '../../src/server/jobs/app-jobs.js';
import { createLogger } from '../../src/server/logger.js';
import { importBikes } from '../../src/server/modules/bikes/index.js';
import { biciclette, prenotazioni } from '../../src/server/schema.js';
import { zonedInstant } from '../../src/shared/time.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBooking } from '../helpers/admin-bookings.js';
import { bookThroughApi, paymentOf, payThroughApi } from '../helpers/booking-fixtures.js';

/*
 * Issue 47: everything that moves a booking stays inside its sede (planned maintenance, a late
 * or broken bike, a problem at the pick-up, the desk), however many bikes the other sede has
 * free; a bike moved to another sede leaves its bookings at the old one, moved or cancelled;
 * a bike created at a sede.
 */

let ctx: TestContext;
const mailer = capturingMailer();
const pushed: { userId: number; title: string; body: string }[] = [];
const TODAY = '2026-11-21';
const TOMORROW = '2026-11-22';
const at = (date: string, hm: string) => zonedInstant(date, hm, 'Europe/Rome')!;
let centrale: number;
let nord: number;
let archiviata: number;

beforeAll(async () => {
  ctx = await createTestApp({
    deps: {
      mailer,
      push: {
        async send(userId, payload) {
          pushed.push({ userId, title: payload.title, body: payload.body });
        },
      },
    },
  });
  const { rows } = await ctx.database.db.execute<{ id: number }>(sql`select id from sedi order by id limit 1`);
  centrale = rows[0]!.id;
  const made = await ctx.database.db.execute<{ id: number }>(sql`
    insert into sedi (nome, indirizzo, archiviata_at) values ('Residenza Nord', 'Via Nord 1', null), ('Sede chiusa', '', now()) returning id`);
  nord = made.rows[0]!.id;
  archiviata = made.rows[1]!.id;
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(at(TODAY, '10:00'));
  mailer.sent.length = 0;
  pushed.length = 0;
  await truncateAll(ctx.database.db);
});

const db = () => ctx.database.db;
const job = () =>
  lifecycleJob({
    database: ctx.database,
    clock: ctx.clock,
    mailer,
    config: ctx.config,
    log: createLogger('silent'),
    push: ctx.app.deps.push,
    payments: ctx.app.deps.payments,
  })();
const row = async (id: number) => (await db().select().from(prenotazioni).where(eq(prenotazioni.id, id)))[0]!;
const bike = async (id: number) => (await db().select().from(biciclette).where(eq(biciclette.id, id)))[0]!;
const mailsTo = (email: string) => mailer.sent.filter((m) => m.to === email);

/** A bike at a sede, written straight into the database. */
async function bikeAt(sedeId: number, numero: string): Promise<number> {
  const [made] = await db().insert(biciclette).values({ numero, modello: 'City Bike', stato: 'disponibile', sedeId }).returning({ id: biciclette.id });
  return made!.id;
}

/**
 * Bike 03 at the Centrale and, when `ownFree`, 07 beside it; at Residenza Nord, 51 and 52 free
 * all day, the bikes a move must never take.
 */
async function twoSedi(ownFree: boolean) {
  const b03 = await bikeAt(centrale, '03');
  const b07 = ownFree ? await bikeAt(centrale, '07') : null;
  const n51 = await bikeAt(nord, '51');
  const n52 = await bikeAt(nord, '52');
  const admin = await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
  return { b03, b07, n51, n52, admin };
}

/** Every live booking or offer is at its bike's sede (concluded ones keep the sede they were at). */
async function sediConsistent(): Promise<void> {
  const { rows } = await db().execute<{ n: number }>(sql`
    select count(*)::int as n from prenotazioni p join biciclette b on b.id = p.bici_id
     where p.stato in ('attiva', 'offerta') and p.sede_id <> b.sede_id`);
  expect(rows[0]!.n).toBe(0);
}

describe('planned maintenance moves within the sede', () => {
  const plan = (admin: Person, bikeId: number) =>
    call(ctx.app, admin, 'POST', `/api/admin/biciclette/${bikeId}/manutenzioni`, { dal: `${TOMORROW}T08:00`, al: `${TOMORROW}T18:00`, motivo: 'Revisione' });

  it('no other bike at its sede: cancelled, although Residenza Nord has two free', async () => {
    const { b03, admin } = await twoSedi(false);
    const b = await person(ctx);
    const booked = await insertBooking(db(), { userId: b.id, biciId: b03, date: TOMORROW, from: '10:00', to: '12:00' });
    const res = await plan(admin, b03);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ spostate: [], cancellate: [{ id: booked, biciNumero: '03' }] });
    expect(await row(booked)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'manutenzione', biciId: b03, sedeId: centrale });
    expect(mailsTo(b.email)).toHaveLength(1);
  });

  it('a free bike at its sede: moved there', async () => {
    const { b03, b07, admin } = await twoSedi(true);
    const who = await person(ctx);
    const booked = await insertBooking(db(), { userId: who.id, biciId: b03, date: TOMORROW, from: '10:00', to: '12:00' });
    expect((await plan(admin, b03)).json()).toMatchObject({ spostate: [{ id: booked, nuovaBiciNumero: '07' }], cancellate: [] });
    expect(await row(booked)).toMatchObject({ stato: 'attiva', biciId: b07, sedeId: centrale });
    // Its email names the bike with its sede, as there are several (issue 47).
    const text = mailsTo(who.email).map((m) => `${m.subject}\n${m.text}`).join('\n');
    expect(text).toContain('07 · Sede principale');
  });

  it('the preview says the same', async () => {
    const { b03, admin } = await twoSedi(false);
    const booked = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b03, date: TOMORROW, from: '10:00', to: '12:00' });
    const res = await call(ctx.app, admin, 'POST', `/api/admin/biciclette/${b03}/manutenzioni/anteprima`, {
      dal: `${TOMORROW}T08:00`,
      al: `${TOMORROW}T18:00`,
      motivo: 'Revisione',
    });
    expect(res.json()).toMatchObject({ spostate: [], cancellate: [{ id: booked }] });
  });
});

describe('the fleet heals within the sede', () => {
  /** Bike 03 out on a ride 10:00–12:00, not returned; the next booking on it 12:30–14:00. */
  async function lateBike(ownFree: boolean) {
    const fleet = await twoSedi(ownFree);
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: fleet.b03, date: TODAY, from: '10:00', to: '12:00', ritirataAt: at(TODAY, '10:00') });
    const b = await person(ctx, { nome: 'Bruno' });
    const next = await insertBooking(db(), { userId: b.id, biciId: fleet.b03, date: TODAY, from: '12:30', to: '14:00' });
    return { ...fleet, b, next };
  }

  it('a late bike, no other free at its sede: the booking stays and its person is told, then may wait; never moved to Nord', async () => {
    const { b03, b, next } = await lateBike(false);
    ctx.clock.set(at(TODAY, '12:16'));
    await job();
    expect(await row(next)).toMatchObject({ stato: 'attiva', biciId: b03, sedeId: centrale });
    // With several sedi, the bike is named with its own (issue 47).
    expect(mailsTo(b.email).map((m) => m.subject)).toContain("La bici n. 03 · Sede principale non è ancora rientrata e al momento non ce n'è un'altra libera");
    // `Aspetta`: kept, and every later pass still finds only the other sede's bikes free.
    expect((await call(ctx.app, b, 'POST', `/api/prenotazioni/${next}/aspetta`)).statusCode).toBe(200);
    ctx.clock.set(at(TODAY, '12:20'));
    await job();
    expect(await row(next)).toMatchObject({ stato: 'attiva', biciId: b03, sedeId: centrale });
  });

  it('a late bike, one free at its sede: moved there', async () => {
    const { b07, next } = await lateBike(true);
    ctx.clock.set(at(TODAY, '12:01'));
    await job();
    expect(await row(next)).toMatchObject({ biciId: b07, sedeId: centrale, spostataCausa: 'ritardo' });
  });

  it('a broken bike (out of service), no other free at its sede: cancelled; one free: moved there', async () => {
    const { b03, admin } = await twoSedi(false);
    const b = await person(ctx);
    const next = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '14:00' });
    const res = await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${b03}`, { stato: 'fuori_servizio' });
    expect(res.json()).toMatchObject({ spostate: 0, annullate: 1, message: 'Stato aggiornato. 0 prenotazioni spostate, 1 annullata' });
    expect(await row(next)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'bici_guasta', biciId: b03 });

    const b04 = await bikeAt(centrale, '04');
    const b05 = await bikeAt(centrale, '05');
    const later = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b04, date: TODAY, from: '15:00', to: '16:00' });
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${b04}`, { stato: 'fuori_servizio' })).json()).toMatchObject({ spostate: 1, annullate: 0 });
    expect(await row(later)).toMatchObject({ stato: 'attiva', biciId: b05, sedeId: centrale });
  });

  it('a problem at the pick-up, no other free at its sede: cancelled; one free: moved there', async () => {
    const { b03 } = await twoSedi(false);
    const b = await person(ctx);
    const booked = await insertBooking(db(), { userId: b.id, biciId: b03, date: TODAY, from: '12:30', to: '14:00' });
    ctx.clock.set(at(TODAY, '12:25'));
    const report = (id: number) => call(ctx.app, b, 'POST', `/api/prenotazioni/${id}/problema`, { categoria: 'catena', descrizione: 'La catena è rotta' });
    expect((await report(booked)).json()).toMatchObject({ esito: 'annullata', nuovaBiciNumero: null });
    expect(await row(booked)).toMatchObject({ stato: 'cancellata', biciId: b03 });

    const b04 = await bikeAt(centrale, '04');
    const b05 = await bikeAt(centrale, '05');
    const again = await insertBooking(db(), { userId: b.id, biciId: b04, date: TODAY, from: '12:30', to: '14:00' });
    expect((await report(again)).json()).toMatchObject({ esito: 'spostata', nuovaBiciNumero: '05' });
    expect(await row(again)).toMatchObject({ biciId: b05, sedeId: centrale });
  });
});

describe("the desk's booking", () => {
  const desk = (admin: Person, body: object) =>
    call(ctx.app, admin, 'POST', '/api/admin/prenotazioni', { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, ...body });

  it('with a sede, only a bike of that sede; without, as before', async () => {
    const { b03, n51, admin } = await twoSedi(false);
    const u = await person(ctx);
    const wrong = await desk(admin, { userId: u.id, biciId: n51, sedeId: centrale });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'BIKE_OTHER_SEDE', message: 'La bici scelta non è in questa sede' });
    expect(await db().$count(prenotazioni)).toBe(0);
    const right = await desk(admin, { userId: u.id, biciId: b03, sedeId: centrale });
    expect(right.statusCode).toBe(201);
    expect(right.json()).toMatchObject({ biciId: b03, sedeId: centrale });
    const other = await person(ctx);
    const plain = await desk(admin, { userId: other.id, biciId: n51 });
    expect(plain.json()).toMatchObject({ biciId: n51, sedeId: nord });
    expect((await desk(admin, { userId: other.id, biciId: n51, sedeId: 0 })).statusCode).toBe(400);
  });
});

describe('a bike moved to another sede', () => {
  const move = (admin: Person, bikeId: number, body: object) => call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bikeId}`, body);

  it('moves its bookings within the old sede where a bike is free, cancels (refunds) and tells the rest, then changes sede', async () => {
    const { b03, b07, admin } = await twoSedi(true);
    const a = await person(ctx, { nome: 'Anna' });
    const movable = await insertBooking(db(), { userId: a.id, biciId: b03, date: TOMORROW, from: '08:00', to: '09:00' });
    // 07 is held 10:00–12:00: the paid booking of that window has nowhere to go at its sede.
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b07!, date: TOMORROW, from: '10:00', to: '12:00' });
    const payer = await person(ctx, { residente: false, nome: 'Piero' });
    ctx.clock.set(at(TODAY, '09:00'));
    const paid = await bookThroughApi(ctx.app, payer, b03, { dataPrenotazione: TOMORROW, orarioInizio: '10:00', orarioFine: '12:00' });
    await payThroughApi(ctx.app, db(), payer, paid);
    // A past booking, completed, stays as it was.
    const done = await insertBooking(db(), { userId: a.id, biciId: b03, date: TODAY, from: '07:00', to: '08:00', stato: 'completata' });

    const res = await move(admin, b03, { sedeId: nord });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      bike: { id: b03, sedeId: nord },
      spostate: 1,
      annullate: 1,
      notifiedUsers: 2,
      message: 'Sede aggiornata. 1 prenotazione spostata, 1 annullata',
    });
    expect(await bike(b03)).toMatchObject({ sedeId: nord, stato: 'disponibile' });
    expect(await row(movable)).toMatchObject({ stato: 'attiva', biciId: b07, sedeId: centrale });
    expect(await row(paid)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'admin', biciId: b03, sedeId: centrale });
    expect((await paymentOf(db(), paid))?.status).toBe('refunded');
    expect(await row(done)).toMatchObject({ stato: 'completata', biciId: b03 });
    expect(mailsTo(a.email).map((m) => m.subject)).toEqual(['La tua prenotazione è stata spostata sulla bici n. 07: la bici n. 03 è stata spostata in un’altra sede']);
    const cancelled = mailsTo(payer.email).filter((m) => m.subject === 'La tua prenotazione è stata annullata');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.text).toContain('Il pagamento di 2,50 € ti è stato rimborsato.');
    expect(pushed.map((p) => p.userId).sort()).toEqual([a.id, payer.id].sort());
    const audit = (await auditRows(db())).find((e) => e.action === 'bike.update')!;
    expect(audit.before).toMatchObject({ sedeId: centrale });
    expect(audit.after).toMatchObject({ sedeId: nord, spostate: 1, annullate: 1 });
    await sediConsistent();
  });

  it('in English for an English-speaking admin, with both state and sede', async () => {
    const { b03, admin } = await twoSedi(false);
    await db().execute(sql`update users set lingua = 'en' where id = ${admin.id}`);
    const res = await move(admin, b03, { sedeId: nord, stato: 'manutenzione' });
    expect(res.json()).toMatchObject({ bike: { sedeId: nord, stato: 'manutenzione' }, message: 'Location updated. 0 bookings moved, 0 cancelled' });
    const empty = await move(admin, b03, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain("Give the bike's state or location");
  });

  it('refuses while the bike is out on a ride, an unknown or archived sede, and an empty change', async () => {
    const { b03, admin } = await twoSedi(true);
    const riding = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b03, date: TODAY, from: '09:00', to: '12:00', ritirataAt: at(TODAY, '09:00') });
    const later = await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b03, date: TOMORROW, from: '10:00', to: '11:00' });
    const res = await move(admin, b03, { sedeId: nord });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'BIKE_IN_USE', message: 'La bici è in uso: potrai spostarla in un’altra sede dopo la riconsegna' });
    expect(await bike(b03)).toMatchObject({ sedeId: centrale });
    expect(await row(later)).toMatchObject({ stato: 'attiva', biciId: b03 });
    expect(await row(riding)).toMatchObject({ stato: 'attiva' });
    expect((await move(admin, b03, { sedeId: archiviata })).json()).toMatchObject({ code: 'SEDE_NOT_FOUND' });
    expect((await move(admin, b03, { sedeId: 999_999 })).statusCode).toBe(404);
    const empty = await move(admin, b03, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Indica lo stato o la sede della bici');
    expect((await move(admin, b03, { sedeId: 'nord' })).statusCode).toBe(400);
  });

  it('the database refuses a change of sede while a booking remains (the trigger), whoever writes it', async () => {
    const { b03 } = await twoSedi(false);
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b03, date: TOMORROW, from: '10:00', to: '11:00' });
    const err = await db()
      .execute(sql`update biciclette set sede_id = ${nord} where id = ${b03}`)
      .then(
        () => null,
        (e: unknown) => e as { cause?: { constraint?: string }; constraint?: string },
      );
    expect(err?.cause?.constraint ?? err?.constraint).toBe('biciclette_sede_senza_prenotazioni');
  });

  it('a waitlist offer on the bike moves within the old sede, or goes back to the line', async () => {
    const { b03, b07, admin } = await twoSedi(true);
    const u = await person(ctx);
    const { rows: waits } = await db().execute<{ id: number }>(sql`
      insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, sede_id)
      values (${u.id}, ${TOMORROW}, '10:00', '11:00', ${at(TOMORROW, '10:00').toISOString()}, ${at(TOMORROW, '11:00').toISOString()}, 'offerta', ${centrale}),
             (${u.id}, ${TOMORROW}, '14:00', '15:00', ${at(TOMORROW, '14:00').toISOString()}, ${at(TOMORROW, '15:00').toISOString()}, 'offerta', ${centrale})
      returning id`);
    const offer = async (attesa: number, from: string, to: string) => {
      const { rows } = await db().execute<{ id: number }>(sql`
        insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, attesa_id, offerta_scade_at)
        values (${u.id}, ${b03}, ${TOMORROW}, ${from}, ${to}, ${at(TOMORROW, from).toISOString()}, ${at(TOMORROW, to).toISOString()}, 'offerta', ${attesa},
                ${at(TODAY, '10:30').toISOString()})
        returning id`);
      return rows[0]!.id;
    };
    const first = await offer(waits[0]!.id, '10:00', '11:00');
    const second = await offer(waits[1]!.id, '14:00', '15:00');
    // 07 is held in the afternoon: the second offer has nowhere to go at its sede.
    await insertBooking(db(), { userId: (await person(ctx)).id, biciId: b07!, date: TOMORROW, from: '13:00', to: '16:00' });
    expect((await move(admin, b03, { sedeId: nord })).statusCode).toBe(200);
    expect(await row(first)).toMatchObject({ stato: 'offerta', biciId: b07, sedeId: centrale });
    expect(await db().$count(prenotazioni, eq(prenotazioni.id, second))).toBe(0);
    const { rows: after } = await db().execute<{ id: number; stato: string }>(sql`select id, stato from attese order by id`);
    expect(after).toEqual([
      { id: waits[0]!.id, stato: 'offerta' },
      { id: waits[1]!.id, stato: 'in_attesa' },
    ]);
  });

  it('racing bookings of the bike never leaves one at the wrong sede', async () => {
    const { b03, admin } = await twoSedi(true);
    for (let round = 0; round < 4; round++) {
      const target = round % 2 === 0 ? nord : centrale;
      const users = await Promise.all([person(ctx), person(ctx), person(ctx)]);
      const results = await Promise.all([
        move(admin, b03, { sedeId: target }),
        ...users.map((u, i) =>
          call(ctx.app, u, 'POST', '/api/prenotazioni', { biciId: b03, dataPrenotazione: TOMORROW, orarioInizio: `1${i}:00`, orarioFine: `1${i}:30`, destinazione: null }),
        ),
      ]);
      expect(results[0]!.statusCode).toBe(200);
      for (const r of results.slice(1)) expect([201, 409]).toContain(r.statusCode);
      await sediConsistent();
      // Whatever won, the bookings still on the bike are at its sede now; those made before the move stayed behind.
      const { rows } = await db().execute<{ n: number }>(sql`
        select count(*)::int as n from prenotazioni p join biciclette b on b.id = p.bici_id
         where p.stato in ('attiva', 'offerta') and p.bici_id = ${b03} and p.sede_id <> ${target}`);
      expect(rows[0]!.n).toBe(0);
      await db().execute(sql`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'admin' where stato = 'attiva'`);
    }
  });
});

describe('a bike created at a sede', () => {
  const create = (admin: Person, body: object) => call(ctx.app, admin, 'POST', '/api/admin/biciclette', body);

  it('at the sede given, or the first open one; an archived or unknown sede refused', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    const there = await create(admin, { numero: '60', modello: 'City Bike', sedeId: nord });
    expect(there.statusCode).toBe(201);
    expect(there.json()).toMatchObject({ numero: '60', sedeId: nord });
    expect((await create(admin, { numero: '61', modello: 'City Bike' })).json()).toMatchObject({ sedeId: centrale });
    const archived = await create(admin, { numero: '62', modello: 'City Bike', sedeId: archiviata });
    expect(archived.statusCode).toBe(404);
    expect(archived.json()).toMatchObject({ code: 'SEDE_NOT_FOUND', message: 'Sede non trovata o archiviata' });
    expect((await create(admin, { numero: '63', modello: 'City Bike', sedeId: 999_999 })).statusCode).toBe(404);
    expect((await create(admin, { numero: '64', modello: 'City Bike', sedeId: -1 })).statusCode).toBe(400);
    expect(await db().$count(biciclette)).toBe(2);
    const audit = (await auditRows(db())).filter((e) => e.action === 'bike.create');
    expect(audit.map((e) => (e.after as { sedeId: number }).sedeId)).toEqual([centrale, nord]);
  });
});

describe("the bikes import's sede column", () => {
  it('puts a new bike at the sede named (any case), the first open one when none; an unknown or archived sede, or another for a bike already there, rejects the row', async () => {
    await bikeAt(centrale, '70');
    const csv = [
      'numero,modello,sede',
      '71,City Bike,residenza nord',
      '72,City Bike,',
      '73,City Bike,Sede chiusa',
      '74,City Bike,Altrove',
      '70,City Bike Plus,Residenza Nord',
      '75,City Bike, Residenza Nord ',
    ].join('\n');
    const report = await importBikes(db(), csv);
    expect(report).toMatchObject({ inserted: 3, updated: 0 });
    expect(report.rejected).toEqual([
      { line: 4, reason: 'sede: sede sconosciuta o archiviata: Sede chiusa' },
      { line: 5, reason: 'sede: sede sconosciuta o archiviata: Altrove' },
      { line: 6, reason: expect.stringMatching(/^sede: la bici è già nella sede .+: per spostarla usa il pannello di amministrazione$/) },
    ]);
    const sedeOf = async (numero: string) => (await db().select().from(biciclette).where(eq(biciclette.numero, numero)))[0]?.sedeId;
    expect([await sedeOf('71'), await sedeOf('72'), await sedeOf('75'), await sedeOf('70')]).toEqual([nord, centrale, nord, centrale]);
    expect(await sedeOf('73')).toBeUndefined();
    // Without the column, as before.
    expect(await importBikes(db(), 'numero,modello\n76,City Bike\n')).toMatchObject({ inserted: 1, rejected: [] });
    expect(await sedeOf('76')).toBe(centrale);
  });
});
