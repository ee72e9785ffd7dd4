import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { biciclette, interventi, pagamenti, preferenzeUtente, prenotazioni } from '../../src/server/schema.js';
import { lifecycleJob } from '../../src/server/jobs/app-jobs.js';
import { createLogger } from '../../src/server/logger.js';
import { loadDayReport } from '../../src/server/modules/reports/data.js';
import { computeStats } from '../../src/server/modules/stats/service.js';
import type { PushPayload } from '../../src/server/modules/notifications/notify.js';
import { minuteJob } from '../helpers/minute-job.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';

/**
 * The ride (issue 13, decision 022) at chosen instants. TEST_NOW is 2026-11-21 10:00 in
 * Rome; the usual booking is tomorrow 10:00–12:00 Rome (09:00–11:00Z). NO_SHOW_MINUTES 30.
 */
let ctx: TestContext;
const mailer = capturingMailer();
const TOMORROW = '2026-11-22';
const at = (hhmmZ: string) => new Date(`${TOMORROW}T${hhmmZ}:00Z`);
let admin: Person;
let pushed: { userId: number; payload: PushPayload }[] = [];

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
  pushed = [];
  admin = await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
});

const db = () => ctx.database.db;
const log = createLogger('silent');
const jobDeps = (database: Database = ctx.database) => ({
  database,
  clock: ctx.clock,
  mailer,
  config: ctx.config,
  log,
  push: {
    async send(userId: number, payload: PushPayload) {
      pushed.push({ userId, payload });
    },
  },
});
const runJob = (database: Database = ctx.database) => lifecycleJob(jobDeps(database))();

async function book(who: Person, biciId: number, window: { date?: string; from?: string; to?: string } = {}) {
  return call(ctx.app, who, 'POST', '/api/prenotazioni', {
    dataPrenotazione: window.date ?? TOMORROW,
    orarioInizio: window.from ?? '10:00',
    orarioFine: window.to ?? '12:00',
    biciId,
  });
}
async function bookId(who: Person, biciId: number, window: { date?: string; from?: string; to?: string } = {}) {
  const res = await book(who, biciId, window);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const pickUp = (who: Person, id: number) => call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/ritiro`);
const giveBack = (who: Person, id: number, body?: object) => call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/riconsegna`, body);
const mine = async (who: Person, id: number) => {
  const res = await call(ctx.app, who, 'GET', '/api/prenotazioni/user');
  return (res.json() as { id: number }[]).find((b) => b.id === id) as Record<string, unknown>;
};
const bikeRow = async (id: number) => (await db().select().from(biciclette).where(eq(biciclette.id, id)))[0]!;
const available = async (who: Person, window: { from: string; to: string }) => {
  const res = await call(ctx.app, who, 'POST', '/api/biciclette/available', {
    dataPrenotazione: TOMORROW,
    orarioInizio: window.from,
    orarioFine: window.to,
  });
  return (res.json() as { id: number }[]).map((b) => b.id);
};

describe('pick-up', () => {
  it('refused too early, allowed from 10 minutes before the start, refused twice', async () => {
    const u = await person(ctx);
    const bike = await insertBike(db());
    const id = await bookId(u, bike);
    const created = await mine(u, id);
    expect(created).toMatchObject({
      fase: 'da_ritirare',
      ritirataAt: null,
      riconsegnataAt: null,
      motivoCancellazione: null,
      danno: null,
      ritiroDa: '2026-11-22T08:50:00.000Z',
    });

    ctx.clock.set('2026-11-22T08:49:59Z');
    const early = await pickUp(u, id);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Potrai ritirare la bicicletta dalle 09:50');

    ctx.clock.set('2026-11-22T08:50:00Z'); // 09:50 in Rome: in the grace before the start
    const ok = await pickUp(u, id);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id, stato: 'attiva', fase: 'in_corso', ritirataAt: '2026-11-22T08:50:00.000Z' });
    expect(await bikeRow(bike)).toMatchObject({ stato: 'prenotata', statoAuto: true });

    const twice = await pickUp(u, id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Hai già segnato il ritiro di questa bicicletta');

    // Another user's booking is 404, as a missing one.
    const other = await person(ctx);
    expect((await pickUp(other, id)).statusCode).toBe(404);
    // Once picked up, the owner cannot cancel: the bike is returned instead.
    const cancel = await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${id}`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe('Hai già ritirato la bicicletta: riconsegnala');
  });

  it('an external booking must be paid first; unpaid, its hold runs out with reason pagamento_scaduto', async () => {
    const ext = await person(ctx, { residente: false });
    const bike = await insertBike(db());
    const id = await bookId(ext, bike, { date: '2026-11-21', from: '10:20', to: '11:00' });
    ctx.clock.set('2026-11-21T09:12:00Z'); // 10:12: inside the pick-up grace, still unpaid
    const unpaid = await pickUp(ext, id);
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().message).toBe('Completa il pagamento prima del ritiro');
    ctx.clock.set('2026-11-21T09:20:00Z'); // its start: the hold is released
    expect(await mine(ext, id)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'pagamento_scaduto', fase: 'cancellata' });
  });

  it('an owner cancelling before the pick-up records reason utente', async () => {
    const u = await person(ctx);
    const id = await bookId(u, await insertBike(db()));
    const res = await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${id}`);
    expect(res.json()).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'utente', fase: 'cancellata' });
  });
});

describe('no-show', () => {
  it('not picked up by start + 30 minutes: cancellata, mancato_ritiro, bike free, a paid booking not refunded', async () => {
    const ext = await person(ctx, { residente: false });
    const other = await person(ctx);
    const bike = await insertBike(db());
    const id = await bookId(ext, bike);
    // Paid (as settle.ts would record it).
    await db()
      .update(pagamenti)
      .set({ status: 'completed', providerPaymentId: 'pi_test_noshow', completedAt: TEST_NOW })
      .where(eq(pagamenti.prenotazioneId, id));
    ctx.clock.set('2026-11-22T09:29:59Z');
    await minuteJob(ctx);
    expect(await mine(ext, id)).toMatchObject({ stato: 'attiva', fase: 'da_ritirare' });
    expect((await bikeRow(bike)).stato).toBe('prenotata');
    expect(await available(other, { from: '10:40', to: '11:00' })).not.toContain(bike);
    ctx.clock.set('2026-11-22T09:30:00Z');
    expect(await mine(ext, id)).toMatchObject({
      stato: 'cancellata',
      motivoCancellazione: 'mancato_ritiro',
      fase: 'cancellata',
      paymentStatus: 'completed',
    });
    await minuteJob(ctx);
    expect((await bikeRow(bike)).stato).toBe('disponibile');
    expect(await available(other, { from: '10:40', to: '11:00' })).toContain(bike);
    const late = await pickUp(ext, id);
    expect(late.statusCode).toBe(409);
    const stats = await computeStats({ db: db(), clock: ctx.clock, config: ctx.config }, 7);
    expect(stats.days.find((d) => d.date === TOMORROW)).toMatchObject({ noShows: 1 });
    const report = await loadDayReport(db(), TOMORROW, ctx.clock.now(), 'Europe/Rome');
    expect(report.rides).toContainEqual({ label: 'Non ritirate', value: '1' });
    expect(report.rows[0]!.stato).toBe('Non ritirata');
  });

  it('a booking shorter than the no-show delay is released at its end', async () => {
    const u = await person(ctx);
    const id = await bookId(u, await insertBike(db()), { from: '10:00', to: '10:20' });
    ctx.clock.set('2026-11-22T09:19:59Z');
    expect((await mine(u, id)).stato).toBe('attiva');
    ctx.clock.set('2026-11-22T09:20:00Z');
    expect(await mine(u, id)).toMatchObject({ stato: 'cancellata', motivoCancellazione: 'mancato_ritiro' });
  });

  it('honours NO_SHOW_MINUTES', async () => {
    const custom = await createTestApp({ env: { NO_SHOW_MINUTES: '10' } });
    try {
      const u = await person(custom);
      const [bike] = await custom.database.db.insert(biciclette).values({ numero: 'N1', modello: 'City' }).returning();
      const res = await call(custom.app, u, 'POST', '/api/prenotazioni', {
        dataPrenotazione: TOMORROW,
        orarioInizio: '10:00',
        orarioFine: '12:00',
        biciId: bike!.id,
      });
      custom.clock.set('2026-11-22T09:10:00Z');
      const list = await call(custom.app, u, 'GET', '/api/prenotazioni/user');
      expect(list.json()[0]).toMatchObject({ id: res.json().id, motivoCancellazione: 'mancato_ritiro' });
    } finally {
      await custom.close();
    }
  });
});

describe('return', () => {
  it('completes the booking at once; an early return frees the rest of the window for another user', async () => {
    const u = await person(ctx);
    const other = await person(ctx);
    const bike = await insertBike(db());
    const id = await bookId(u, bike);
    ctx.clock.set(at('09:00'));
    expect((await pickUp(u, id)).statusCode).toBe(200);
    expect(await available(other, { from: '11:00', to: '12:00' })).not.toContain(bike);
    ctx.clock.set(at('09:45')); // 10:45 in Rome
    const res = await giveBack(u, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      stato: 'completata',
      fase: 'conclusa',
      riconsegnataAt: at('09:45').toISOString(),
      danno: null,
    });
    expect(await bikeRow(bike)).toMatchObject({ stato: 'disponibile', statoAuto: false });
    expect(await available(other, { from: '11:00', to: '12:00' })).toContain(bike);
    expect((await book(other, bike, { from: '11:00', to: '12:00' })).statusCode).toBe(201);
    // Done once: a second return is refused.
    expect((await giveBack(u, id)).statusCode).toBe(409);
  });

  it('before the pick-up is refused, and the database itself refuses it', async () => {
    const u = await person(ctx);
    const id = await bookId(u, await insertBike(db()));
    ctx.clock.set(at('09:05'));
    const res = await giveBack(u, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Non hai ancora ritirato la bicicletta');
    // Straight in SQL: returned without a pick-up, and returned before the pick-up.
    await expect(
      db().execute(sql`update prenotazioni set stato = 'completata', riconsegnata_at = ${at('09:05').toISOString()}::timestamptz where id = ${id}`),
    ).rejects.toMatchObject({ cause: { constraint: 'prenotazioni_riconsegna_dopo_ritiro' } });
    await expect(
      db().execute(sql`update prenotazioni set stato = 'completata', ritirata_at = ${at('09:05').toISOString()}::timestamptz,
                          riconsegnata_at = ${at('09:04').toISOString()}::timestamptz where id = ${id}`),
    ).rejects.toMatchObject({ cause: { constraint: 'prenotazioni_riconsegna_dopo_ritiro' } });
    // And a picked-up booking cannot be cancelled except by an admin.
    await expect(
      db().execute(sql`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente',
                          ritirata_at = ${at('09:05').toISOString()}::timestamptz where id = ${id}`),
    ).rejects.toMatchObject({ cause: { constraint: 'prenotazioni_ritiro_non_cancellata' } });
  });

  it('with damage: a repair ticket opened, bike in manutenzione, every active admin told (no workshop at the sede; text only), listed and resolved on /admin', async () => {
    const second = await person(ctx, { ruolo: 'admin', email: 'staff2@test.it' });
    await person(ctx, { ruolo: 'admin', email: 'gone@test.it', attiva: false });
    const u = await person(ctx, { nome: 'Mario', cognome: 'Bianchi' });
    const bike = await insertBike(db(), { numero: '07' });
    const id = await bookId(u, bike);
    ctx.clock.set(at('09:00'));
    await pickUp(u, id);
    ctx.clock.set(at('10:30'));

    const invalid = await giveBack(u, id, { danno: { descrizione: 'rotto' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('Scegli il tipo di danno');
    const empty = await giveBack(u, id, { danno: { categoria: 'freni', descrizione: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Descrivi il danno (al massimo 500 caratteri)');
    expect((await giveBack(u, id, { danno: { categoria: 'freni', descrizione: 'x'.repeat(501) } })).statusCode).toBe(400);

    const text = 'Freno <b>posteriore</b> & "morbido"';
    const res = await giveBack(u, id, { danno: { categoria: 'freni', descrizione: text } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stato: 'completata', danno: { categoria: 'freni', descrizione: text } });
    expect(await bikeRow(bike)).toMatchObject({ stato: 'manutenzione', statoAuto: false });

    // The new ticket's notice (issue 48): the sede has no `Officina`, so every active admin; plain text, never HTML.
    const emails = mailer.sent.filter((m) => m.subject === 'Nuovo intervento: bici n. 07');
    expect(emails.map((m) => m.to).sort()).toEqual(['staff2@test.it', 'staff@test.it']);
    expect(emails[0]!.text).toContain(text);
    expect(emails[0]!.html).toBeUndefined();

    const list = await call(ctx.app, second, 'GET', '/api/admin/danni');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        prenotazioneId: id,
        biciNumero: '07',
        biciStato: 'manutenzione',
        utente: 'Mario Bianchi',
        categoria: 'freni',
        descrizione: text,
        risoltaAt: null,
      }),
    ]);
    const summary = await call(ctx.app, admin, 'GET', '/api/admin/summary');
    expect(summary.json()).toMatchObject({ danniAperti: 1, ritardi: 0 });

    const damageId = list.json()[0].id as number;
    const resolved = await call(ctx.app, admin, 'POST', `/api/admin/danni/${damageId}/risolta`);
    expect(resolved.statusCode).toBe(200);
    // Resolved is `riparata` (issue 48): the bike is back, no other ticket keeping it out.
    expect(resolved.json()).toMatchObject({ id: damageId, risoltaAt: at('10:30').toISOString(), biciStato: 'disponibile' });
    expect((await call(ctx.app, admin, 'POST', `/api/admin/danni/${damageId}/risolta`)).statusCode).toBe(409);
    expect((await call(ctx.app, admin, 'POST', '/api/admin/danni/999999/risolta')).statusCode).toBe(404);
    expect((await auditRows(db()))[0]).toMatchObject({ action: 'damage.resolve', entity: 'damage', entityId: String(damageId) });
    expect((await call(ctx.app, admin, 'GET', '/api/admin/summary')).json()).toMatchObject({ danniAperti: 0 });
    // The day's report and the statistics count the ride and its damage report.
    const report = await loadDayReport(db(), TOMORROW, ctx.clock.now(), 'Europe/Rome');
    expect(report.rides).toEqual([
      { label: 'Ritirate', value: '1' },
      { label: 'Riconsegnate', value: '1' },
      { label: 'Non ritirate', value: '0' },
      { label: 'In ritardo', value: '0' },
      { label: 'Danni segnalati', value: '1' },
    ]);
    expect(report.damages).toEqual([{ ora: '11:30', bici: 'n. 07', categoria: 'Freni', descrizione: text, utente: 'Mario Bianchi' }]);
    const stats = await computeStats({ db: db(), clock: ctx.clock, config: ctx.config }, 7);
    expect(stats.days.find((d) => d.date === TOMORROW)).toMatchObject({ damageReports: 1, noShows: 0 });
    expect(stats.totals).toMatchObject({ damageReports: 1 });
    // A second report for the same booking is impossible (one per booking).
    await expect(
      db().insert(interventi).values({ prenotazioneId: id, biciId: bike, origine: 'riconsegna', categoria: 'luci', descrizione: 'x' }),
    ).rejects.toBeDefined();
  });
});

describe('overdue', () => {
  it('in ritardo after its end: bike kept, not bookable; user, admins and the next booking emailed once; admin releases it', async () => {
    const u = await person(ctx, { nome: 'Lia', cognome: 'Neri' });
    const next = await person(ctx, { nome: 'Ugo', cognome: 'Next' });
    const third = await person(ctx);
    const bike = await insertBike(db(), { numero: '05' });
    const id = await bookId(u, bike);
    const nextId = await bookId(next, bike, { from: '14:00', to: '15:00' });
    ctx.clock.set(at('09:00'));
    await pickUp(u, id);

    ctx.clock.set(at('11:00')); // 12:00 in Rome: the end, not returned
    expect(await mine(u, id)).toMatchObject({ stato: 'attiva', fase: 'in_ritardo' });
    expect((await bikeRow(bike)).stato).toBe('prenotata');
    expect(await available(third, { from: '12:30', to: '13:00' })).not.toContain(bike);
    const refused = await book(third, bike, { from: '12:30', to: '13:00' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('La bicicletta non è disponibile nella fascia oraria scelta');

    const first = await runJob();
    expect(first).toMatchObject({ overdue: 1, nextWarned: 1 });
    const subjects = mailer.sent.map((m) => [m.to, m.subject]);
    expect(subjects).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/@test\.it$/), 'La bicicletta n. 05 è in ritardo'],
        [expect.stringMatching(/@test\.it$/), 'La bicicletta n. 05 potrebbe non essere pronta'],
        ['staff@test.it', 'BiciElis: 1 bicicletta in ritardo'],
      ]),
    );
    expect(mailer.sent).toHaveLength(3);
    expect(mailer.sent.find((m) => m.subject.startsWith('BiciElis: 1'))!.text).toContain('Lia Neri');
    expect(pushed.map((p) => p.userId).sort()).toEqual([u.id, next.id].sort());
    ctx.clock.set(at('11:05'));
    await runJob();
    expect(mailer.sent).toHaveLength(3);

    const late = await call(ctx.app, admin, 'GET', '/api/admin/ritardi');
    expect(late.json()).toEqual([
      expect.objectContaining({ id, utente: 'Lia Neri', biciNumero: '05', minutiRitardo: 5, prossima: expect.objectContaining({ id: nextId, utente: 'Ugo Next' }) }),
    ]);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/summary')).json()).toMatchObject({ ritardi: 1 });
    const filtered = await call(ctx.app, admin, 'GET', '/api/admin/prenotazioni?fase=in_ritardo');
    expect(filtered.json()).toEqual([expect.objectContaining({ id, fase: 'in_ritardo', ritirataAt: at('09:00').toISOString() })]);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/prenotazioni?fase=da_ritirare')).json().map((r: { id: number }) => r.id)).toEqual([nextId]);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/prenotazioni?fase=boh')).statusCode).toBe(400);

    // Released by an admin: completed now, the bike free and bookable again.
    expect((await call(ctx.app, admin, 'POST', `/api/admin/prenotazioni/${nextId}/rilascia`)).statusCode).toBe(409);
    const released = await call(ctx.app, admin, 'POST', `/api/admin/prenotazioni/${id}/rilascia`);
    expect(released.statusCode).toBe(200);
    expect(await mine(u, id)).toMatchObject({ stato: 'completata', fase: 'conclusa', riconsegnataAt: at('11:05').toISOString() });
    expect((await auditRows(db()))[0]).toMatchObject({ action: 'booking.release', entity: 'booking', entityId: String(id) });
    expect((await bikeRow(bike)).stato).toBe('disponibile');
    expect((await book(third, bike, { from: '12:30', to: '13:00' })).statusCode).toBe(201);
    expect(await call(ctx.app, admin, 'GET', '/api/admin/ritardi').then((r) => r.json())).toEqual([]);
  });
});

describe('reminders', () => {
  it('30 minutes before the start and 15 before the end, each once even with two processes running the job at once', async () => {
    const u = await person(ctx);
    const bike = await insertBike(db(), { numero: '03' });
    const id = await bookId(u, bike);
    const other = connectDatabase(ctx.database.url, { max: 4 });
    try {
      ctx.clock.set(at('08:29'));
      await Promise.all([runJob(), runJob(other)]);
      expect(mailer.sent).toHaveLength(0);
      ctx.clock.set(at('08:30')); // 09:30 in Rome
      await Promise.all([runJob(), runJob(other), runJob(), runJob(other)]);
      expect(mailer.sent.map((m) => m.subject)).toEqual(['Promemoria: la tua bicicletta alle 10:00']);
      expect(pushed).toEqual([{ userId: u.id, payload: expect.objectContaining({ url: 'http://localhost:3000/dashboard' }) }]);

      ctx.clock.set(at('09:00'));
      await pickUp(u, id);
      ctx.clock.set(at('10:44'));
      await Promise.all([runJob(), runJob(other)]);
      expect(mailer.sent).toHaveLength(1);
      ctx.clock.set(at('10:45')); // 11:45 in Rome
      await Promise.all([runJob(), runJob(other), runJob(), runJob(other)]);
      expect(mailer.sent.map((m) => m.subject)).toEqual([
        'Promemoria: la tua bicicletta alle 10:00',
        'Promemoria: riconsegna la bicicletta entro le 12:00',
      ]);
      const [row] = await db().select().from(prenotazioni).where(eq(prenotazioni.id, id));
      expect(row).toMatchObject({ promemoriaInizioAt: at('08:30'), promemoriaFineAt: at('10:45') });
    } finally {
      await other.close();
    }
  });

  it('none for a user who turned them off; none for a booking made inside the half hour', async () => {
    const quiet = await person(ctx);
    await db().insert(preferenzeUtente).values({ userId: quiet.id, promemoria: false });
    const id = await bookId(quiet, await insertBike(db()));
    const hurried = await person(ctx);
    ctx.clock.set(at('08:40'));
    await bookId(hurried, await insertBike(db()), { from: '10:00', to: '11:00' });
    ctx.clock.set(at('08:45'));
    await runJob();
    ctx.clock.set(at('09:00'));
    await pickUp(quiet, id);
    ctx.clock.set(at('10:50'));
    await runJob();
    expect(mailer.sent).toHaveLength(0);
    expect(pushed).toHaveLength(0);
  });
});
