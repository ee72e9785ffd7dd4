import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { migrationsFolder } from '../../src/server/db/migrate.js';
import { azioniOffline, biciclette, interventi, prenotazioni } from '../../src/server/schema.js';
import { appJobs } from '../../src/server/jobs/app-jobs.js';
import { createLogger } from '../../src/server/logger.js';
import { minuteJob } from '../helpers/minute-job.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';
import { tableDigests, WRITTEN_BY_REFUSALS } from '../helpers/db-digest.js';

/**
 * Offline `Ritirata` / `Riconsegnata` (issue 22, decision 026): actions queued on the device
 * and sent later, perhaps twice, with `idAzione` and `oraDispositivo`. TEST_NOW is
 * 2026-11-21 10:00 in Rome; the usual booking is tomorrow 10:00–12:00 Rome (09:00–11:00Z):
 * `ritiroDa` 08:50Z, no-show instant 09:30Z (NO_SHOW_MINUTES 30).
 */
let ctx: TestContext;
const mailer = capturingMailer();
const TOMORROW = '2026-11-22';
const at = (hhmmZ: string) => new Date(`${TOMORROW}T${hhmmZ}Z`);
const iso = (hhmmZ: string) => at(hhmmZ).toISOString();
const HEADER = 'x-ora-applicata';
const DAMAGE_SUBJECT = /^Nuovo intervento: bici/;

const MSG_NO_SHOW = 'La prenotazione è stata annullata per mancato ritiro prima che il ritiro arrivasse al server';
const MSG_CANCELLED = 'La prenotazione è stata annullata prima che il ritiro arrivasse al server';
const MSG_REUSED = "Questa azione è già stata usata per un'altra operazione";
const MSG_BAD_ID = "Identificativo dell'azione non valido";
const MSG_BAD_TIME = 'Ora del dispositivo non valida: usa una data e ora ISO 8601 con fuso orario (es. 2026-12-12T09:05:00.000Z)';

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer } });
});
afterAll(async () => {
  await ctx?.close();
});
beforeEach(async () => {
  await truncateAll(ctx.database.db);
  ctx.clock.set(TEST_NOW);
  mailer.sent.length = 0;
  await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
});

const db = () => ctx.database.db;

async function booked(window: { from?: string; to?: string } = {}) {
  const u = await person(ctx);
  const bike = await insertBike(db());
  const res = await call(ctx.app, u, 'POST', '/api/prenotazioni', {
    dataPrenotazione: TOMORROW,
    orarioInizio: window.from ?? '10:00',
    orarioFine: window.to ?? '12:00',
    biciId: bike,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { u, bike, id: res.json().id as number };
}

const pickUp = (who: Person, id: number, body?: object, app: FastifyInstance = ctx.app) =>
  call(app, who, 'POST', `/api/prenotazioni/${id}/ritiro`, body);
const giveBack = (who: Person, id: number, body?: object, app: FastifyInstance = ctx.app) =>
  call(app, who, 'POST', `/api/prenotazioni/${id}/riconsegna`, body);
const bookingRow = async (id: number) => (await db().select().from(prenotazioni).where(eq(prenotazioni.id, id)))[0]!;
const bikeRow = async (id: number) => (await db().select().from(biciclette).where(eq(biciclette.id, id)))[0]!;
const actionRows = () => db().select().from(azioniOffline);
const damageCount = async () => (await db().select({ n: count() }).from(interventi))[0]!.n;
const damageEmails = () => mailer.sent.filter((m) => DAMAGE_SUBJECT.test(m.subject));
/** A read first (the session touched, the life cycle brought up to date), then the digest. */
async function digestAfterRead(who: Person) {
  await call(ctx.app, who, 'GET', '/api/prenotazioni/user');
  // Reads compute the life cycle; the minute job writes it down (decision 035).
  await minuteJob(ctx);
  return JSON.stringify(await tableDigests(db(), WRITTEN_BY_REFUSALS));
}
const digestNow = async () => JSON.stringify(await tableDigests(db(), WRITTEN_BY_REFUSALS));

describe('the device time', () => {
  it('is used within the bounds, for the pick-up and the return; an offset is the same instant as Z; X-Ora-Applicata says dispositivo', async () => {
    const { u, bike, id } = await booked();
    const pickId = randomUUID();
    ctx.clock.set(at('09:10'));
    const picked = await pickUp(u, id, { idAzione: pickId, oraDispositivo: `${TOMORROW}T10:05:00+01:00` });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.headers[HEADER]).toBe('dispositivo');
    expect(picked.json()).toMatchObject({ id, stato: 'attiva', fase: 'in_corso', ritirataAt: iso('09:05') });
    expect(await bikeRow(bike)).toMatchObject({ stato: 'prenotata', statoAuto: true });
    expect(await actionRows()).toEqual([
      expect.objectContaining({ id: pickId, userId: u.id, prenotazioneId: id, tipo: 'ritiro', oraDispositivo: at('09:05'), oraApplicata: at('09:05'), fonteOra: 'dispositivo', createdAt: at('09:10') }),
    ]);

    ctx.clock.set(at('10:30'));
    const back = await giveBack(u, id, { idAzione: randomUUID(), oraDispositivo: iso('10:20') });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.headers[HEADER]).toBe('dispositivo');
    expect(back.json()).toMatchObject({ stato: 'completata', fase: 'conclusa', ritirataAt: iso('09:05'), riconsegnataAt: iso('10:20') });
    expect(await bikeRow(bike)).toMatchObject({ stato: 'disponibile' });
  });

  it('the bounds themselves: ritiroDa is a valid pick-up time, the pick-up instant a valid return time', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('08:55'));
    const picked = await pickUp(u, id, { oraDispositivo: iso('08:50') });
    expect(picked.headers[HEADER]).toBe('dispositivo');
    expect(picked.json().ritirataAt).toBe(iso('08:50'));
    ctx.clock.set(at('09:30'));
    const back = await giveBack(u, id, { oraDispositivo: iso('08:50') });
    expect(back.headers[HEADER]).toBe('dispositivo');
    expect(back.json()).toMatchObject({ ritirataAt: iso('08:50'), riconsegnataAt: iso('08:50') });
  });

  it('no body, an empty body or no oraDispositivo: the server time, X-Ora-Applicata server', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('08:55'));
    const picked = await pickUp(u, id);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.headers[HEADER]).toBe('server');
    expect(picked.json().ritirataAt).toBe(iso('08:55'));
    ctx.clock.set(at('09:40'));
    const back = await giveBack(u, id, { idAzione: randomUUID() });
    expect(back.headers[HEADER]).toBe('server');
    expect(back.json().riconsegnataAt).toBe(iso('09:40'));
    expect((await actionRows())[0]).toMatchObject({ oraDispositivo: null, oraApplicata: at('09:40'), fonteOra: 'server' });

    const second = await booked({ from: '14:00', to: '15:00' });
    ctx.clock.set(at('12:55'));
    const withEmptyBody = await pickUp(second.u, second.id, {});
    expect(withEmptyBody.statusCode, withEmptyBody.body).toBe(200);
    expect(withEmptyBody.json().ritirataAt).toBe(iso('12:55'));
    // JSON null is no body either.
    ctx.clock.set(at('13:30'));
    const withNull = await ctx.app.inject({
      method: 'POST',
      url: `/api/prenotazioni/${second.id}/riconsegna`,
      headers: { cookie: second.u.cookie, 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(withNull.statusCode, withNull.body).toBe(200);
    expect(withNull.headers[HEADER]).toBe('server');
    expect(withNull.json().riconsegnataAt).toBe(iso('13:30'));
  });

  it('in the future of the server clock: the server time, for the pick-up and the return', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('09:10'));
    const picked = await pickUp(u, id, { oraDispositivo: new Date(at('09:10').getTime() + 1).toISOString() });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.headers[HEADER]).toBe('server');
    expect(picked.json().ritirataAt).toBe(iso('09:10'));
    ctx.clock.set(at('10:00'));
    const back = await giveBack(u, id, { oraDispositivo: iso('10:05') });
    expect(back.headers[HEADER]).toBe('server');
    expect(back.json().riconsegnataAt).toBe(iso('10:00'));
  });

  it('before ritiroDa: the server time; refused as today when the server time is too early as well, nothing written', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('08:45'));
    const before = await digestAfterRead(u);
    const early = await pickUp(u, id, { idAzione: randomUUID(), oraDispositivo: iso('08:40') });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: 'Potrai ritirare la bicicletta dalle 09:50', code: 'TOO_EARLY' });
    expect(await digestNow()).toBe(before);

    ctx.clock.set(at('08:55'));
    const picked = await pickUp(u, id, { oraDispositivo: new Date(at('08:50').getTime() - 1).toISOString() });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.headers[HEADER]).toBe('server');
    expect(picked.json().ritirataAt).toBe(iso('08:55'));
  });

  it('a return before the pick-up instant: the server time', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('09:00'));
    expect((await pickUp(u, id)).statusCode).toBe(200);
    ctx.clock.set(at('09:40'));
    const back = await giveBack(u, id, { oraDispositivo: iso('08:59') });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.headers[HEADER]).toBe('server');
    expect(back.json()).toMatchObject({ ritirataAt: iso('09:00'), riconsegnataAt: iso('09:40') });
  });

  it('a return older than 24 hours: the server time (the ride stays late); 24 hours exactly is still the device time', async () => {
    const late = await booked();
    const edge = await booked();
    ctx.clock.set(at('09:00'));
    expect((await pickUp(late.u, late.id)).statusCode).toBe(200);
    expect((await pickUp(edge.u, edge.id)).statusCode).toBe(200);
    const now = new Date('2026-11-23T10:00:00.000Z');
    ctx.clock.set(now);
    const tooOld = await giveBack(late.u, late.id, { oraDispositivo: new Date(now.getTime() - 24 * 3_600_000 - 1).toISOString() });
    expect(tooOld.statusCode, tooOld.body).toBe(200);
    expect(tooOld.headers[HEADER]).toBe('server');
    expect(tooOld.json().riconsegnataAt).toBe(now.toISOString());
    const dayOld = await giveBack(edge.u, edge.id, { oraDispositivo: '2026-11-22T10:00:00.000Z' });
    expect(dayOld.headers[HEADER]).toBe('dispositivo');
    expect(dayOld.json().riconsegnataAt).toBe('2026-11-22T10:00:00.000Z');
  });

  it('a pick-up older than 24 hours: the server time, then refused as today (past the no-show instant)', async () => {
    const { u, id } = await booked();
    // No read in between: the booking is still attiva (nobody ran the life cycle).
    ctx.clock.set(new Date(at('09:05').getTime() + 24 * 3_600_000 + 1));
    const tooOld = await pickUp(u, id, { oraDispositivo: iso('09:05') });
    expect(tooOld.statusCode).toBe(409);
    expect(tooOld.json()).toMatchObject({ message: 'Il tempo per ritirare la bicicletta è scaduto', code: 'PICKUP_CLOSED' });
    expect((await bookingRow(id)).ritirataAt).toBeNull();
    ctx.clock.set(new Date(at('09:05').getTime() + 24 * 3_600_000));
    const dayOld = await pickUp(u, id, { oraDispositivo: iso('09:05') });
    expect(dayOld.statusCode, dayOld.body).toBe(200);
    expect(dayOld.json().ritirataAt).toBe(iso('09:05'));
  });
});

describe('the no-show instant and a late sync', () => {
  it('picked up before the no-show instant, synced after it while still attiva: picked up at the device time, and the life cycle keeps it', async () => {
    const late = await booked();
    const atTheInstant = await booked();
    const online = await booked();
    ctx.clock.set(at('09:45'));
    // Pressed at the no-show instant itself: too late by the device's clock as well.
    const closed = await pickUp(atTheInstant.u, atTheInstant.id, { oraDispositivo: iso('09:30') });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe('Il tempo per ritirare la bicicletta è scaduto');

    const picked = await pickUp(late.u, late.id, { idAzione: randomUUID(), oraDispositivo: iso('09:20') });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.headers[HEADER]).toBe('dispositivo');
    expect(picked.json()).toMatchObject({ stato: 'attiva', fase: 'in_corso', ritirataAt: iso('09:20') });
    expect(await bikeRow(late.bike)).toMatchObject({ stato: 'prenotata' });

    // The same instant without a device time: the life cycle runs first and releases it (today's rule).
    const refused = await pickUp(online.u, online.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('La prenotazione non è attiva');
    expect(await bookingRow(online.id)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'mancato_ritiro' });
    expect(await bookingRow(atTheInstant.id)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'mancato_ritiro' });
    // The ride picked up late is left alone by that life cycle run, and by the next ones.
    const list = await call(ctx.app, late.u, 'GET', '/api/prenotazioni/user');
    expect(list.json()[0]).toMatchObject({ id: late.id, stato: 'attiva', fase: 'in_corso', motivoCancellazione: null });
  });

  it('already released as a no-show: 409 with the message the user sees, nothing written, the id not spent', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('09:31'));
    const before = await digestAfterRead(u);
    expect((await bookingRow(id)).motivoCancellazione).toBe('mancato_ritiro');
    const actionId = randomUUID();
    const res = await pickUp(u, id, { idAzione: actionId, oraDispositivo: iso('09:20') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: MSG_NO_SHOW, code: 'NO_SHOW_RELEASED' });
    expect(res.headers[HEADER]).toBeUndefined();
    expect(await digestNow()).toBe(before);
    expect(await actionRows()).toEqual([]);
  });

  it('cancelled for another reason before the sync: 409 saying so', async () => {
    const { u, id } = await booked();
    expect((await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${id}`)).statusCode).toBe(200);
    ctx.clock.set(at('09:10'));
    const before = await digestAfterRead(u);
    const res = await pickUp(u, id, { idAzione: randomUUID(), oraDispositivo: iso('09:05') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: MSG_CANCELLED, code: 'CANCELLED' });
    expect(await digestNow()).toBe(before);
  });
});

describe('an action with an id is applied once', () => {
  it('a replayed pick-up: 200 with the booking as it is now, one effect; a pick-up without the id is refused as a second one', async () => {
    const { u, id } = await booked();
    const body = { idAzione: randomUUID(), oraDispositivo: iso('09:05') };
    ctx.clock.set(at('09:10'));
    const first = await pickUp(u, id, body);
    expect(first.statusCode, first.body).toBe(200);
    const updatedAt = (await bookingRow(id)).updatedAt;
    ctx.clock.set(at('09:20'));
    const again = await pickUp(u, id, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers[HEADER]).toBe('dispositivo');
    expect(again.json()).toEqual(first.json());
    expect((await bookingRow(id)).updatedAt).toEqual(updatedAt);
    expect(await actionRows()).toHaveLength(1);
    // Without the id it is a new pick-up, refused as today.
    const other = await pickUp(u, id);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe('Hai già segnato il ritiro di questa bicicletta');
    // Once returned (another action), a late replay of the pick-up shows the booking as it is now.
    ctx.clock.set(at('10:00'));
    expect((await giveBack(u, id, { idAzione: randomUUID() })).statusCode).toBe(200);
    const late = await pickUp(u, id, body);
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ stato: 'completata', ritirataAt: iso('09:05'), riconsegnataAt: iso('10:00') });
    expect(await actionRows()).toHaveLength(2);
  });

  it('ten replays of one pick-up at once, over two app instances with their own pools: all 200, one effect', async () => {
    const { u, id } = await booked();
    const second: Database = connectDatabase(ctx.database.url, { max: 10 });
    const otherApp = await buildApp({ config: ctx.config, database: second, clock: ctx.clock, mailer, logger: false });
    try {
      ctx.clock.set(at('09:40'));
      const body = { idAzione: randomUUID(), oraDispositivo: iso('09:25') };
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => pickUp(u, id, body, i % 2 ? otherApp : ctx.app)));
      expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      for (const r of answers) expect(r.json()).toMatchObject({ stato: 'attiva', ritirataAt: iso('09:25') });
      expect(new Set(answers.map((r) => r.headers[HEADER]))).toEqual(new Set(['dispositivo']));
      expect(await actionRows()).toHaveLength(1);
      expect((await bookingRow(id)).ritirataAt).toEqual(at('09:25'));
    } finally {
      await otherApp.close();
      await second.close();
    }
  });

  it('a return with a damage report replayed, ten at once and once more later: one report, one email per admin, all 200', async () => {
    await person(ctx, { ruolo: 'admin', email: 'staff2@test.it' });
    const { u, bike, id } = await booked();
    ctx.clock.set(at('09:00'));
    expect((await pickUp(u, id)).statusCode).toBe(200);
    ctx.clock.set(at('10:40'));
    const body = { idAzione: randomUUID(), oraDispositivo: iso('10:30'), danno: { categoria: 'freni', descrizione: 'Il freno posteriore non frena' } };
    const answers = await Promise.all(Array.from({ length: 10 }, () => giveBack(u, id, body)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    for (const r of answers) {
      expect(r.json()).toMatchObject({ stato: 'completata', riconsegnataAt: iso('10:30'), danno: body.danno });
      expect(r.headers[HEADER]).toBe('dispositivo');
    }
    expect(await damageCount()).toBe(1);
    expect(damageEmails().map((m) => m.to).sort()).toEqual(['staff2@test.it', 'staff@test.it']);
    expect(await bikeRow(bike)).toMatchObject({ stato: 'manutenzione' });
    const [report] = await db().select().from(interventi);
    expect(report).toMatchObject({ prenotazioneId: id, createdAt: at('10:30') });

    ctx.clock.set(at('11:30'));
    const later = await giveBack(u, id, body);
    expect(later.statusCode).toBe(200);
    expect(await damageCount()).toBe(1);
    expect(damageEmails()).toHaveLength(2);
    // Another id for the same return is a second return: refused as today.
    const second = await giveBack(u, id, { ...body, idAzione: randomUUID() });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('La prenotazione non è attiva');
    expect(await damageCount()).toBe(1);
  });

  it('a replayed early return runs no second waitlist pass: a wait written meanwhile is offered the bike only by a pass of its own', async () => {
    const { u, bike, id } = await booked();
    ctx.clock.set(at('09:00'));
    expect((await pickUp(u, id)).statusCode).toBe(200);
    ctx.clock.set(at('09:40'));
    const body = { idAzione: randomUUID(), oraDispositivo: iso('09:35') };
    expect((await giveBack(u, id, body)).statusCode).toBe(200);
    // Someone waits for the freed end of the window, written straight in (joining would run a pass).
    const waiter = await person(ctx);
    await db().execute(sql`
      insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, created_at)
      values (${waiter.id}, ${TOMORROW}, '11:00', '12:00', ${iso('10:00')}::timestamptz, ${iso('11:00')}::timestamptz, ${iso('09:40')}::timestamptz)`);
    const offers = async () => (await db().select({ n: count() }).from(prenotazioni).where(eq(prenotazioni.stato, 'offerta')))[0]!.n;
    const replay = await giveBack(u, id, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ stato: 'completata', riconsegnataAt: iso('09:35') });
    expect(await offers()).toBe(0);
    // A pass (the one the wait's own freed-time event runs) does offer it: the replay's would have.
    await ctx.app.freedTime.settled();
    const waits = await call(ctx.app, waiter, 'GET', '/api/attese');
    expect(waits.json()[0]).toMatchObject({ stato: 'offerta', offerta: { biciId: bike } });
    expect(await offers()).toBe(1);
  });

  it('the same id for another booking, another user or another kind: 409, nothing written', async () => {
    const a = await booked();
    const b = await booked();
    const actionId = randomUUID();
    ctx.clock.set(at('09:10'));
    expect((await pickUp(a.u, a.id, { idAzione: actionId, oraDispositivo: iso('09:05') })).statusCode).toBe(200);

    const before = await digestAfterRead(b.u);
    const otherUser = await pickUp(b.u, b.id, { idAzione: actionId, oraDispositivo: iso('09:05') });
    expect(otherUser.statusCode).toBe(409);
    expect(otherUser.json()).toEqual({ message: MSG_REUSED, code: 'ACTION_REUSED' });
    const otherKind = await giveBack(a.u, a.id, { idAzione: actionId });
    expect(otherKind.statusCode).toBe(409);
    expect(otherKind.json().message).toBe(MSG_REUSED);
    expect(await digestNow()).toBe(before);

    // The same user, another booking of theirs.
    ctx.clock.set(at('10:00'));
    expect((await giveBack(a.u, a.id)).statusCode).toBe(200);
    const next = await call(ctx.app, a.u, 'POST', '/api/prenotazioni', {
      dataPrenotazione: TOMORROW,
      orarioInizio: '12:00',
      orarioFine: '13:00',
      biciId: a.bike,
    });
    expect(next.statusCode, next.body).toBe(201);
    ctx.clock.set(at('10:55'));
    const beforeNext = await digestAfterRead(a.u);
    const otherBooking = await pickUp(a.u, next.json().id, { idAzione: actionId, oraDispositivo: iso('10:52') });
    expect(otherBooking.statusCode).toBe(409);
    expect(otherBooking.json().message).toBe(MSG_REUSED);
    expect(await digestNow()).toBe(beforeNext);
  });

  it('two bookings racing for one id: the insert that comes second waits for the first, and its whole transaction is undone (409)', async () => {
    const a = await booked();
    const b = await booked();
    const actionId = randomUUID();
    ctx.clock.set(at('09:10'));
    await call(ctx.app, b.u, 'GET', '/api/prenotazioni/user');
    await minuteJob(ctx);
    // A's pick-up holding the id, not committed yet (as another process would, mid-transaction).
    const holder = await ctx.database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query(
        `insert into azioni_offline (id, user_id, prenotazione_id, tipo, ora_applicata, fonte_ora, created_at)
         values ($1, $2, $3, 'ritiro', $4, 'server', $4)`,
        [actionId, a.u.id, a.id, at('09:10')],
      );
      const racing = pickUp(b.u, b.id, { idAzione: actionId, oraDispositivo: iso('09:05') });
      // B has done its pick-up and now waits on the id's key.
      await expect
        .poll(async () => {
          const { rows } = await ctx.database.pool.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into "azioni_offline"%'`,
          );
          return rows[0]!.n;
        }, { timeout: 10_000, interval: 20 })
        .toBe(1);
      await holder.query('commit');
      const res = await racing;
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: MSG_REUSED, code: 'ACTION_REUSED' });
    } finally {
      holder.release();
    }
    expect(await bookingRow(b.id)).toMatchObject({ stato: 'attiva', ritirataAt: null });
    expect(await bikeRow(b.bike)).toMatchObject({ stato: 'prenotata', statoAuto: true });
    expect((await actionRows()).map((r) => r.prenotazioneId)).toEqual([a.id]);
  });
});

describe('malformed idAzione or oraDispositivo', () => {
  it('400 in Italian naming the field, on both routes, nothing written', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('09:00'));
    expect((await pickUp(u, id)).statusCode).toBe(200);
    ctx.clock.set(at('09:10'));
    const { id: otherId, u: other } = await booked({ from: '14:00', to: '15:00' });
    const before = await digestAfterRead(u);
    const badIds = [
      randomUUID().toUpperCase(),
      randomUUID().replaceAll('-', ''),
      `{${randomUUID()}}`,
      `${randomUUID()} `,
      '',
      'azione-1',
      42,
      null,
      { id: randomUUID() },
    ];
    const badTimes = [
      '2026-11-22T09:05:00', // no offset: which instant?
      '2026-11-22 09:05:00Z',
      '2026-11-22T09:05Z', // no seconds
      '2026-02-30T09:05:00Z', // no such day
      '2026-11-22T24:00:00Z',
      '2026-11-22T09:05:00+0100',
      '22/11/2026 10:05',
      'adesso',
      '',
      1795573091283,
      null,
    ];
    for (const [route, who, bookingId] of [
      ['riconsegna', u, id],
      ['ritiro', other, otherId],
    ] as const) {
      for (const idAzione of badIds) {
        const res = await call(ctx.app, who, 'POST', `/api/prenotazioni/${bookingId}/${route}`, { idAzione, oraDispositivo: iso('09:05') });
        expect(res.statusCode, `${route} ${JSON.stringify(idAzione)}`).toBe(400);
        expect(res.json()).toMatchObject({ message: MSG_BAD_ID, code: 'VALIDATION_ERROR', fields: { idAzione: MSG_BAD_ID } });
      }
      for (const oraDispositivo of badTimes) {
        const res = await call(ctx.app, who, 'POST', `/api/prenotazioni/${bookingId}/${route}`, { idAzione: randomUUID(), oraDispositivo });
        expect(res.statusCode, `${route} ${JSON.stringify(oraDispositivo)}`).toBe(400);
        expect(res.json()).toMatchObject({ message: MSG_BAD_TIME, fields: { oraDispositivo: MSG_BAD_TIME } });
      }
    }
    expect(await digestNow()).toBe(before);
    expect(await actionRows()).toHaveLength(0);
  });
});

describe('keeping the ids', () => {
  it('the hourly purge job removes ids applied more than 30 days ago, and a booking deleted takes its ids along', async () => {
    const { u, id } = await booked();
    ctx.clock.set(at('09:00'));
    const old = randomUUID();
    expect((await pickUp(u, id, { idAzione: old })).statusCode).toBe(200);
    ctx.clock.set(at('09:30'));
    const recent = randomUUID();
    expect((await giveBack(u, id, { idAzione: recent })).statusCode).toBe(200);
    const purge = appJobs({ database: ctx.database, clock: ctx.clock, mailer, config: ctx.config, log: createLogger('silent') }).find(
      (j) => j.name === 'purge',
    )!;
    ctx.clock.set(new Date(at('09:00').getTime() + 30 * 24 * 3_600_000));
    await purge.run();
    expect((await actionRows()).map((r) => r.id).sort()).toEqual([old, recent].sort());
    ctx.clock.advance(1);
    await purge.run();
    expect((await actionRows()).map((r) => r.id)).toEqual([recent]);
    await db().delete(prenotazioni).where(eq(prenotazioni.id, id));
    expect(await actionRows()).toEqual([]);
  });

  it('migration 0013 comes after every earlier one (the migrator runs only migrations newer than the newest applied)', async () => {
    const journal = JSON.parse(await readFile(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as { entries: { tag: string; when: number }[] };
    const index = journal.entries.findIndex((e) => e.tag === '0013_offline_actions');
    expect(index).toBe(13);
    // 0012's instant (1795640000000) lay in the future when 0013 was generated: drizzle-kit's
    // own `Date.now()` would have put 0013 before it, and a database at 0012 would never get it.
    const earlier = Math.max(...journal.entries.slice(0, index).map((e) => e.when));
    expect(journal.entries[index]!.when).toBeGreaterThan(earlier);
    const applied = await db().execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied.rows[0]!.n).toBe(journal.entries.length);
  });
});
