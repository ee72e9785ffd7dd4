import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { totpCode } from '../../src/server/modules/two-factor/totp.js';
import { createTestApp, type RouteEntry, type TestContext } from '../helpers/app.js';
import { createUser, loginAs } from '../helpers/factories.js';

/**
 * ADMIN_2FA_REQUIRED=true (decision 030): an admin without a second factor gets no admin
 * route at all. The admin routes are not listed here: they are found from the app's own
 * inventory, as the routes a plain user is refused by the role guard (403 FORBIDDEN before
 * any validation: the guard runs onRequest).
 */

let ctx: TestContext & { routes: RouteEntry[] };
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-2fa-req-'));
  ctx = await createTestApp({ env: { DATA_DIR: dataDir, ADMIN_2FA_REQUIRED: 'true', TOTP_ENCRYPTION_KEY: 'b2'.repeat(32) } });
});
afterAll(async () => {
  await ctx?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A fresh session per request: a route such as logout must not spoil the next case. */
async function cookieOf(userId: number) {
  const { token } = await createSession(ctx.database.db, userId, 'session', ctx.clock.now());
  return `bicielis_session=${token}`;
}

/** The error code of a 403 (a HEAD answer has no body: its GET twin says which code). */
function refusal(res: { statusCode: number; body: string }, head: boolean): string | undefined {
  if (res.statusCode !== 403) return undefined;
  return head ? 'HEAD-403' : (JSON.parse(res.body) as { code?: string }).code;
}

function request(route: RouteEntry, cookie: string) {
  // Ids that match nothing: the answer says who may, not what exists.
  const url = route.url.replace(/:[A-Za-z]+/g, '999999');
  return ctx.app.inject({ method: route.method as 'GET', url, headers: { cookie } });
}

describe('ADMIN_2FA_REQUIRED=true', () => {
  it('every admin route refuses an admin without a second factor, and works once they enrol', async () => {
    const user = await createUser(ctx.database.db);
    const bare = await createUser(ctx.database.db, { ruolo: 'admin' });
    const enrolled = await createUser(ctx.database.db, { ruolo: 'admin' });
    // The enrolment itself works without a second factor (else nobody could enrol).
    const enrolling = await loginAs(ctx.app, enrolled.email);
    const login = await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie: enrolling } });
    expect(login.json()).toMatchObject({ ruolo: 'admin', dueFattoriDaAttivare: true });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/due-fattori', headers: { cookie: enrolling } })).json()).toMatchObject({
      attiva: false,
      obbligatoria: true,
    });
    const started = await ctx.app.inject({ method: 'POST', url: '/api/due-fattori/attivazione', headers: { cookie: enrolling } });
    const { segreto } = started.json() as { segreto: string };
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: '/api/due-fattori/conferma',
      headers: { cookie: enrolling },
      payload: { codice: totpCode(segreto, ctx.clock.now()) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await ctx.app.inject({ method: 'GET', url: '/api/current-user', headers: { cookie: enrolling } });
    expect(after.json()).not.toHaveProperty('dueFattoriDaAttivare');

    // GET before its HEAD twin, whose answer has no body to read the code from.
    const routes = ctx.routes.filter((r) => r.url.startsWith('/api/')).sort((a, b) => Number(a.method === 'HEAD') - Number(b.method === 'HEAD'));
    const adminRoutes: string[] = [];
    const problems: string[] = [];
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      const asUser = await request(route, await cookieOf(user.id));
      const head = route.method === 'HEAD';
      const isAdminRoute = head ? adminRoutes.includes(`GET ${route.url}`) && asUser.statusCode === 403 : refusal(asUser, head) === 'FORBIDDEN';
      if (isAdminRoute) adminRoutes.push(label);
      const asBare = await request(route, await cookieOf(bare.id));
      const bareCode = head && asBare.statusCode === 403 && isAdminRoute ? 'TWO_FACTOR_ENROLMENT_REQUIRED' : refusal(asBare, head);
      if (isAdminRoute && bareCode !== 'TWO_FACTOR_ENROLMENT_REQUIRED') problems.push(`${label}: admin without 2FA got ${asBare.statusCode} ${asBare.body.slice(0, 120)}`);
      if (!isAdminRoute && bareCode === 'TWO_FACTOR_ENROLMENT_REQUIRED') problems.push(`${label}: not an admin route, yet refused for 2FA`);
      if (isAdminRoute && !head && bareCode === 'TWO_FACTOR_ENROLMENT_REQUIRED') {
        expect((asBare.json() as { message: string }).message).toMatch(/verifica in due passaggi/);
      }
      if (isAdminRoute) {
        const asEnrolled = await request(route, await cookieOf(enrolled.id));
        if (asEnrolled.statusCode === 401 || asEnrolled.statusCode === 403) {
          problems.push(`${label}: the enrolled admin got ${asEnrolled.statusCode} ${asEnrolled.body.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The inventory found the admin area: every /api/admin/ and /api/reports route, and the repair
    // tickets' staff routes (issue 48: a user without a role is refused them; an admin is an admin
    // there too), and nothing else.
    const STAFF_TICKETS = ['GET /api/interventi', 'HEAD /api/interventi', 'PATCH /api/interventi/:id', 'POST /api/interventi/:id/note'];
    const expectedByPrefix = routes
      .filter((r) => r.url.startsWith('/api/admin/') || r.url.startsWith('/api/reports') || STAFF_TICKETS.includes(`${r.method} ${r.url}`))
      .map((r) => `${r.method} ${r.url}`);
    expect(adminRoutes.sort()).toEqual(expectedByPrefix.sort());
    expect(adminRoutes.length).toBeGreaterThan(30);
  }, 120_000);

  it('the login of an admin without a second factor still works and says they must enrol', async () => {
    const admin = await createUser(ctx.database.db, { ruolo: 'admin' });
    const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: admin.email, password: admin.password } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ruolo: 'admin', dueFattoriDaAttivare: true });
    const user = await createUser(ctx.database.db);
    const plain = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
    expect(plain.json()).toMatchObject({ ruolo: 'user' });
    expect(plain.json()).not.toHaveProperty('dueFattoriDaAttivare');
  });
});
