import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, codiciRecupero, sessions, users } from '../../src/server/schema.js';
import { AUTH_RATE_LIMITS } from '../../src/server/modules/auth/limits.js';
import { openSecret, recoveryCodeHash, totpKey } from '../../src/server/modules/two-factor/secret-box.js';
import { totpCode, totpStep, TOTP_PERIOD_SECONDS } from '../../src/server/modules/two-factor/totp.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { cookieFrom, createUser, DEFAULT_PASSWORD, loginAs } from '../helpers/factories.js';

/**
 * The admins' second factor (issue 23, decision 030): enrolment, the login's code step with
 * an injected clock, recovery codes, turning it off, its limits, and where the secret is kept.
 */

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
const KEY_HEX = 'a1'.repeat(32);

let ctx: TestContext;
let dataDir: string;
let ipCounter = 0;
const freshIp = () => `10.23.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-2fa-'));
  ctx = await createTestApp({ env: { DATA_DIR: dataDir, TOTP_ENCRYPTION_KEY: KEY_HEX } });
});
afterAll(async () => {
  await ctx?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const db = () => ctx.database.db;

function call(method: 'GET' | 'POST', url: string, cookie?: string, payload?: object, ip = '10.23.255.1') {
  return ctx.app.inject({ method, url, remoteAddress: ip, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}) });
}

/** An admin with a confirmed second factor: its secret (as the app shows it) and its recovery codes. */
async function enrolledAdmin() {
  ctx.clock.set(TEST_NOW);
  const admin = await createUser(db(), { ruolo: 'admin' });
  const cookie = await loginAs(ctx.app, admin.email);
  const started = await call('POST', '/api/due-fattori/attivazione', cookie);
  expect(started.statusCode).toBe(200);
  const { segreto } = started.json() as { segreto: string };
  const confirmed = await call('POST', '/api/due-fattori/conferma', cookie, { codice: totpCode(segreto, ctx.clock.now()) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { admin, cookie, segreto, codes: (confirmed.json() as { codiciRecupero: string[] }).codiciRecupero };
}

/** The password step: the pending state's cookie (no session). */
async function passwordStep(email: string, ip = freshIp()) {
  const res = await call('POST', '/api/login', undefined, { email, password: DEFAULT_PASSWORD }, ip);
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', requiresTwoFactor: true, message: expect.stringContaining('codice') });
  expect(cookieFrom(res)).toBeUndefined();
  const pending = cookieFrom(res, 'bicielis_2fa');
  expect(pending).toBeDefined();
  return pending!;
}

function codeStep(pending: string, codice: string, ip = freshIp()) {
  return call('POST', '/api/login/codice', pending, { codice }, ip);
}

describe('enrolment from the profile', () => {
  it('gives the secret as text and as a QR code, keeps it encrypted, and needs the app’s code to confirm', async () => {
    const admin = await createUser(db(), { ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, admin.email);
    const elsewhere = await loginAs(ctx.app, admin.email);
    expect((await call('GET', '/api/due-fattori', cookie)).json()).toEqual({ attiva: false, codiciRecuperoRimasti: 0, obbligatoria: false });

    const started = await call('POST', '/api/due-fattori/attivazione', cookie);
    expect(started.statusCode).toBe(200);
    const body = started.json() as { segreto: string; otpauthUrl: string; qrCode: string };
    expect(body.segreto).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUrl).toMatch(new RegExp(`^otpauth://totp/BiciElis:.+\\?.*secret=${body.segreto}`));
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.qrCode.split(',')[1]!, 'base64').toString()).toContain('<svg');

    // A dump of the database does not hold the secret: only its AES-GCM box, which opens
    // with the configured key for this user alone.
    const [row] = await db().select().from(users).where(eq(users.id, admin.id));
    expect(row!.totpSegreto).not.toContain(body.segreto);
    expect(row!.totpAttivoAt).toBeNull();
    expect(openSecret(totpKey(ctx.config), admin.id, row!.totpSegreto!)).toBe(body.segreto);
    expect(() => openSecret(totpKey(ctx.config), admin.id + 1, row!.totpSegreto!)).toThrow();
    expect(() => openSecret(Buffer.alloc(32, 7), admin.id, row!.totpSegreto!)).toThrow();

    const wrong = await call('POST', '/api/due-fattori/conferma', cookie, { codice: totpCode(body.segreto, new Date(TEST_NOW.getTime() - 5 * STEP_MS)) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_CODE', message: 'Codice di verifica non valido' });
    expect((await call('GET', '/api/due-fattori', cookie)).json()).toMatchObject({ attiva: false });

    const confirmed = await call('POST', '/api/due-fattori/conferma', cookie, { codice: totpCode(body.segreto, ctx.clock.now()) });
    expect(confirmed.statusCode).toBe(200);
    const codes = (confirmed.json() as { codiciRecupero: string[] }).codiciRecupero;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // Stored hashed (keyed), never as typed.
    const stored = await db().select().from(codiciRecupero).where(eq(codiciRecupero.userId, admin.id));
    expect(stored.map((r) => r.hash).sort()).toEqual(codes.map((c) => recoveryCodeHash(totpKey(ctx.config), c)).sort());
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replaceAll('-', ''));

    expect((await call('GET', '/api/due-fattori', cookie)).json()).toEqual({ attiva: true, codiciRecuperoRimasti: 10, obbligatoria: false });
    // The session that enrolled stays; one opened with the password alone elsewhere ends.
    expect((await call('GET', '/api/current-user', cookie)).statusCode).toBe(200);
    expect((await call('GET', '/api/current-user', elsewhere)).statusCode).toBe(401);
    // Once active, a new enrolment needs turning it off first.
    expect((await call('POST', '/api/due-fattori/attivazione', cookie)).statusCode).toBe(409);
  });

  it('is for admins only; anonymous 401', async () => {
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    for (const [method, url] of [
      ['GET', '/api/due-fattori'],
      ['POST', '/api/due-fattori/attivazione'],
    ] as const) {
      const res = await call(method, url, cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'TWO_FACTOR_ADMINS_ONLY', message: expect.stringContaining('amministratori') });
      expect((await call(method, url)).statusCode).toBe(401);
    }
  });
});

describe('the login’s code step', () => {
  it('after the password only a pending state: no session, and its cookie is no session anywhere', async () => {
    const { admin, segreto } = await enrolledAdmin();
    ctx.clock.set(new Date(TEST_NOW.getTime() + 10 * STEP_MS));
    const pending = await passwordStep(admin.email);
    const pendingToken = pending.split('=')[1]!;
    // Presented as a session cookie it opens nothing.
    expect((await call('GET', '/api/current-user', `bicielis_session=${pendingToken}`)).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/summary', `bicielis_session=${pendingToken}`)).statusCode).toBe(401);
    const rows = await db().select().from(sessions).where(eq(sessions.userId, admin.id));
    // The enrolling session, and the pending state of this login.
    expect(rows.map((r) => r.kind).sort()).toEqual(['session', 'two_factor']);

    const ok = await codeStep(pending, totpCode(segreto, ctx.clock.now()));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ id: admin.id, ruolo: 'admin' });
    const session = cookieFrom(ok)!;
    expect((await call('GET', '/api/current-user', session)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/summary', session)).statusCode).toBe(200);
    // The pending state is used up.
    const again = await codeStep(pending, totpCode(segreto, new Date(ctx.clock.now().getTime() + STEP_MS)));
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('TWO_FACTOR_EXPIRED');
  });

  it('accepts the step before, the current and the step after; refuses older, newer, and a code reused within its step', async () => {
    const { admin, segreto } = await enrolledAdmin();
    const t = new Date(TEST_NOW.getTime() + 100 * STEP_MS + 7_000);
    ctx.clock.set(t);
    const at = (steps: number) => totpCode(segreto, new Date(t.getTime() + steps * STEP_MS));

    // Two steps away on either side: refused.
    for (const steps of [-2, 2]) {
      const res = await codeStep(await passwordStep(admin.email), at(steps));
      expect(res.statusCode, `step ${steps}`).toBe(400);
    }
    // The step before, then the current one, then the step after: each accepted once.
    for (const steps of [-1, 0, 1]) {
      const res = await codeStep(await passwordStep(admin.email), at(steps));
      expect(res.statusCode, `step ${steps}: ${res.body}`).toBe(200);
    }
    const [row] = await db().select({ passo: users.totpUltimoPasso }).from(users).where(eq(users.id, admin.id));
    expect(row!.passo).toBe(totpStep(t) + 1);
    // The same code again (its step is still open) and an older one: refused.
    for (const steps of [1, 0]) {
      const res = await codeStep(await passwordStep(admin.email), at(steps));
      expect(res.statusCode, `reused step ${steps}`).toBe(400);
      expect(res.json().code).toBe('WRONG_CODE');
    }

    // Later on, a code reused within its own step: the first use passes, the second does not.
    ctx.clock.set(new Date(t.getTime() + 20 * STEP_MS));
    const code = totpCode(segreto, ctx.clock.now());
    expect((await codeStep(await passwordStep(admin.email), code)).statusCode).toBe(200);
    ctx.clock.set(new Date(ctx.clock.now().getTime() + 5_000));
    expect((await codeStep(await passwordStep(admin.email), code)).statusCode).toBe(400);
  });

  it('recovery codes: each one once, typed in any case, with or without dashes', async () => {
    const { admin, codes, cookie } = await enrolledAdmin();
    const first = await codeStep(await passwordStep(admin.email), codes[0]!.toLowerCase().replaceAll('-', ' '));
    expect(first.statusCode, first.body).toBe(200);
    const reused = await codeStep(await passwordStep(admin.email), codes[0]!);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'WRONG_CODE', message: 'Codice di verifica non valido' });
    expect((await codeStep(await passwordStep(admin.email), codes[1]!)).statusCode).toBe(200);
    expect((await call('GET', '/api/due-fattori', cookie)).json()).toMatchObject({ codiciRecuperoRimasti: 8 });
    // A made-up code of the right shape: refused.
    expect((await codeStep(await passwordStep(admin.email), 'ABCD-EFGH-JKMN')).statusCode).toBe(400);
  });

  it('the pending state lasts 5 minutes; a new password step replaces it', async () => {
    const { admin, segreto } = await enrolledAdmin();
    ctx.clock.set(new Date(TEST_NOW.getTime() + 200 * STEP_MS));
    const pending = await passwordStep(admin.email);
    ctx.clock.set(new Date(ctx.clock.now().getTime() + 5 * 60_000 + 1_000));
    const late = await codeStep(pending, totpCode(segreto, ctx.clock.now()));
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 'TWO_FACTOR_EXPIRED', message: 'Sessione di verifica scaduta, accedi di nuovo' });

    const older = await passwordStep(admin.email);
    const newer = await passwordStep(admin.email);
    expect((await codeStep(older, totpCode(segreto, ctx.clock.now()))).statusCode).toBe(403);
    expect((await codeStep(newer, totpCode(segreto, ctx.clock.now()))).statusCode).toBe(200);
  });

  it('without the pending cookie: 403; a malformed code: 400 in Italian', async () => {
    const res = await call('POST', '/api/login/codice', undefined, { codice: '123456' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('TWO_FACTOR_EXPIRED');
    const { admin } = await enrolledAdmin();
    const bad = await codeStep(await passwordStep(admin.email), '12ab');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.codice).toMatch(/6 cifre/);
  });

  it('wrong codes are limited like passwords: the 11th attempt is refused even with the right code', async () => {
    const { admin, segreto } = await enrolledAdmin();
    ctx.clock.set(new Date(TEST_NOW.getTime() + 300 * STEP_MS));
    const pending = await passwordStep(admin.email);
    const wrong = totpCode(segreto, new Date(ctx.clock.now().getTime() - 10 * STEP_MS));
    for (let i = 0; i < AUTH_RATE_LIMITS.codeFailuresPerUser.max; i++) {
      expect((await codeStep(pending, wrong)).statusCode).toBe(400);
    }
    const blocked = await codeStep(pending, totpCode(segreto, ctx.clock.now()));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Troppi tentativi/) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(cookieFrom(blocked)).toBeUndefined();
  });
});

describe('turning it off', () => {
  it('needs a valid code; then the login asks for none', async () => {
    const { admin, cookie, segreto, codes } = await enrolledAdmin();
    ctx.clock.set(new Date(TEST_NOW.getTime() + 400 * STEP_MS));
    const wrong = await call('POST', '/api/due-fattori/disattivazione', cookie, { codice: totpCode(segreto, new Date(TEST_NOW.getTime() - 9 * STEP_MS)) });
    expect(wrong.statusCode).toBe(400);
    expect((await call('GET', '/api/due-fattori', cookie)).json()).toMatchObject({ attiva: true });
    expect((await call('POST', '/api/due-fattori/disattivazione', cookie, {})).statusCode).toBe(400);

    const off = await call('POST', '/api/due-fattori/disattivazione', cookie, { codice: codes[3]! });
    expect(off.statusCode, off.body).toBe(200);
    expect((await call('GET', '/api/due-fattori', cookie)).json()).toEqual({ attiva: false, codiciRecuperoRimasti: 0, obbligatoria: false });
    const [row] = await db().select().from(users).where(eq(users.id, admin.id));
    expect(row!.totpSegreto).toBeNull();
    expect(await db().select().from(codiciRecupero).where(eq(codiciRecupero.userId, admin.id))).toEqual([]);
    expect((await call('POST', '/api/login', undefined, { email: admin.email, password: DEFAULT_PASSWORD }, freshIp())).statusCode).toBe(200);
    // Nothing to turn off any more.
    expect((await call('POST', '/api/due-fattori/disattivazione', cookie, { codice: '123456' })).statusCode).toBe(409);
    // Both changes are in the Registro attività, by the admin themselves; the wrong code left none.
    const entries = await db()
      .select({ action: auditLog.action, actorId: auditLog.actorId, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.entityId, String(admin.id)))
      .orderBy(auditLog.id);
    expect(entries).toEqual([
      { action: 'two_factor.enable', actorId: admin.id, before: { verificaInDuePassaggi: false }, after: { verificaInDuePassaggi: true } },
      { action: 'two_factor.disable', actorId: admin.id, before: { verificaInDuePassaggi: true }, after: { verificaInDuePassaggi: false } },
    ]);
  });
});

describe('the key file when no key is configured', () => {
  it('is made once in DATA_DIR, mode 0600, and used again', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-2fa-key-'));
    try {
      const config = { dataDir: dir, totpEncryptionKey: undefined };
      const key = totpKey(config);
      expect(key).toHaveLength(32);
      const stat = await fs.stat(path.join(dir, 'chiave-totp'));
      expect(stat.mode & 0o777).toBe(0o600);
      expect(totpKey(config).equals(key)).toBe(true);
      expect((await fs.readdir(dir)).sort()).toEqual(['chiave-totp']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
