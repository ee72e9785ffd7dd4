import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codiciCorsa, lucchetti, pagamenti } from '../../src/server/schema.js';
import { minuteJob } from '../helpers/minute-job.js';
import { lifecycleJob } from '../../src/server/jobs/app-jobs.js';
import { SimulatedLockProvider } from '../../src/server/integrations/locks/index.js';
import { createLogger } from '../../src/server/logger.js';
import { moveBooking } from '../../src/server/modules/bookings/relocate.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { auditRows, call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';

/**
 * The lock codes (issue 34, decision 044) at chosen instants. TEST_NOW is 2026-11-21 10:00 in
 * Rome; the usual booking is tomorrow 10:00–12:00 Rome (09:00–11:00Z): its code shows from 09:50.
 */
let ctx: TestContext;
const mailer = capturingMailer();
const provider = new SimulatedLockProvider();
const TOMORROW = '2026-11-22';
let admin: Person;

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer, lockProvider: provider } });
});
afterAll(async () => {
  await ctx?.close();
});
beforeEach(async () => {
  await truncateAll(ctx.database.db);
  ctx.clock.set(TEST_NOW);
  mailer.sent.length = 0;
  provider.clearFailures();
  admin = await person(ctx, { ruolo: 'admin', email: 'staff@test.it' });
});

const db = () => ctx.database.db;

async function bookId(who: Person, biciId: number, window: { date?: string; from?: string; to?: string } = {}) {
  const res = await call(ctx.app, who, 'POST', '/api/prenotazioni', {
    dataPrenotazione: window.date ?? TOMORROW,
    orarioInizio: window.from ?? '10:00',
    orarioFine: window.to ?? '12:00',
    biciId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const code = (who: Person, id: number) => call(ctx.app, who, 'GET', `/api/prenotazioni/${id}/codice`);
const pickUp = (who: Person, id: number, body?: object) => call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/ritiro`, body);
const giveBack = (who: Person, id: number, body?: object) => call(ctx.app, who, 'POST', `/api/prenotazioni/${id}/riconsegna`, body);
const setLock = (id: number, body: object) => call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${id}/lucchetto`, body);
const lockRow = async (biciId: number) => (await db().select().from(lucchetti).where(eq(lucchetti.biciId, biciId)))[0];
const adminLock = async (biciId: number) => {
  const res = await call(ctx.app, admin, 'GET', '/api/admin/biciclette');
  expect(res.statusCode).toBe(200);
  return (res.json() as { id: number; lucchetto: unknown }[]).find((b) => b.id === biciId)!.lucchetto;
};
async function combinationBike(codice = '4821') {
  const bike = await insertBike(db());
  const res = await setLock(bike, { tipo: 'combinazione', codice });
  expect(res.statusCode, res.body).toBe(200);
  return bike;
}

describe('the admin sets a bike’s lock', () => {
  it('none by default; a combination, a smart lock, none again; each change audited with the code masked', async () => {
    const bike = await insertBike(db());
    expect(await adminLock(bike)).toEqual({ tipo: 'nessuno', codice: null, idLucchetto: null, codiceDaCambiare: false });

    const set = await setLock(bike, { tipo: 'combinazione', codice: '4821' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ tipo: 'combinazione', codice: '4821', idLucchetto: null, codiceDaCambiare: false });
    expect(await adminLock(bike)).toEqual(set.json());

    const smart = await setLock(bike, { tipo: 'smart', idLucchetto: ' TT-9931 ' });
    expect(smart.json()).toEqual({ tipo: 'smart', codice: null, idLucchetto: 'TT-9931', codiceDaCambiare: false });

    const none = await setLock(bike, { tipo: 'nessuno' });
    expect(none.json()).toEqual({ tipo: 'nessuno', codice: null, idLucchetto: null, codiceDaCambiare: false });
    expect(await lockRow(bike)).toBeUndefined();

    const audit = (await auditRows(db())).filter((r) => r.action === 'bike.lock');
    expect(audit).toHaveLength(3);
    expect(audit.at(-1)).toMatchObject({
      entity: 'bike',
      entityId: String(bike),
      before: { tipo: 'nessuno' },
      after: { tipo: 'combinazione', codice: '••••' },
    });
    expect(JSON.stringify(audit)).not.toContain('4821');
  });

  it('a code not of exactly 4 digits is refused with the issue’s sentence, and nothing changes', async () => {
    const bike = await combinationBike('1357');
    for (const codice of ['482', '48a1', '48211', '', 4821, null]) {
      const res = await setLock(bike, { tipo: 'combinazione', codice });
      expect(res.statusCode, JSON.stringify(codice)).toBe(400);
      expect(res.json().message).toBe('Il codice deve essere di 4 cifre');
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await setLock(bike, { tipo: 'combinazione' })).json().message).toBe('Il codice deve essere di 4 cifre');
    expect((await setLock(bike, { tipo: 'lucchetto' })).statusCode).toBe(400);
    expect((await setLock(bike, { tipo: 'smart', idLucchetto: '  ' })).statusCode).toBe(400);
    expect(await adminLock(bike)).toMatchObject({ tipo: 'combinazione', codice: '1357' });
    expect((await auditRows(db())).filter((r) => r.action === 'bike.lock')).toHaveLength(1);
  });

  it('an unknown bike is 404; a user is refused', async () => {
    const res = await setLock(9999, { tipo: 'nessuno' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Bicicletta non trovata');
    const u = await person(ctx);
    const bike = await insertBike(db());
    expect((await call(ctx.app, u, 'PUT', `/api/admin/biciclette/${bike}/lucchetto`, { tipo: 'nessuno' })).statusCode).toBe(403);
  });
});

describe('the rider’s code', () => {
  it('from 10 minutes before the start, to the minute; no-store; the booking says the lock’s kind only', async () => {
    const u = await person(ctx);
    const bike = await combinationBike('4821');
    const id = await bookId(u, bike);
    const list = await call(ctx.app, u, 'GET', '/api/prenotazioni/user');
    expect(list.json()[0]).toMatchObject({ id, lucchetto: 'combinazione' });

    ctx.clock.set('2026-11-22T08:49:59Z'); // 09:49:59 in Rome
    const early = await code(u, id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: 'Il codice sarà visibile dalle 09:50', code: 'CODE_NOT_YET' });

    ctx.clock.set('2026-11-22T08:50:00Z');
    const ok = await code(u, id);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.json()).toEqual({
      tipo: 'combinazione',
      codice: '4821',
      validoDa: '2026-11-22T08:50:00.000Z',
      validoFino: '2026-11-22T11:00:00.000Z',
    });
    expect((await db().select().from(codiciCorsa).where(eq(codiciCorsa.prenotazioneId, id)))[0]?.mostratoAt).toEqual(
      new Date('2026-11-22T08:50:00Z'),
    );
  });

  it('someone else’s or an unknown booking is 404; an anonymous caller 401', async () => {
    const u = await person(ctx);
    const other = await person(ctx);
    const id = await bookId(u, await combinationBike());
    ctx.clock.set('2026-11-22T09:00:00Z');
    const res = await code(other, id);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Prenotazione non trovata');
    expect((await code(u, 999_999)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/prenotazioni/${id}/codice` })).statusCode).toBe(401);
  });

  it('an unpaid booking first pays; a cancelled, released or returned one has no code', async () => {
    const ext = await person(ctx, { residente: false });
    const bike = await combinationBike();
    // Today 10:20–11:00 Rome, booked at 10:00: its payment hold still runs at 10:12.
    const id = await bookId(ext, bike, { date: '2026-11-21', from: '10:20', to: '11:00' });
    ctx.clock.set('2026-11-21T09:12:00Z');
    const unpaid = await code(ext, id);
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json()).toMatchObject({ message: 'Completa il pagamento per vedere il codice', code: 'PAYMENT_REQUIRED' });
    await db().update(pagamenti).set({ status: 'completed', providerPaymentId: 'pi_test_code', completedAt: TEST_NOW }).where(eq(pagamenti.prenotazioneId, id));
    expect((await code(ext, id)).statusCode).toBe(200);

    // An unpaid hold that ran out is over: no code.
    const late = await person(ctx, { residente: false });
    const expired = await bookId(late, await combinationBike(), { date: '2026-11-21', from: '10:20', to: '11:00' });
    ctx.clock.set('2026-11-21T09:20:00Z');
    expect((await code(late, expired)).json().code).toBe('CODE_GONE');

    // Returned.
    expect((await pickUp(ext, id)).statusCode).toBe(200);
    expect((await code(ext, id)).statusCode).toBe(200); // in progress: still shown
    expect((await giveBack(ext, id)).statusCode).toBe(200);
    const gone = await code(ext, id);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ message: 'Il codice non è più disponibile', code: 'CODE_GONE' });

    // Cancelled by its owner.
    const u = await person(ctx);
    const cancelled = await bookId(u, bike, { from: '14:00', to: '15:00' });
    expect((await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${cancelled}`)).statusCode).toBe(200);
    expect((await code(u, cancelled)).json().code).toBe('CODE_GONE');

    // Released as a no-show (read as of now: no job needed).
    const w = await person(ctx);
    const released = await bookId(w, await combinationBike(), { from: '10:00', to: '12:00' });
    ctx.clock.set('2026-11-22T09:30:00Z');
    expect((await code(w, released)).json().code).toBe('CODE_GONE');
  });

  it('a bike without a lock answers a null code in the window', async () => {
    const u = await person(ctx);
    const id = await bookId(u, await insertBike(db()));
    ctx.clock.set('2026-11-22T09:10:00Z');
    const res = await code(u, id);
    expect(res.json()).toEqual({ tipo: 'nessuno', codice: null, validoDa: '2026-11-22T08:50:00.000Z', validoFino: '2026-11-22T11:00:00.000Z' });
  });
});

describe('the code rotates at each return', () => {
  it('drawn at the pick-up, set at the return; the next rider waits for the return, then reads the new one', async () => {
    const first = await person(ctx);
    const next = await person(ctx);
    const bike = await combinationBike('4821');
    const a = await bookId(first, bike, { from: '10:00', to: '11:00' });
    const b = await bookId(next, bike, { from: '11:00', to: '12:00' });

    ctx.clock.set('2026-11-22T08:55:00Z');
    expect((await code(first, a)).json().codice).toBe('4821');
    const taken = await pickUp(first, a);
    expect(taken.statusCode).toBe(200);
    const nuovo = taken.json().nuovoCodice as string;
    expect(nuovo).toMatch(/^[0-9]{4}$/);
    expect(nuovo).not.toBe('4821');
    expect(taken.headers['cache-control']).toBe('no-store');
    // Never in a list.
    const list = await call(ctx.app, first, 'GET', '/api/prenotazioni/user');
    expect(list.body).not.toContain(nuovo === '4821' ? 'x' : `"${nuovo}"`);
    expect(list.json()[0]).not.toHaveProperty('nuovoCodice');

    // The next rider's window opens while the first ride is out: the old code is not shown again.
    ctx.clock.set('2026-11-22T09:52:00Z');
    const updating = await code(next, b);
    expect(updating.statusCode).toBe(409);
    expect(updating.json()).toMatchObject({ message: 'Codice in aggiornamento: rivolgiti alla segreteria', code: 'CODE_UPDATING' });
    // The rider out keeps seeing the code of the lock they opened.
    expect((await code(first, a)).json().codice).toBe('4821');

    const back = await giveBack(first, a);
    expect(back.statusCode).toBe(200);
    expect(back.json().nuovoCodice).toBe(nuovo);
    expect((await lockRow(bike))?.codice).toBe(nuovo);
    const now = await code(next, b);
    expect(now.statusCode).toBe(200);
    expect(now.json().codice).toBe(nuovo);
  });

  it('offline: a device-drawn code is kept; one equal to the current code or malformed gives way to the server’s', async () => {
    const u = await person(ctx);
    const bike = await combinationBike('4821');
    const id = await bookId(u, bike);
    ctx.clock.set('2026-11-22T09:05:00Z');
    const device = await pickUp(u, id, { idAzione: crypto.randomUUID(), oraDispositivo: '2026-11-22T09:01:00.000Z', nuovoCodice: '0042' });
    expect(device.statusCode, device.body).toBe(200);
    expect(device.json().nuovoCodice).toBe('0042');
    expect((await giveBack(u, id)).json().nuovoCodice).toBe('0042');
    expect((await lockRow(bike))?.codice).toBe('0042');

    for (const [i, sent] of ['0042', '42', 'abcd'].entries()) {
      const v = await person(ctx);
      const vid = await bookId(v, bike, { from: `${13 + i}:00`, to: `${13 + i}:30` });
      ctx.clock.set(`2026-11-22T${12 + i}:00:00Z`);
      const res = await pickUp(v, vid, { idAzione: crypto.randomUUID(), oraDispositivo: `2026-11-22T${12 + i}:00:00.000Z`, nuovoCodice: sent });
      expect(res.statusCode, res.body).toBe(200);
      const current = (await lockRow(bike))!.codice;
      expect(res.json().nuovoCodice).toMatch(/^[0-9]{4}$/);
      expect(res.json().nuovoCodice).not.toBe(current);
      if (sent !== current && /^[0-9]{4}$/.test(sent)) expect(res.json().nuovoCodice).toBe(sent);
      expect((await giveBack(v, vid)).statusCode).toBe(200);
    }
  });

  it('a replayed offline pick-up answers the same code', async () => {
    const u = await person(ctx);
    const id = await bookId(u, await combinationBike());
    ctx.clock.set('2026-11-22T09:05:00Z');
    const body = { idAzione: crypto.randomUUID(), oraDispositivo: '2026-11-22T09:04:00.000Z' };
    const once = await pickUp(u, id, body);
    const twice = await pickUp(u, id, body);
    expect(twice.statusCode).toBe(200);
    expect(twice.json().nuovoCodice).toBe(once.json().nuovoCodice);
  });

  it('a bike without a combination lock: no new code', async () => {
    const u = await person(ctx);
    const id = await bookId(u, await insertBike(db()));
    ctx.clock.set('2026-11-22T09:05:00Z');
    expect((await pickUp(u, id)).json()).toMatchObject({ lucchetto: 'nessuno', nuovoCodice: null });
  });
});

describe('Codice da cambiare', () => {
  it('a shown code whose booking is cancelled, released or deleted without a pick-up marks the lock; an admin’s new code clears it', async () => {
    const bike = await combinationBike('4821');
    const u = await person(ctx);
    // Cancelled without the code shown: no mark.
    const quiet = await bookId(u, bike, { from: '10:00', to: '11:00' });
    expect((await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${quiet}`)).statusCode).toBe(200);
    expect((await adminLock(bike)) as object).toMatchObject({ codiceDaCambiare: false });

    // Shown, then cancelled by its owner.
    const shown = await bookId(u, bike, { from: '10:00', to: '11:00' });
    ctx.clock.set('2026-11-22T08:55:00Z');
    expect((await code(u, shown)).statusCode).toBe(200);
    expect((await call(ctx.app, u, 'DELETE', `/api/prenotazioni/${shown}`)).statusCode).toBe(200);
    expect(await adminLock(bike)).toMatchObject({ codiceDaCambiare: true, codice: '4821' });

    const fixed = await setLock(bike, { tipo: 'combinazione', codice: '7310' });
    expect(fixed.json()).toMatchObject({ codiceDaCambiare: false, codice: '7310' });
    const audit = (await auditRows(db())).find((r) => r.action === 'bike.lock')!;
    expect(audit.before).toEqual({ tipo: 'combinazione', codice: '••••', codiceDaCambiare: true });
    expect(audit.after).toEqual({ tipo: 'combinazione', codice: '••••', codiceDaCambiare: false });

    // Shown, then released as a no-show by the minute job.
    const v = await person(ctx);
    const noShow = await bookId(v, bike, { from: '11:00', to: '12:00' });
    ctx.clock.set('2026-11-22T09:55:00Z');
    expect((await code(v, noShow)).statusCode).toBe(200);
    ctx.clock.set('2026-11-22T10:31:00Z');
    await minuteJob(ctx);
    expect(await adminLock(bike)).toMatchObject({ codiceDaCambiare: true });
    await setLock(bike, { tipo: 'combinazione', codice: '7311' });

    // Shown, then deleted by an admin.
    const w = await person(ctx);
    const deleted = await bookId(w, bike, { from: '13:00', to: '14:00' });
    ctx.clock.set('2026-11-22T11:55:00Z');
    expect((await code(w, deleted)).statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${deleted}`)).statusCode).toBe(200);
    expect(await adminLock(bike)).toMatchObject({ codiceDaCambiare: true });
  });

  it('a shown code whose ride was picked up and returned leaves no mark', async () => {
    const bike = await combinationBike('4821');
    const u = await person(ctx);
    const id = await bookId(u, bike);
    ctx.clock.set('2026-11-22T08:55:00Z');
    await code(u, id);
    await pickUp(u, id);
    await giveBack(u, id);
    expect(await adminLock(bike)).toMatchObject({ codiceDaCambiare: false });
  });
});

describe('an admin releases a ride not brought back', () => {
  it('drops the code drawn at the pick-up (nobody set it) and marks the lock Codice da cambiare until an admin sets one', async () => {
    const bike = await combinationBike('4821');
    const u = await person(ctx);
    const id = await bookId(u, bike, { from: '10:00', to: '11:00' });
    ctx.clock.set('2026-11-22T08:55:00Z');
    const taken = await pickUp(u, id);
    expect(taken.json().nuovoCodice).toMatch(/^[0-9]{4}$/);
    ctx.clock.set('2026-11-22T12:00:00Z');
    const released = await call(ctx.app, admin, 'POST', `/api/admin/prenotazioni/${id}/rilascia`);
    expect(released.statusCode, released.body).toBe(200);
    // The lock keeps the code the database knew; the drawn one was never set by anyone.
    expect(await adminLock(bike)).toMatchObject({ codice: '4821', codiceDaCambiare: true });
    expect(await setLock(bike, { tipo: 'combinazione', codice: '7302' })).toMatchObject({ statusCode: 200 });
    expect(await adminLock(bike)).toMatchObject({ codice: '7302', codiceDaCambiare: false });
  });
});

describe('smart locks: a PIN for each booking', () => {
  let lockSeq = 0;
  const runJob = () =>
    lifecycleJob({ database: ctx.database, clock: ctx.clock, mailer, config: ctx.config, log: createLogger('silent'), locks: provider })();
  async function smartBike() {
    const bike = await insertBike(db());
    const lockId = `TT-${process.pid}-${++lockSeq}`;
    expect((await setLock(bike, { tipo: 'smart', idLucchetto: lockId })).statusCode).toBe(200);
    return { bike, lockId };
  }
  const pinRow = async (id: number) => (await db().select().from(codiciCorsa).where(eq(codiciCorsa.prenotazioneId, id)))[0];
  const pinEmails = () => mailer.sent.filter((m) => m.subject.includes('codice del lucchetto'));

  it('created after the booking, valid from the pick-up window to the end + 15; shown in the window; extended while late; revoked at the return', async () => {
    const u = await person(ctx);
    const { bike, lockId } = await smartBike();
    const id = await bookId(u, bike);
    await ctx.app.pins.settled();
    const [pin] = provider.pinsOn(lockId);
    expect(pin).toMatchObject({ validFrom: new Date('2026-11-22T08:50:00Z'), validUntil: new Date('2026-11-22T11:15:00Z'), label: `Prenotazione ${id}` });
    expect(pin!.pin).toMatch(/^[0-9]{6}$/);
    expect((await pinRow(id))?.pinStato).toBe('attivo');
    // Never in a list: only the kind.
    const list = await call(ctx.app, u, 'GET', '/api/prenotazioni/user');
    expect(list.json()[0]).toMatchObject({ id, lucchetto: 'smart' });
    expect(list.body).not.toContain(pin!.pin);

    ctx.clock.set('2026-11-22T08:49:00Z');
    expect((await code(u, id)).json().code).toBe('CODE_NOT_YET');
    ctx.clock.set('2026-11-22T08:50:00Z');
    expect((await code(u, id)).json()).toEqual({
      tipo: 'smart',
      codice: pin!.pin,
      validoDa: '2026-11-22T08:50:00.000Z',
      validoFino: '2026-11-22T11:15:00.000Z',
    });
    expect((await pickUp(u, id)).json().nuovoCodice).toBeNull();

    // Late: at 11:05Z (10 minutes left) the job extends it an hour from now, and again later.
    ctx.clock.set('2026-11-22T11:04:00Z');
    await runJob();
    expect(provider.pinsOn(lockId)[0]!.validUntil).toEqual(new Date('2026-11-22T11:15:00Z'));
    ctx.clock.set('2026-11-22T11:05:00Z');
    await runJob();
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)[0]!.validUntil).toEqual(new Date('2026-11-22T12:05:00Z'));
    expect((await code(u, id)).json().validoFino).toBe('2026-11-22T12:05:00.000Z');

    ctx.clock.set('2026-11-22T11:40:00Z');
    expect((await giveBack(u, id)).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toEqual([]);
    expect((await pinRow(id))?.pinStato).toBe('revocato');
    expect((await code(u, id)).json().code).toBe('CODE_GONE');
  });

  it('revoked at a cancel, a no-show release and an admin’s delete', async () => {
    const { bike, lockId } = await smartBike();
    const a = await person(ctx);
    const b = await person(ctx);
    const c = await person(ctx);
    const cancelled = await bookId(a, bike, { from: '10:00', to: '11:00' });
    const noShow = await bookId(b, bike, { from: '12:00', to: '13:00' });
    const deleted = await bookId(c, bike, { from: '14:00', to: '15:00' });
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toHaveLength(3);

    expect((await call(ctx.app, a, 'DELETE', `/api/prenotazioni/${cancelled}`)).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId).map((p) => p.label)).toEqual([`Prenotazione ${noShow}`, `Prenotazione ${deleted}`]);

    ctx.clock.set('2026-11-22T11:30:00Z'); // 12:30 Rome: no-show
    await runJob();
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId).map((p) => p.label)).toEqual([`Prenotazione ${deleted}`]);

    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${deleted}`)).statusCode).toBe(200);
    expect((await pinRow(deleted))?.pinStato).toBe('da_revocare');
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toEqual([]);
    expect(await pinRow(deleted)).toBeUndefined();
  });

  it('revoked when an admin deletes the booker’s account (the erasure)', async () => {
    const u = await person(ctx);
    const { bike, lockId } = await smartBike();
    const id = await bookId(u, bike);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toHaveLength(1);
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/users/${u.id}`)).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toEqual([]);
    const row = await pinRow(id);
    expect(row === undefined || row.pinStato === 'revocato').toBe(true);
  });

  it('a failing provider: the booking stands, the card says so, the minute job retries every minute until it works, the admins are emailed once', async () => {
    const u = await person(ctx);
    const { bike, lockId } = await smartBike();
    provider.failNext('unreachable', { times: 4, operation: 'createPin' });
    const id = await bookId(u, bike);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toEqual([]);
    expect(await pinRow(id)).toMatchObject({ pinStato: 'da_creare', tentativi: 1, ultimoErrore: 'unreachable' });

    ctx.clock.set('2026-11-22T08:55:00Z');
    const unavailable = await code(u, id);
    expect(unavailable.statusCode).toBe(409);
    expect(unavailable.json()).toMatchObject({ message: 'Codice non disponibile: rivolgiti alla segreteria', code: 'CODE_UNAVAILABLE' });

    // Not before its minute; then once a minute.
    await runJob();
    expect((await pinRow(id))?.tentativi).toBe(2);
    await runJob();
    expect((await pinRow(id))?.tentativi).toBe(2);
    for (const minute of ['08:56', '08:57']) {
      ctx.clock.set(`2026-11-22T${minute}:00Z`);
      await runJob();
    }
    expect((await pinRow(id))?.tentativi).toBe(4);
    expect(pinEmails()).toHaveLength(1);
    expect(pinEmails()[0]!.to).toBe('staff@test.it');

    ctx.clock.set('2026-11-22T08:58:00Z');
    await runJob();
    expect(provider.pinsOn(lockId)).toHaveLength(1);
    expect(await pinRow(id)).toMatchObject({ pinStato: 'attivo', tentativi: 0, ultimoErrore: null });
    expect((await code(u, id)).json().codice).toBe(provider.pinsOn(lockId)[0]!.pin);
    expect(pinEmails()).toHaveLength(1);
    // No email carries the PIN.
    expect(JSON.stringify(mailer.sent)).not.toContain(provider.pinsOn(lockId)[0]!.pin);
  });

  it('a smart lock replaced: the PIN is revoked on the old device and made on the new one; a lock removed revokes it', async () => {
    const u = await person(ctx);
    const { bike, lockId } = await smartBike();
    const id = await bookId(u, bike);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toHaveLength(1);
    const other = `TT-${process.pid}-new-${lockSeq}`;
    expect((await setLock(bike, { tipo: 'smart', idLucchetto: other })).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(lockId)).toEqual([]);
    expect(provider.pinsOn(other)).toHaveLength(1);
    expect(await pinRow(id)).toMatchObject({ pinStato: 'attivo', idLucchetto: other });
    expect((await setLock(bike, { tipo: 'nessuno' })).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(other)).toEqual([]);
    expect((await pinRow(id))?.pinStato).toBe('revocato');
  });

  it('a booking moved to another bike (moveBooking, as a closure or a maintenance moves it): its PIN follows to the new bike’s smart lock', async () => {
    const u = await person(ctx);
    const first = await smartBike();
    const second = await smartBike();
    const id = await bookId(u, first.bike);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(first.lockId)).toHaveLength(1);
    await db().transaction((tx) => moveBooking(tx, id, second.bike, ctx.clock.now()));
    await ctx.app.pins.settled();
    expect(provider.pinsOn(first.lockId)).toEqual([]);
    expect(provider.pinsOn(second.lockId)).toHaveLength(1);
    expect(await pinRow(id)).toMatchObject({ pinStato: 'attivo', idLucchetto: second.lockId });
  });

  it('a refusal stops the retries and emails the admins once; a new lock id makes it again', async () => {
    const u = await person(ctx);
    const { bike } = await smartBike();
    provider.failNext('unknown_lock', { operation: 'createPin' });
    const id = await bookId(u, bike);
    await ctx.app.pins.settled();
    ctx.clock.set('2026-11-21T09:05:00Z');
    await runJob();
    await runJob();
    expect(await pinRow(id)).toMatchObject({ pinStato: 'da_creare', tentativi: 1, ultimoErrore: 'unknown_lock' });
    expect(pinEmails()).toHaveLength(1);

    const fixedId = `TT-${process.pid}-fixed`;
    expect((await setLock(bike, { tipo: 'smart', idLucchetto: fixedId })).statusCode).toBe(200);
    await ctx.app.pins.settled();
    expect(provider.pinsOn(fixedId)).toHaveLength(1);
    expect((await pinRow(id))?.pinStato).toBe('attivo');
  });
});
