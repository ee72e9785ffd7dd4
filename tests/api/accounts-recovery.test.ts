import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/server/schema.js';
import { PASSWORD_CHANGE_COOKIE, SESSION_COOKIE } from '../../src/server/http/auth.js';
import { createMailer } from '../../src/server/integrations/mailer.js';
import { verifyPassword } from '../../src/server/modules/auth/password.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { startSmtp, type Received } from '../helpers/smtp.js';
import { cookieFrom, createUser, DEFAULT_PASSWORD, loginAs } from '../helpers/factories.js';

/** The text/plain part of a raw message, quoted-printable decoded. */
function plainText(raw: string): string {
  const start = raw.search(/Content-Type: text\/plain/i);
  expect(start).toBeGreaterThanOrEqual(0);
  const afterHeaders = raw.indexOf('\n\n', start) >= 0 ? raw.indexOf('\n\n', start) : raw.indexOf('\r\n\r\n', start);
  const rest = raw.slice(afterHeaders).replace(/\r\n/g, '\n').trimStart();
  const body = rest.split(/\n--/)[0]!;
  const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => `%${h}`);
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
}

function temporaryPasswordIn(message: Received): string {
  const match = /Password temporanea: ([A-Za-z0-9]{12})\b/.exec(plainText(message.raw));
  expect(match).not.toBeNull();
  return match![1]!;
}

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let ctx: TestContext;
let ipCounter = 0;
const freshIp = () => `10.2.0.${++ipCounter}`;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'BiciElis <noreply@bici.test>' } });
});

afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

beforeEach(() => {
  smtp.received.length = 0;
});

const db = () => ctx.database.db;
const mailsSent = async () => {
  await ctx.app.deps.mailer.idle();
  return smtp.received;
};

function post(url: string, payload: object, cookie?: string) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: freshIp(),
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

const login = (email: string, password: string) => post('/api/login', { email, password });
const resetPassword = (email: string) => post('/api/reset-password', { email });
const RESET_BODY = { message: "Se l'email esiste nel nostro sistema, riceverai una nuova password temporanea" };

async function userRow(id: number) {
  const [row] = await db().select().from(users).where(eq(users.id, id));
  return row!;
}

/** Asks for a temporary password and returns it, read from the email received over SMTP. */
async function temporaryPasswordFor(email: string): Promise<string> {
  const res = await resetPassword(email);
  expect(res.statusCode).toBe(200);
  const mails = await mailsSent();
  const mail = mails.findLast((m) => m.to.includes(email));
  expect(mail).toBeDefined();
  return temporaryPasswordIn(mail!);
}

/** Logs in with a password that must be changed; returns the grant cookie header. */
async function grantFor(email: string, password: string): Promise<string> {
  const res = await login(email, password);
  expect(res.statusCode).toBe(403);
  const grant = cookieFrom(res, PASSWORD_CHANGE_COOKIE);
  expect(grant).toBeDefined();
  return grant!;
}

describe('password recovery, end to end over real SMTP', () => {
  it('emails a temporary password; logging in with it demands a change; the new password works and old sessions end', async () => {
    const user = await createUser(db(), { nome: 'Chiara', email: 'chiara.reset@example.it' });
    const oldSession = await loginAs(ctx.app, user.email);

    const res = await resetPassword('  CHIARA.Reset@example.it ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(RESET_BODY);

    const mails = await mailsSent();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['chiara.reset@example.it']);
    expect(mails[0]!.from).toBe('noreply@bici.test');
    expect(mails[0]!.raw).toMatch(/Subject: BiciElis: la tua password temporanea/);
    expect(mails[0]!.raw).toMatch(/Content-Type: text\/html/);
    const text = plainText(mails[0]!.raw);
    expect(text).toContain('Ciao Chiara');
    expect(text).toContain('È valida per 60 minuti');
    const temporary = temporaryPasswordIn(mails[0]!);

    const row = await userRow(user.id);
    expect(row.tempPasswordHash).toMatch(/^\$argon2id\$/);
    expect(row.tempPasswordExpiresAt!.getTime()).toBe(ctx.clock.now().getTime() + 60 * 60_000);

    const temporaryLogin = await login(user.email, temporary);
    expect(temporaryLogin.statusCode).toBe(403);
    expect(temporaryLogin.json()).toEqual({
      message: 'È necessario cambiare la password',
      code: 'PASSWORD_CHANGE_REQUIRED',
      requiresPasswordChange: true,
      userId: user.id,
    });
    expect(cookieFrom(temporaryLogin, SESSION_COOKIE)).toBeUndefined();
    const grant = cookieFrom(temporaryLogin, PASSWORD_CHANGE_COOKIE)!;
    expect(grant).toBeDefined();

    const changed = await post('/api/change-password', { userId: user.id, newPassword: 'nuova-password-1' }, grant);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ message: 'Password aggiornata' });

    const after = await userRow(user.id);
    expect(after.tempPasswordHash).toBeNull();
    expect(after.tempPasswordExpiresAt).toBeNull();
    expect(after.mustChangePassword).toBe(false);
    expect(await verifyPassword(after.passwordHash, 'nuova-password-1')).toBe(true);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie: oldSession } })).statusCode).toBe(401);

    expect((await login(user.email, 'nuova-password-1')).statusCode).toBe(200);
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, temporary)).statusCode).toBe(401);
  });

  it('answers an unknown email with the same body and sends nothing', async () => {
    const res = await resetPassword('nessuno.qui@example.it');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(RESET_BODY);
    expect(await mailsSent()).toHaveLength(0);
  });

  it('answers a deactivated account with the same body and sends nothing', async () => {
    const user = await createUser(db(), { attiva: false });
    const res = await resetPassword(user.email);
    expect(res.json()).toEqual(RESET_BODY);
    expect(await mailsSent()).toHaveLength(0);
    expect((await userRow(user.id)).tempPasswordHash).toBeNull();
  });

  it('keeps the old password working until the temporary one is used', async () => {
    const user = await createUser(db());
    const temporary = await temporaryPasswordFor(user.email);
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    // Using the temporary password (without changing yet) does not disable the old one either.
    await grantFor(user.email, temporary);
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a temporary password after 60 minutes', async () => {
    const user = await createUser(db());
    const temporary = await temporaryPasswordFor(user.email);
    ctx.clock.advance(59 * 60_000);
    await grantFor(user.email, temporary);
    ctx.clock.advance(60_000);
    const expired = await login(user.email, temporary);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: 'Email o password non corretti' });
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('a new request replaces the previous temporary password', async () => {
    const user = await createUser(db());
    const first = await temporaryPasswordFor(user.email);
    const second = await temporaryPasswordFor(user.email);
    expect(second).not.toBe(first);
    expect((await login(user.email, first)).statusCode).toBe(401);
    expect((await login(user.email, second)).statusCode).toBe(403);
  });

  it('validates the email (400) without sending anything', async () => {
    const res = await resetPassword('non-una-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.email).toBe('Inserisci un indirizzo email valido');
    expect(await mailsSent()).toHaveLength(0);
  });
});

describe('POST /api/change-password authorisation', () => {
  it('without the grant cookie or a session: 403 and the password unchanged', async () => {
    const user = await createUser(db(), { mustChangePassword: true });
    const before = await userRow(user.id);
    const res = await post('/api/change-password', { userId: user.id, newPassword: 'presa-di-potere' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: 'Sessione scaduta, riprova ad accedere' });
    const after = await userRow(user.id);
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.mustChangePassword).toBe(true);
    // The old password still works (and still asks for the change).
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(403);
  });

  it('with a grant for another user: 403, neither password changes, the grant is not used up', async () => {
    const owner = await createUser(db(), { mustChangePassword: true });
    const victim = await createUser(db());
    const grant = await grantFor(owner.email, DEFAULT_PASSWORD);
    const victimBefore = await userRow(victim.id);
    const res = await post('/api/change-password', { userId: victim.id, newPassword: 'presa-di-potere' }, grant);
    expect(res.statusCode).toBe(403);
    expect((await userRow(victim.id)).passwordHash).toBe(victimBefore.passwordHash);
    expect((await login(victim.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect((await login(victim.email, 'presa-di-potere')).statusCode).toBe(401);
    // The owner can still use the grant for themselves.
    const own = await post('/api/change-password', { userId: owner.id, newPassword: 'nuova-password-2' }, grant);
    expect(own.statusCode).toBe(200);
  });

  it('with another user’s session: 403 and nothing changes', async () => {
    const attacker = await createUser(db());
    const victim = await createUser(db());
    const cookie = await loginAs(ctx.app, attacker.email);
    const victimBefore = await userRow(victim.id);
    const res = await post('/api/change-password', { userId: String(victim.id), newPassword: 'presa-di-potere' }, cookie);
    expect(res.statusCode).toBe(403);
    expect((await userRow(victim.id)).passwordHash).toBe(victimBefore.passwordHash);
    expect((await login(attacker.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('with the user’s own session: 200, and every session of that user ends', async () => {
    const user = await createUser(db());
    const cookie = await loginAs(ctx.app, user.email);
    const elsewhere = await loginAs(ctx.app, user.email);
    const res = await post('/api/change-password', { userId: user.id, newPassword: 'cambiata-da-me' }, cookie);
    expect(res.statusCode).toBe(200);
    for (const c of [cookie, elsewhere]) {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie: c } })).statusCode).toBe(401);
    }
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await login(user.email, 'cambiata-da-me')).statusCode).toBe(200);
  });

  it('a grant works once, and for 15 minutes only', async () => {
    const user = await createUser(db(), { mustChangePassword: true });
    const grant = await grantFor(user.email, DEFAULT_PASSWORD);
    const used = await post('/api/change-password', { userId: user.id, newPassword: 'prima-volta' }, grant);
    expect(used.statusCode).toBe(200);
    const again = await post('/api/change-password', { userId: user.id, newPassword: 'seconda-volta' }, grant);
    expect(again.statusCode).toBe(403);
    expect((await login(user.email, 'prima-volta')).statusCode).toBe(200);

    const other = await createUser(db(), { mustChangePassword: true });
    const late = await grantFor(other.email, DEFAULT_PASSWORD);
    ctx.clock.advance(15 * 60_000 + 1000);
    const expired = await post('/api/change-password', { userId: other.id, newPassword: 'troppo-tardi' }, late);
    expect(expired.statusCode).toBe(403);
    expect((await userRow(other.id)).mustChangePassword).toBe(true);
  });

  it('a forced change (imported resident): login 403, change, then login 200', async () => {
    const user = await createUser(db(), { mustChangePassword: true });
    const grant = await grantFor(user.email, DEFAULT_PASSWORD);
    // Only the latest grant counts.
    const newer = await grantFor(user.email, DEFAULT_PASSWORD);
    expect((await post('/api/change-password', { userId: user.id, newPassword: 'scelta-mia' }, grant)).statusCode).toBe(403);
    const res = await post('/api/change-password', { userId: user.id, newPassword: 'scelta-mia' }, newer);
    expect(res.statusCode).toBe(200);
    const cleared = res.headers['set-cookie'];
    expect(String(cleared)).toMatch(/bicielis_pwchange=;/);
    expect((await userRow(user.id)).mustChangePassword).toBe(false);
    const ok = await login(user.email, 'scelta-mia');
    expect(ok.statusCode).toBe(200);
    expect(cookieFrom(ok, SESSION_COOKIE)).toBeDefined();
  });

  it('validates the new password before anything else (400, grant kept)', async () => {
    const user = await createUser(db(), { mustChangePassword: true });
    const grant = await grantFor(user.email, DEFAULT_PASSWORD);
    const short = await post('/api/change-password', { userId: user.id, newPassword: '12345' }, grant);
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('La password deve essere di almeno 6 caratteri');
    const missing = await post('/api/change-password', { newPassword: 'abbastanza-lunga' }, grant);
    expect(missing.statusCode).toBe(400);
    expect((await post('/api/change-password', { userId: user.id, newPassword: 'abbastanza-lunga' }, grant)).statusCode).toBe(200);
  });
});

describe('email delivery', () => {
  it('sends a welcome email at registration', async () => {
    const res = await post('/api/register', { nome: 'Paolo', cognome: 'Esposito', email: 'paolo.benvenuto@example.it', password: 'segreta1' });
    expect(res.statusCode).toBe(201);
    const mails = await mailsSent();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['paolo.benvenuto@example.it']);
    expect(mails[0]!.raw).toMatch(/Subject: Benvenuto in BiciElis/);
    const text = plainText(mails[0]!.raw);
    expect(text).toContain('Ciao Paolo');
    expect(text).toContain('utente esterno');
  });

  it('a failed send is logged, not thrown: the request still succeeds', async () => {
    const errors: object[] = [];
    // Port 1 on loopback: the connection is refused at once.
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'BiciElis <noreply@bici.test>',
      outboxDir: '/nonexistent',
      logger: { info: () => undefined, error: (obj) => errors.push(obj) },
    });
    const down = await createTestApp({ deps: { mailer } });
    try {
      const reg = await down.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { nome: 'A', cognome: 'B', email: 'down@example.it', password: 'segreta1' },
      });
      expect(reg.statusCode).toBe(201);
      const reset = await down.app.inject({ method: 'POST', url: '/api/reset-password', payload: { email: 'down@example.it' } });
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual(RESET_BODY);
      await mailer.idle();
      expect(errors).toEqual([
        expect.objectContaining({ subject: 'Benvenuto in BiciElis', err: expect.any(Error) }),
        expect.objectContaining({ subject: 'BiciElis: la tua password temporanea' }),
      ]);
      // Logs carry no recipient (issue 23): the address is nowhere in what was logged.
      for (const entry of errors) expect(JSON.stringify(entry)).not.toContain('down@example.it');
      // The direct send (used where the caller records failures) does reject.
      await expect(mailer.send({ to: 'x@example.it', subject: 's', text: 't' })).rejects.toThrow();
    } finally {
      await down.close();
      await mailer.close();
    }
  });

  it('writes .eml files to DATA_DIR/outbox when SMTP_URL is not set', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-outbox-'));
    const local = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      const user = await createUser(local.database.db, { email: 'outbox.user@example.it' });
      const reg = await local.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { nome: 'Elena', cognome: 'Marino', email: 'elena.outbox@example.it', password: 'segreta1' },
      });
      expect(reg.statusCode).toBe(201);
      const reset = await local.app.inject({ method: 'POST', url: '/api/reset-password', payload: { email: user.email } });
      expect(reset.statusCode).toBe(200);
      await local.app.deps.mailer.idle();

      const outbox = path.join(dataDir, 'outbox');
      const files = (await fs.readdir(outbox)).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(2);
      const contents = await Promise.all(files.map((f) => fs.readFile(path.join(outbox, f), 'utf8')));
      const welcome = contents.find((c) => c.includes('Subject: Benvenuto in BiciElis'));
      const temp = contents.find((c) => c.includes('Subject: BiciElis: la tua password temporanea'));
      expect(welcome).toMatch(/To: elena\.outbox@example\.it/);
      const temporary = temporaryPasswordIn({ from: '', to: [], raw: temp! });
      const login = await local.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: temporary } });
      expect(login.statusCode).toBe(403);
      expect(login.json().requiresPasswordChange).toBe(true);
    } finally {
      await local.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('uses an injected mailer instead of the configured one', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-injected-'));
    const logged: object[] = [];
    const mailer = createMailer({
      from: 'Test <t@example.it>',
      outboxDir: path.join(dataDir, 'mine'),
      logger: { info: (obj) => logged.push(obj), error: (obj) => logged.push(obj) },
    });
    const local = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' }, deps: { mailer } });
    try {
      const reg = await local.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { nome: 'I', cognome: 'J', email: 'injected@example.it', password: 'segreta1' },
      });
      expect(reg.statusCode).toBe(201);
      await mailer.idle();
      expect(await fs.readdir(path.join(dataDir, 'mine'))).toHaveLength(1);
      expect(logged).toEqual([expect.objectContaining({ subject: 'Benvenuto in BiciElis' })]);
      expect(JSON.stringify(logged)).not.toContain('injected@example.it');
    } finally {
      await local.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
