import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingMailer, person } from '../helpers/admin-fixtures.js';
import { createTestApp, type RouteEntry, type TestContext } from '../helpers/app.js';

/**
 * A request that sends no body at all (no content type, no bytes): every route that writes
 * answers it with a message, never a 500. Until 2026-11-29 a window's schema read the times of a
 * body that was not there, and POST /api/biciclette/available, /api/prenotazioni and /api/attese
 * answered 500 to it (found by the repair tickets' fuzz, issue 48).
 */

let ctx: TestContext & { routes: RouteEntry[] };
beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer: capturingMailer() } });
});
afterAll(async () => {
  await ctx?.close();
});

describe('a request with no body', () => {
  it('gets a 4xx or a 2xx with a message from every POST, PUT and PATCH route, as a user and as an admin; never a 5xx', async () => {
    // The logout last: it ends the session the other requests are made in.
    const writes = ctx.routes
      .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.url.startsWith('/api/'))
      .sort((a, b) => Number(a.url === '/api/logout') - Number(b.url === '/api/logout'));
    expect(writes.length).toBeGreaterThan(50);
    const user = await person(ctx);
    const admin = await person(ctx, { ruolo: 'admin' });
    const failures: string[] = [];
    for (const who of [user, admin]) {
      for (const route of writes) {
        const url = route.url.replace(/:[A-Za-z]+/g, '1');
        const res = await ctx.app.inject({ method: route.method as 'POST', url, headers: { cookie: who.cookie } });
        if (res.statusCode === 401 && route.url !== '/api/logout') failures.push(`${route.method} ${url}: 401, the session was lost`);
        if (res.statusCode >= 500) failures.push(`${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        else if (res.statusCode >= 400 && typeof res.json<{ message?: unknown }>().message !== 'string') failures.push(`${route.method} ${url}: ${res.statusCode} without a message`);
      }
    }
    expect(failures).toEqual([]);
  });
});
