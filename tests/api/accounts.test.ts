import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/server/schema.js';
import { requireAdmin, requireUser, SESSION_COOKIE } from '../../src/server/http/auth.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { cookieFrom, createResident, createUser, DEFAULT_PASSWORD, loginAs } from '../helpers/factories.js';

let ctx: TestContext;
let dataDir: string;
let ipCounter = 0;
/** A client address of its own for each test, so per-client rate limits never interfere. */
const freshIp = () => `10.1.0.${++ipCounter}`;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-accounts-'));
  ctx = await createTestApp({
    env: { DATA_DIR: dataDir },
    register(app) {
      // Routes that exist only in this test, to exercise the guards other modules use.
      app.get('/api/test/admin-only', { preHandler: requireAdmin }, async (request) => ({ id: request.user!.id }));
      app.get('/api/test/user-only', { preHandler: requireUser }, async (request) => ({ id: request.user!.id }));
    },
  });
});

afterAll(async () => {
  await ctx?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const db = () => ctx.database.db;

function post(url: string, payload: object, options: { cookie?: string; ip?: string } = {}) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: options.ip ?? freshIp(),
    ...(options.cookie ? { headers: { cookie: options.cookie } } : {}),
  });
}

function get(url: string, cookie?: string) {
  return ctx.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
}

function setCookieHeaders(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

// `incarichi` (issue 48): the person's staff roles, none for most.
const USER_KEYS = ['attiva', 'cognome', 'createdAt', 'email', 'id', 'incarichi', 'isResidente', 'lingua', 'nome', 'ruolo', 'sedeId', 'sigla', 'siglaResidente'];

async function countUsers() {
  const rows = await db().select({ id: users.id }).from(users);
  return rows.length;
}

describe('POST /api/register', () => {
  it('creates an external user, role user whatever the body says, logged in, email normalised', async () => {
    const res = await post('/api/register', {
      nome: '  Mario ',
      cognome: 'Rossi',
      email: '  Mario.Rossi@Example.IT ',
      password: 'segreta1',
      siglaResidente: null,
      ruolo: 'admin',
      isResidente: true,
      attiva: false,
      id: 999,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(USER_KEYS);
    expect(body).toMatchObject({
      nome: 'Mario',
      cognome: 'Rossi',
      email: 'mario.rossi@example.it',
      ruolo: 'user',
      isResidente: false,
      siglaResidente: null,
      sigla: null,
      attiva: true,
      lingua: 'it',
    });
    expect(body.id).not.toBe(999);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

    const cookie = cookieFrom(res);
    expect(cookie).toBeDefined();
    const me = await get('/api/current-user', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body);

    const [row] = await db().select().from(users).where(eq(users.id, body.id));
    expect(row!.ruolo).toBe('user');
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain('segreta1');
  });

  it('makes an account with a valid sigla (any case) a resident, with the sigla upper-case', async () => {
    const resident = await createResident(db(), { sigla: 'REGOK01' });
    const res = await post('/api/register', {
      nome: 'Giulia',
      cognome: 'Bianchi',
      email: 'giulia.reg@example.it',
      password: 'segreta1',
      siglaResidente: ' regok01 ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isResidente: true, siglaResidente: resident.sigla, sigla: resident.sigla, ruolo: 'user' });
  });

  it('treats an empty or missing sigla as an external user', async () => {
    for (const [i, extra] of [{ siglaResidente: '' }, { siglaResidente: '   ' }, {}].entries()) {
      const res = await post('/api/register', { nome: 'E', cognome: 'X', email: `ext${i}@example.it`, password: 'segreta1', ...extra });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ isResidente: false, sigla: null });
    }
  });

  it('refuses an email already used, in any case, with 409 and writes nothing', async () => {
    await createUser(db(), { email: 'taken@example.it' });
    const before = await countUsers();
    const res = await post('/api/register', { nome: 'A', cognome: 'B', email: 'TAKEN@Example.it', password: 'segreta1' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Email già registrata');
    expect(cookieFrom(res)).toBeUndefined();
    expect(await countUsers()).toBe(before);
  });

  it('refuses a sigla already used by another account with 409', async () => {
    const resident = await createResident(db());
    await createUser(db(), { siglaResidente: resident.sigla });
    const before = await countUsers();
    const res = await post('/api/register', {
      nome: 'A',
      cognome: 'B',
      email: 'second.holder@example.it',
      password: 'segreta1',
      siglaResidente: resident.sigla.toLowerCase(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Questa sigla è già associata a un account');
    expect(await countUsers()).toBe(before);
  });

  it('refuses an inactive or unknown sigla with 400 and writes nothing', async () => {
    const inactive = await createResident(db(), { attivo: false });
    const before = await countUsers();
    for (const sigla of [inactive.sigla, 'NONESISTE99', 'not valid!']) {
      const res = await post('/api/register', { nome: 'A', cognome: 'B', email: 'nosigla@example.it', password: 'segreta1', siglaResidente: sigla });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Sigla non valida o non attiva nel sistema ELIS');
    }
    expect(await countUsers()).toBe(before);
  });

  it('validates every field with Italian messages per field', async () => {
    const short = await post('/api/register', { nome: 'A', cognome: 'B', email: 'short@example.it', password: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'La password deve essere di almeno 6 caratteri',
      fields: { password: 'La password deve essere di almeno 6 caratteri' },
    });

    const long = await post('/api/register', { nome: 'A', cognome: 'B', email: 'long@example.it', password: 'x'.repeat(129) });
    expect(long.statusCode).toBe(400);
    expect(long.json().fields.password).toMatch(/128/);

    const exactly128 = await post('/api/register', { nome: 'A', cognome: 'B', email: 'max@example.it', password: 'x'.repeat(128) });
    expect(exactly128.statusCode).toBe(201);

    const missing = await post('/api/register', { email: 'not-an-email', password: 'segreta1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toMatchObject({
      nome: 'Compila tutti i campi obbligatori',
      cognome: 'Compila tutti i campi obbligatori',
      email: 'Inserisci un indirizzo email valido',
    });

    const blankName = await post('/api/register', { nome: '   ', cognome: 'B', email: 'blank@example.it', password: 'segreta1' });
    expect(blankName.statusCode).toBe(400);
    expect(blankName.json().fields.nome).toBe('Compila tutti i campi obbligatori');

    const wrongType = await post('/api/register', { nome: 'A', cognome: 'B', email: 'type@example.it', password: 'segreta1', siglaResidente: 12 });
    expect(wrongType.statusCode).toBe(400);
    expect((await db().select().from(users).where(eq(users.email, 'type@example.it'))).length).toBe(0);
  });
});

describe('POST /api/login', () => {
  it('logs in with any case of the email and answers the user', async () => {
    const user = await createUser(db(), { nome: 'Laura', email: 'laura.login@example.it' });
    const res = await post('/api/login', { email: ' LAURA.Login@example.IT', password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(USER_KEYS);
    expect(res.json()).toMatchObject({ id: user.id, nome: 'Laura', ruolo: 'user', email: 'laura.login@example.it', lingua: 'it' });
    expect(res.body).not.toMatch(/argon2|passwordHash|tempPassword/);
    expect(cookieFrom(res)).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}$`));
  });

  it('gives the same 401 body for a wrong password and an unknown email, and no cookie', async () => {
    const user = await createUser(db());
    const wrongPassword = await post('/api/login', { email: user.email, password: 'sbagliata' });
    const unknownEmail = await post('/api/login', { email: 'nessuno@example.it', password: 'sbagliata' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ message: 'Email o password non corretti' });
    expect(unknownEmail.body).toBe(wrongPassword.body);
    expect(setCookieHeaders(wrongPassword)).toEqual([]);
    expect(setCookieHeaders(unknownEmail)).toEqual([]);
  });

  it('requires email and password (400, not 401)', async () => {
    const res = await post('/api/login', { email: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Inserisci email e password');
  });

  it('refuses a deactivated account with 403 after checking the password, and ends its open session at once', async () => {
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    expect((await get('/api/current-user', cookie)).statusCode).toBe(200);

    await db().update(users).set({ attiva: false }).where(eq(users.id, user.id));

    const me = await get('/api/current-user', cookie);
    expect(me.statusCode).toBe(401);
    expect(me.json().message).toBe('Non autenticato');
    const res = await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("Account disattivato. Contatta l'amministrazione.");
    expect(cookieFrom(res)).toBeUndefined();
    // The wrong password still gets the one 401: being deactivated is not told to strangers.
    const wrong = await post('/api/login', { email: user.email, password: 'sbagliata' });
    expect(wrong.statusCode).toBe(401);
    // Reactivation does not bring the old session back.
    await db().update(users).set({ attiva: true }).where(eq(users.id, user.id));
    expect((await get('/api/current-user', cookie)).statusCode).toBe(401);
  });

  it('gives a new token at every login and drops the one the browser had', async () => {
    const user = await createUser(db());
    const first = await loginAs(ctx.app, user.email);
    const second = await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD }, { cookie: first });
    expect(second.statusCode).toBe(200);
    const secondCookie = cookieFrom(second)!;
    expect(secondCookie).not.toBe(first);
    expect((await get('/api/current-user', first)).statusCode).toBe(401);
    expect((await get('/api/current-user', secondCookie)).statusCode).toBe(200);
    // Another browser's session is untouched by this login.
    const third = await loginAs(ctx.app, user.email);
    expect(new Set([first, secondCookie, third]).size).toBe(3);
    expect((await get('/api/current-user', secondCookie)).statusCode).toBe(200);
  });

  it('asks a user who must change the password to do so: 403, no session, a 15-minute grant cookie', async () => {
    const user = await createUser(db(), { mustChangePassword: true });
    const res = await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'È necessario cambiare la password',
      code: 'PASSWORD_CHANGE_REQUIRED',
      requiresPasswordChange: true,
      userId: user.id,
    });
    expect(cookieFrom(res, SESSION_COOKIE)).toBeUndefined();
    const grantHeader = setCookieHeaders(res).find((c) => c.startsWith('bicielis_pwchange='));
    expect(grantHeader).toBeDefined();
    expect(grantHeader).toMatch(/; HttpOnly/i);
    expect(grantHeader).toMatch(/; SameSite=Lax/i);
    expect(grantHeader).toMatch(/Max-Age=900\b/);
    const rows = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((r) => r.kind)).toEqual(['password_change']);
    // The grant is no session: sent as the session cookie it opens nothing.
    const grantToken = grantHeader!.split(';')[0]!.split('=')[1]!;
    expect((await get('/api/current-user', `${SESSION_COOKIE}=${grantToken}`)).statusCode).toBe(401);
  });
});

describe('GET /api/user and /api/current-user', () => {
  it('answer 401 Non autenticato without a session, or with a made-up one', async () => {
    for (const url of ['/api/user', '/api/current-user']) {
      const anonymous = await get(url);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ message: 'Non autenticato' });
      const forged = await get(url, `${SESSION_COOKIE}=${'A'.repeat(43)}`);
      expect(forged.statusCode).toBe(401);
      const garbage = await get(url, `${SESSION_COOKIE}=not-a-token`);
      expect(garbage.statusCode).toBe(401);
    }
  });

  it('answer the session user, sigla included, never a hash, not cached', async () => {
    const resident = await createResident(db());
    const user = await createUser(db(), { siglaResidente: resident.sigla, ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, user.email);
    for (const url of ['/api/user', '/api/current-user']) {
      const res = await get(url, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        id: user.id,
        nome: user.nome,
        cognome: user.cognome,
        email: user.email,
        ruolo: 'admin',
        isResidente: true,
        siglaResidente: resident.sigla,
        sigla: resident.sigla,
        attiva: true,
        lingua: 'it',
        sedeId: expect.any(Number),
        incarichi: [],
        createdAt: user.createdAt.toISOString(),
      });
    }
  });
});

describe('guards for other modules', () => {
  it('requireAdmin: 401 anonymous, 403 user, 200 admin; requireUser: 401 anonymous, 200 user', async () => {
    const plain = await createUser(db());
    const admin = await createUser(db(), { ruolo: 'admin' });
    const userCookie = await loginAs(ctx.app, plain.email);
    const adminCookie = await loginAs(ctx.app, admin.email);

    expect((await get('/api/test/admin-only')).statusCode).toBe(401);
    const forbidden = await get('/api/test/admin-only', userCookie);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toBe('Non hai i permessi per questa operazione');
    const ok = await get('/api/test/admin-only', adminCookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: admin.id });

    expect((await get('/api/test/user-only')).statusCode).toBe(401);
    expect((await get('/api/test/user-only', userCookie)).json()).toEqual({ id: plain.id });
  });
});

describe('sessions', () => {
  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure on http', async () => {
    const user = await createUser(db());
    const res = await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
    const header = setCookieHeaders(res).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\/(;|$)/);
    expect(header).toMatch(/Max-Age=2592000\b/);
    expect(header).not.toMatch(/; Secure/i);
  });

  it('stores only the SHA-256 of the token, never the token itself', async () => {
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    const token = cookie.split('=')[1]!;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
    const rows = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    const dump = await db().execute(sql`select * from sessions`);
    expect(JSON.stringify(dump.rows)).not.toContain(token);
  });

  it('slides the expiry at most once an hour, and refuses a session idle for 30 days', async () => {
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    const rowOf = async () => (await db().select().from(sessions).where(eq(sessions.userId, user.id)))[0]!;
    const created = await rowOf();
    expect(created.expiresAt.getTime() - ctx.clock.now().getTime()).toBe(30 * 24 * 3600_000);

    ctx.clock.advance(30 * 60_000);
    const early = await get('/api/current-user', cookie);
    expect(early.statusCode).toBe(200);
    expect(setCookieHeaders(early)).toEqual([]);
    expect((await rowOf()).expiresAt).toEqual(created.expiresAt);

    ctx.clock.advance(31 * 60_000);
    const later = await get('/api/current-user', cookie);
    expect(later.statusCode).toBe(200);
    expect(setCookieHeaders(later).some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
    const touched = await rowOf();
    expect(touched.expiresAt.getTime()).toBe(ctx.clock.now().getTime() + 30 * 24 * 3600_000);
    expect(touched.lastSeenAt.getTime()).toBe(ctx.clock.now().getTime());

    ctx.clock.advance(30 * 24 * 3600_000);
    expect((await get('/api/current-user', cookie)).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://bici.example', DATA_DIR: dataDir } });
    try {
      const user = await createUser(secure.database.db);
      const res = await secure.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: DEFAULT_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const header = setCookieHeaders(res).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      expect(header).toMatch(/; Secure/i);
      expect(header).toMatch(/; HttpOnly/i);
      expect(header).toMatch(/; SameSite=Lax/i);
    } finally {
      await secure.close();
    }
  });
});

describe('POST /api/logout', () => {
  it('deletes the session row and clears the cookie', async () => {
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    const other = await loginAs(ctx.app, user.email);
    const res = await post('/api/logout', {}, { cookie });
    expect(res.statusCode).toBe(200);
    const cleared = setCookieHeaders(res).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cleared).toMatch(/^bicielis_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    const tokenHash = createHash('sha256').update(cookie.split('=')[1]!).digest('hex');
    expect(await db().select().from(sessions).where(eq(sessions.tokenHash, tokenHash))).toHaveLength(0);
    expect((await get('/api/current-user', cookie)).statusCode).toBe(401);
    // Only this browser is logged out.
    expect((await get('/api/current-user', other)).statusCode).toBe(200);
  });

  it('answers 200 without a session too', async () => {
    const res = await post('/api/logout', {});
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/validate-sigla/:code', () => {
  it('answers valid with the resident data, case-insensitively', async () => {
    await createResident(db(), { sigla: 'VAL01', nome: 'Luca', cognome: 'Ferrari', corsoDiStudi: 'Medicina', annoCorso: 4 });
    for (const code of ['VAL01', 'val01', '%20Val01%20']) {
      const res = await get(`/api/validate-sigla/${code}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        valid: true,
        data: { nome: 'Luca', cognome: 'Ferrari', corsoDiStudi: 'Medicina', annoCorso: 4 },
      });
    }
  });

  it('answers valid:false for an inactive, unknown or malformed code', async () => {
    await createResident(db(), { sigla: 'VALOFF', attivo: false });
    for (const code of ['VALOFF', 'NESSUNO', encodeURIComponent('a b;c'), 'x'.repeat(60)]) {
      const res = await get(`/api/validate-sigla/${code}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ valid: false });
    }
  });
});
