import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/server/modules/reports/service.js';
import { capturingMailer, person } from '../helpers/admin-fixtures.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { addBike, bookThroughApi } from '../helpers/booking-fixtures.js';
import { pdfPages } from '../helpers/pdf-text.js';
import { reportBikes, reportUsers, seedBookings } from '../helpers/report-fixtures.js';

/**
 * Text people type (names, destinations, bike numbers) is text wherever it is shown again:
 * escaped in the HTML of emails, drawn literally in the PDF report, never handed to the
 * browser as HTML by the web app.
 */

const IMG = '<img src=x onerror=alert(1)>';
const BOLD = '<b>x</b>';

let ctx: TestContext;
const mailer = capturingMailer();

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer } });
});
afterAll(async () => {
  await ctx.close();
});

describe('emails', () => {
  it('the welcome email shows a name with HTML as text in its HTML part', async () => {
    mailer.sent.length = 0;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { nome: IMG, cognome: BOLD, email: 'html.nome@example.it', password: 'Password-Lunga-1' },
    });
    expect(res.statusCode).toBe(201);
    const [mail] = mailer.sent;
    expect(mail!.html).toContain('Ciao &lt;img src=x onerror=alert(1)&gt;,');
    expect(mail!.html).not.toContain('<img');
    expect(mail!.text).toContain(`Ciao ${IMG},`);
  });

  it('the email of a booking cancelled with its bike out of use shows a name and a bike number with HTML as text', async () => {
    const admin = await person(ctx, { ruolo: 'admin' });
    const user = await person(ctx, { nome: BOLD });
    const bike = await addBike(ctx.database.db, '<b>7</b>');
    // Within the next 24 hours, no other bike: the fleet's heal cancels it and tells its person (issue 35).
    await bookThroughApi(ctx.app, user, bike, { orarioInizio: '09:00', orarioFine: '10:00' });
    mailer.sent.length = 0;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/biciclette/${bike}`,
      headers: { cookie: admin.cookie },
      payload: { stato: 'manutenzione' },
    });
    expect(res.statusCode).toBe(200);
    const mail = mailer.sent.find((m) => m.to === user.email)!;
    expect(mail.html).toContain('Ciao &lt;b&gt;x&lt;/b&gt;,');
    expect(mail.html).toContain('n. &lt;b&gt;7&lt;/b&gt;');
    expect(mail.html).not.toMatch(/<b>(x|7)<\/b>/);
  });
});

describe('the PDF report', () => {
  it('draws names and destinations with HTML literally, character for character', async () => {
    const [userId] = await reportUsers(ctx.database.db, 1, { residente: true, nome: BOLD, cognome: 'Rossi' });
    const [bikeId] = await reportBikes(ctx.database.db, 1);
    await seedBookings(ctx.database.db, [
      { userId: userId!, biciId: bikeId!, date: '2026-11-20', start: '10:00', end: '11:00', stato: 'completata', destinazione: IMG },
    ]);
    ctx.clock.set(TEST_NOW);
    const text = (await pdfPages(await renderReport({ db: ctx.database.db, clock: ctx.clock, config: { timeZone: 'Europe/Rome' } }, '2026-11-20'))).join(' ');
    // pdf.js may split a line into items joined by spaces: compare without spaces.
    const squeezed = text.replace(/\s+/g, '');
    expect(squeezed).toContain(IMG.replace(/\s+/g, ''));
    expect(squeezed).toContain(BOLD);
    expect(text).not.toContain('&lt;');
  });
});

describe('the web app', () => {
  // React escapes every text it renders; only these would hand a string to the browser as
  // HTML. None may appear in the app's source (a failing case names the file).
  const RAW_HTML_SINKS = /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write\(/;

  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? sourceFiles(file) : /\.(tsx?|jsx?)$/.test(name) ? [file] : [];
    });
  }

  it('never renders user text as HTML: no raw-HTML sink in src/web', () => {
    const files = sourceFiles(path.resolve('src/web'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => RAW_HTML_SINKS.test(readFileSync(file, 'utf8')))).toEqual([]);
    expect(RAW_HTML_SINKS.test('<div dangerouslySetInnerHTML={{ __html: nome }} />')).toBe(true);
  });
});
