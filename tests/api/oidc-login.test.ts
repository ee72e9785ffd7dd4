import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, identitaEsterne, incarichi, sessions, users } from '../../src/server/schema.js';
import { TEST_NOW } from '../helpers/app.js';
import { cookieFrom, createResident, createUser } from '../helpers/factories.js';
import { oidcTestApp, type OidcTestContext } from '../helpers/oidc-app.js';

/**
 * Signing in with the college's account (issue 49) against a local OpenID provider: linking by
 * email at the first login, later logins by `sub`, a new resident through the completion form,
 * the refusals of an unverified email and a deactivated account, and an admin's second factor.
 */

let t: OidcTestContext;
beforeAll(async () => {
  t = await oidcTestApp();
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.ctx.database.db;
const COMPLETION = 'bicielis_oidc_completa';
const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.ctx.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}) });
const identityOf = async (userId: number) => db().select().from(identitaEsterne).where(eq(identitaEsterne.userId, userId));

describe('first login of an email that has an account', () => {
  it('links the college account (sub stored) and signs the person in, session metodo oidc', async () => {
    const user = await createUser(db(), { email: 'ada.link@elis.org' });
    t.provider.setAccount('sub-ada', { email: 'Ada.Link@elis.org', email_verified: true, given_name: 'Ada', family_name: 'Link' });
    const res = await t.collegeLogin('sub-ada');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    const cookie = cookieFrom(res);
    expect(cookie).toBeDefined();
    expect(await identityOf(user.id)).toEqual([
      expect.objectContaining({ issuer: t.provider.issuer, sub: 'sub-ada', email: 'ada.link@elis.org', ultimoAccessoAt: TEST_NOW }),
    ]);
    const me = await call('GET', '/api/user', cookie);
    expect(me.json()).toMatchObject({ id: user.id, email: 'ada.link@elis.org' });
    const rows = await db().select({ metodo: sessions.metodo, kind: sessions.kind }).from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toEqual([{ metodo: 'oidc', kind: 'session' }]);
    // A person who is neither admin nor staff: no audit entry.
    expect(await db().select().from(auditLog).where(eq(auditLog.actorId, user.id))).toEqual([]);
  });

  it('a later login finds the account by sub, even after the email changed at the provider', async () => {
    const user = await createUser(db(), { email: 'bruno.sub@elis.org' });
    t.provider.setAccount('sub-bruno', { email: 'bruno.sub@elis.org', email_verified: true });
    expect((await t.collegeLogin('sub-bruno')).headers.location).toBe('/dashboard');
    // Another account now has the old email's successor: the sub decides, not the email.
    const other = await createUser(db(), { email: 'bruno.nuovo@elis.org' });
    t.provider.setAccount('sub-bruno', { email: 'bruno.nuovo@elis.org', email_verified: true });
    const usersBefore = (await db().select({ id: users.id }).from(users)).length;
    const res = await t.collegeLogin('sub-bruno');
    expect(res.headers.location).toBe('/dashboard');
    const me = await call('GET', '/api/user', cookieFrom(res));
    expect(me.json()).toMatchObject({ id: user.id, email: 'bruno.sub@elis.org' });
    expect((await db().select({ id: users.id }).from(users)).length).toBe(usersBefore);
    expect(await identityOf(user.id)).toEqual([expect.objectContaining({ sub: 'sub-bruno', email: 'bruno.nuovo@elis.org' })]);
    expect(await identityOf(other.id)).toEqual([]);
  });

  it('goes back to the ritorno path asked for, and ignores one that leaves the app', async () => {
    await createUser(db(), { email: 'carla.ritorno@elis.org' });
    t.provider.setAccount('sub-carla', { email: 'carla.ritorno@elis.org', email_verified: true });
    expect((await t.collegeLogin('sub-carla', { ritorno: '/profilo?tab=account' })).headers.location).toBe('/profilo?tab=account');
    for (const ritorno of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/api/user']) {
      expect((await t.collegeLogin('sub-carla', { ritorno })).headers.location, ritorno).toBe('/dashboard');
    }
  });
});

describe('refusals at the callback', () => {
  it('refuses an email the provider does not mark verified, writing nothing', async () => {
    const user = await createUser(db(), { email: 'dario.nonverificato@elis.org' });
    for (const [sub, claims] of [
      ['sub-dario-false', { email: 'dario.nonverificato@elis.org', email_verified: false }],
      ['sub-dario-absent', { email: 'dario.nonverificato@elis.org' }],
      ['sub-dario-new', { email: 'sconosciuto@elis.org', email_verified: false }],
    ] as const) {
      t.provider.setAccount(sub, claims);
      const before = await t.counts();
      const res = await t.collegeLogin(sub);
      expect(res.headers.location, sub).toBe('/login?accesso=non-verificata');
      expect(cookieFrom(res)).toBeUndefined();
      expect(await t.counts(), sub).toEqual(before);
    }
    expect(await identityOf(user.id)).toEqual([]);
  });

  it('keeps a deactivated account out, linked or not, writing nothing', async () => {
    const user = await createUser(db(), { email: 'elena.disattivata@elis.org', attiva: false });
    t.provider.setAccount('sub-elena', { email: 'elena.disattivata@elis.org', email_verified: true });
    const before = await t.counts();
    const res = await t.collegeLogin('sub-elena');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?accesso=disattivato');
    expect(cookieFrom(res)).toBeUndefined();
    expect(await t.counts()).toEqual(before);
    // Linked while active, deactivated since: still out.
    await db().update(users).set({ attiva: true }).where(eq(users.id, user.id));
    expect((await t.collegeLogin('sub-elena')).headers.location).toBe('/dashboard');
    await db().update(users).set({ attiva: false }).where(eq(users.id, user.id));
    const linkedBefore = await t.counts();
    expect((await t.collegeLogin('sub-elena')).headers.location).toBe('/login?accesso=disattivato');
    expect(await t.counts()).toEqual(linkedBefore);
  });
});

describe('admins and staff', () => {
  it('asks an admin with a second factor for it, as the password login does: no session, the pending cookie', async () => {
    const admin = await createUser(db(), { email: 'franco.admin@elis.org', ruolo: 'admin', passkeySecondoFattore: true });
    t.provider.setAccount('sub-franco', { email: 'franco.admin@elis.org', email_verified: true });
    const res = await t.collegeLogin('sub-franco');
    expect(res.headers.location).toBe('/verifica-accesso');
    expect(cookieFrom(res)).toBeUndefined();
    const pending = cookieFrom(res, 'bicielis_2fa');
    expect(pending).toBeDefined();
    expect(res.cookies.find((c) => c.name === 'bicielis_2fa')?.path).toBe('/api/login');
    const grants = await db().select({ kind: sessions.kind }).from(sessions).where(eq(sessions.userId, admin.id));
    expect(grants).toEqual([{ kind: 'two_factor' }]);
    // The code step takes the pending state: a wrong code is a 400 (without the state it is a 403).
    const step = await call('POST', '/api/login/codice', pending, { codice: '000000' });
    expect(step.statusCode, step.body).toBe(400);
    expect(step.json()).toMatchObject({ code: 'WRONG_CODE' });
    const actions = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorId, admin.id));
    expect(actions.map((a) => a.action).sort()).toEqual(['auth.login_oidc', 'college_account.link']);
  });

  it('signs in an admin without a second factor to /admin, and audits the sign-in of staff', async () => {
    const admin = await createUser(db(), { email: 'gina.admin@elis.org', ruolo: 'admin' });
    t.provider.setAccount('sub-gina', { email: 'gina.admin@elis.org', email_verified: true });
    expect((await t.collegeLogin('sub-gina')).headers.location).toBe('/admin');
    expect((await t.collegeLogin('sub-gina')).headers.location).toBe('/admin');
    const actions = await db().select({ action: auditLog.action, ruolo: auditLog.actorRuolo }).from(auditLog).where(eq(auditLog.actorId, admin.id));
    expect(actions.filter((a) => a.action === 'auth.login_oidc')).toHaveLength(2);
    expect(actions.filter((a) => a.action === 'college_account.link')).toHaveLength(1);

    const staff = await createUser(db(), { email: 'ugo.portineria@elis.org' });
    await db().insert(incarichi).values({ userId: staff.id, sedeId: staff.sedeId, ruolo: 'portineria', createdAt: TEST_NOW });
    t.provider.setAccount('sub-ugo', { email: 'ugo.portineria@elis.org', email_verified: true });
    expect((await t.collegeLogin('sub-ugo')).headers.location).toBe('/admin');
    const staffActions = await db()
      .select({ ruolo: auditLog.actorRuolo })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, staff.id), eq(auditLog.action, 'auth.login_oidc')));
    expect(staffActions).toEqual([{ ruolo: 'portineria' }]);
  });
});

describe('a new email: the completion form', () => {
  async function newcomer(sub: string, email: string, headers: Record<string, string> = {}) {
    t.provider.setAccount(sub, { email, email_verified: true, given_name: 'Mario', family_name: 'Rossi' });
    const before = await t.counts();
    const res = await t.collegeLogin(sub, { headers });
    expect(res.headers.location).toBe('/accesso/completa');
    expect(cookieFrom(res)).toBeUndefined();
    const completion = res.cookies.find((c) => c.name === COMPLETION);
    expect(completion).toMatchObject({ path: '/api/auth/oidc', httpOnly: true });
    const after = await t.counts();
    expect(after).toEqual({ ...before, oidcCompletamenti: before.oidcCompletamenti + 1 });
    return `${COMPLETION}=${completion!.value}`;
  }

  it('a resident: the details pre-filled, the sigla checked, an account with no password, linked, signed in', async () => {
    const resident = await createResident(db(), { sigla: 'MRS26' });
    const cookie = await newcomer('sub-mario', 'mario.rossi@elis.org');
    const details = await call('GET', '/api/auth/oidc/completamento', cookie);
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual({ email: 'mario.rossi@elis.org', nome: 'Mario', cognome: 'Rossi', residente: true });

    const before = await t.counts();
    const wrong = await call('POST', '/api/auth/oidc/completamento', cookie, { nome: 'Mario', cognome: 'Rossi', siglaResidente: 'NOPE99', privacy: true });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_SIGLA' });
    const noPrivacy = await call('POST', '/api/auth/oidc/completamento', cookie, { nome: 'Mario', cognome: 'Rossi', siglaResidente: resident.sigla });
    expect(noPrivacy.statusCode).toBe(400);
    expect(await t.counts()).toEqual(before);

    const done = await call('POST', '/api/auth/oidc/completamento', cookie, { nome: 'Mario', cognome: 'Rossi', siglaResidente: 'mrs26', privacy: true });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ email: 'mario.rossi@elis.org', isResidente: true, siglaResidente: 'MRS26', ruolo: 'user' });
    const [row] = await db().select().from(users).where(eq(users.email, 'mario.rossi@elis.org'));
    expect(row!.passwordHash).toBeNull();
    expect(await identityOf(row!.id)).toEqual([expect.objectContaining({ sub: 'sub-mario', issuer: t.provider.issuer })]);
    expect(await db().select({ metodo: sessions.metodo }).from(sessions).where(eq(sessions.userId, row!.id))).toEqual([{ metodo: 'oidc' }]);
    expect(done.cookies.find((c) => c.name === COMPLETION)?.value).toBe('');
    const me = await call('GET', '/api/user', cookieFrom(done));
    expect(me.json()).toMatchObject({ id: row!.id });

    // Used once; and the next login is by sub, straight in.
    expect((await call('POST', '/api/auth/oidc/completamento', cookie, { nome: 'Mario', cognome: 'Rossi', privacy: true })).statusCode).toBe(404);
    expect((await call('GET', '/api/auth/oidc/completamento', cookie)).statusCode).toBe(404);
    expect((await t.collegeLogin('sub-mario')).headers.location).toBe('/dashboard');
  });

  it('refuses a sigla someone else has, and lets an external complete without one, in the language of the login page', async () => {
    await createResident(db(), { sigla: 'TKN26' });
    await createUser(db(), { siglaResidente: 'TKN26' });
    const cookie = await newcomer('sub-nadia', 'nadia@gmail.com', { cookie: 'lingua=en' });
    const details = await call('GET', '/api/auth/oidc/completamento', cookie);
    expect(details.json()).toMatchObject({ residente: false, email: 'nadia@gmail.com' });
    const taken = await call('POST', '/api/auth/oidc/completamento', `${cookie}; lingua=en`, { nome: 'Nadia', cognome: 'Verdi', siglaResidente: 'TKN26', privacy: true });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SIGLA_TAKEN', message: expect.stringMatching(/[Rr]esident code|already/) });
    const done = await call('POST', '/api/auth/oidc/completamento', cookie, { nome: 'Nadia', cognome: 'Verdi', privacy: true });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ isResidente: false, siglaResidente: null, lingua: 'en' });
  });

  it('answers 404 without a completion cookie, or with an expired one', async () => {
    const missing = await call('GET', '/api/auth/oidc/completamento');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'COMPLETION_EXPIRED' });
    const cookie = await newcomer('sub-otto', 'otto@elis.org');
    t.ctx.clock.set(new Date(TEST_NOW.getTime() + 31 * 60_000));
    try {
      expect((await call('GET', '/api/auth/oidc/completamento', cookie)).statusCode).toBe(404);
      const late = await call('POST', '/api/auth/oidc/completamento', cookie, { nome: 'Otto', cognome: 'Bianchi', privacy: true });
      expect(late.statusCode).toBe(404);
    } finally {
      t.ctx.clock.set(TEST_NOW);
    }
    expect(await db().select().from(users).where(eq(users.email, 'otto@elis.org'))).toEqual([]);
  });
});

it('GET /api/config offers the college account with the default label', async () => {
  const res = await call('GET', '/api/config');
  expect(res.json()).toMatchObject({ accessoCollegio: { etichetta: null } });
});
