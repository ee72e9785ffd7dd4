import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeError } from '../../src/server/logger.js';
import type { ServerPageInput } from '../../src/shared/server-page.js';
import { collectedLogLines, collectingLogger, findLeaks, knownSecrets, noteRequestSecrets, noteResponseSecrets } from '../helpers/leak-scan.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';
import { lifecycleJob } from '../../src/server/jobs/app-jobs.js';

// The scanner of tests/helpers/scan-logs-after-file.ts must be able to fail: each kind of
// leak it looks for is found here, and clean lines pass.

const TOKEN = 'q9Xr3m1ZtWcE7bYp0VhK2sLdN5aGfJ8uOiR4eT6yBnM';

describe('findLeaks', () => {
  it('finds each kind of secret or internal detail', () => {
    const cases: [string, string][] = [
      ['{"hash":"$argon2id$v=19$m=19456,t=2,p=1$abc$def"}', 'password hash'],
      ['{"key":"sk_test_51Habcdefghijkl"}', 'Stripe secret key'],
      ['{"secret":"whsec_abcdefghijkl"}', 'Stripe webhook secret'],
      ['{"err":{"stack":"Error: boom\\n    at run (/app/src/x.ts:10:5)"}}', 'stack trace'],
      ['Error: boom\n    at run (/app/src/x.ts:10:5)', 'stack trace'],
      ['{"msg":"Failed query: select \\"id\\" from \\"users\\" where \\"email\\" = $1"}', 'SQL text'],
      ['insert into "sessions" ("token_hash") values ($1)', 'SQL text'],
    ];
    for (const [line, what] of cases) {
      expect(findLeaks(line, []).map((l) => l.what), line).toContain(what);
    }
  });

  it('finds a known secret as is and inside a JSON string', () => {
    expect(findLeaks(`{"cookie":"bicielis_session=${TOKEN}"}`, [TOKEN])).toHaveLength(1);
    const password = 'pa"ss\\word-2026';
    expect(findLeaks(JSON.stringify({ body: { password } }), [password])).toHaveLength(1);
  });

  it('passes clean lines, a logged URL with a fuzzed SQL fragment included', () => {
    expect(findLeaks('{"level":30,"msg":"request completed","res":{"statusCode":400}}', [TOKEN])).toEqual([]);
    expect(findLeaks(`{"req":{"url":"/api/validate-sigla/'%20OR%201=1;%20DROP%20TABLE%20users;--"}}`, [TOKEN])).toEqual([]);
  });

  it('notes the tokens of cookies and Set-Cookie, and passwords of bodies, then finds them', () => {
    const grant = TOKEN.split('').reverse().join('');
    expect(findLeaks(`${TOKEN} ${grant} Segreta-Lunga-1`)).toEqual([]);
    noteRequestSecrets({ bicielis_session: TOKEN }, { password: 'Segreta-Lunga-1', email: 'a@b.it' });
    noteResponseSecrets([`bicielis_pwchange=${grant}; Path=/api/change-password; HttpOnly`]);
    expect(findLeaks(`${TOKEN} ${grant} Segreta-Lunga-1`).map((l) => l.what)).toHaveLength(3);
    // Short values are not noted: a fuzzed password "abc" would match anything.
    noteRequestSecrets({}, { password: 'abc' });
    expect(findLeaks('abc')).toEqual([]);
    knownSecrets.delete(TOKEN);
    knownSecrets.delete(grant);
    knownSecrets.delete('Segreta-Lunga-1');
  });
});

describe('the logger writes errors without SQL, with the stack’s frames', () => {
  it('a driver error wrapped by drizzle: its cause message, code and constraint only', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
      code: '23505',
      constraint: 'users_email_unique',
    });
    const wrapped = Object.assign(new Error('Failed query: insert into "users" ("email") values ($1)\nparams: a@b.it'), {
      query: 'insert into "users" ("email") values ($1)',
      cause,
    });
    expect(serializeError(wrapped)).toEqual({
      type: 'Error',
      message: 'duplicate key value violates unique constraint "users_email_unique"',
      code: '23505',
      constraint: 'users_email_unique',
      stack: expect.stringMatching(/^\s+at .*leak-scan\.test\.ts:\d+:\d+/),
    });
    const before = collectedLogLines.length;
    collectingLogger('info').error({ err: wrapped }, 'unhandled error');
    const line = collectedLogLines.splice(before)[0]!;
    expect(line).toContain('users_email_unique');
    expect(findLeaks(line, [], { inLog: true })).toEqual([]);
    expect(line).not.toContain('Failed query');
    expect(line).not.toContain('a@b.it');
    // A response with the same stack would be caught.
    expect(findLeaks(line, []).map((l) => l.what)).toEqual(['stack trace']);
    // Without the serializer the same line would be caught (the scanner is not blind).
    expect(findLeaks(JSON.stringify({ err: { message: wrapped.message, stack: wrapped.stack } }), []).length).toBeGreaterThan(0);
  });
});

/**
 * The lock codes (issue 34, decision 044): a combination lock's code and a ride's new code reach
 * their owner only through GET /api/prenotazioni/:id/codice and the pick-up's and return's
 * answers; never a list, the server-rendered state, an email, the calendar, the data export or a
 * log. Four digits are too short for the global scan of known secrets (they would match by
 * chance), so this test picks codes no date, time or id of its data contains, and looks for them
 * as whole numbers in every other place.
 */
describe('the lock codes appear nowhere else', () => {
  const mailer = capturingMailer();
  const rendered: string[] = [];
  let ctx: TestContext;
  let webRoot: string;
  const page =
    '<!doctype html><html lang="it"><head><title>BiciElis</title></head><body>' +
    '<div id="root" data-prerendered="loading"><main>Caricamento</main></div>\n</body></html>';

  beforeAll(async () => {
    webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-leak-'));
    for (const file of ['index.html', 'login.html', 'dashboard.html', 'admin.html']) await fs.writeFile(path.join(webRoot, file), page);
    const renderPage = async (input: ServerPageInput) => {
      const state = JSON.stringify(input);
      rendered.push(state);
      return { html: '<main>Pagina</main>', state };
    };
    ctx = await createTestApp({ deps: { mailer, webRoot, pageRenderer: { renderPage } } });
    await truncateAll(ctx.database.db);
  });
  afterAll(async () => {
    await ctx?.close();
    await fs.rm(webRoot, { recursive: true, force: true });
  });

  it('not in the lists, the rendered pages, the emails, the calendar, the export or the logs', async () => {
    const LOCK_CODE = '7395';
    const DEVICE_CODE = '8164';
    const whole = (code: string) => new RegExp(`(?<![0-9])${code}(?![0-9])`);
    const admin = await person(ctx, { ruolo: 'admin', email: 'leak-admin@test.it' });
    const rider = await person(ctx, { email: 'leak-rider@test.it' });
    const bike = await insertBike(ctx.database.db);
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/biciclette/${bike}/lucchetto`, { tipo: 'combinazione', codice: LOCK_CODE })).statusCode).toBe(200);
    const booked = await call(ctx.app, rider, 'POST', '/api/prenotazioni', {
      dataPrenotazione: '2026-11-22',
      orarioInizio: '10:00',
      orarioFine: '12:00',
      biciId: bike,
    });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().id as number;
    const feed = await call(ctx.app, rider, 'POST', '/api/profilo/calendario');
    expect(feed.statusCode).toBe(200);
    const feedUrl = new URL(feed.json().url as string).pathname;
    const minuteJob = () =>
      lifecycleJob({ database: ctx.database, clock: ctx.clock, mailer, config: ctx.config, log: collectingLogger('info'), push: { async send() {} } })();

    // The reminder before the start, the code shown, the pick-up with a device's code.
    ctx.clock.set('2026-11-22T08:30:00Z');
    await minuteJob();
    ctx.clock.set('2026-11-22T08:55:00Z');
    const shown = await call(ctx.app, rider, 'GET', `/api/prenotazioni/${id}/codice`);
    expect(shown.json().codice).toBe(LOCK_CODE);
    const taken = await call(ctx.app, rider, 'POST', `/api/prenotazioni/${id}/ritiro`, {
      idAzione: crypto.randomUUID(),
      oraDispositivo: '2026-11-22T08:54:00.000Z',
      nuovoCodice: DEVICE_CODE,
    });
    expect(taken.json().nuovoCodice).toBe(DEVICE_CODE);
    ctx.clock.set('2026-11-22T10:50:00Z');
    await minuteJob(); // the reminder before the end

    const elsewhere: [string, string][] = [];
    const get = async (who: typeof rider, url: string) => {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
      elsewhere.push([url, res.body]);
      return res;
    };
    await get(rider, '/api/prenotazioni/user');
    await get(rider, '/api/profilo/dati');
    await get(rider, `/api/prenotazioni/${id}/calendario.ics`);
    await get(admin, '/api/admin/prenotazioni?page=1&pageSize=50');
    await get(admin, '/api/admin/ritardi');
    await get(admin, '/api/admin/summary');
    expect((await get(rider, '/dashboard')).statusCode).toBe(200);
    expect((await get(admin, '/admin')).statusCode).toBe(200);
    elsewhere.push(['calendar feed', (await ctx.app.inject({ method: 'GET', url: feedUrl })).body]);

    // The return tells the rider; then the lock holds the new code, and still nothing else does.
    // With a damage report: the admins' email too.
    const back = await call(ctx.app, rider, 'POST', `/api/prenotazioni/${id}/riconsegna`, {
      danno: { categoria: 'freni', descrizione: 'Freno posteriore morbido' },
    });
    expect(back.json().nuovoCodice).toBe(DEVICE_CODE);
    await get(rider, '/api/prenotazioni/user');
    await get(rider, '/api/profilo/dati');
    await get(rider, '/dashboard');

    expect(rendered.length).toBeGreaterThan(0);
    expect(mailer.sent.length).toBeGreaterThan(0);
    const places: [string, string][] = [
      ...elsewhere,
      ...rendered.map((r, i): [string, string] => [`server-rendered state ${i}`, r]),
      ...mailer.sent.map((m, i): [string, string] => [`email ${i}: ${m.subject}`, JSON.stringify(m)]),
      ['logs', collectedLogLines.join('\n')],
    ];
    for (const [where, text] of places) {
      expect(text, where).not.toMatch(whole(LOCK_CODE));
      expect(text, where).not.toMatch(whole(DEVICE_CODE));
    }
    // The scan is not blind: the answers meant for the rider do carry the codes.
    expect(shown.body).toMatch(whole(LOCK_CODE));
    expect(back.body).toMatch(whole(DEVICE_CODE));
  });
});
