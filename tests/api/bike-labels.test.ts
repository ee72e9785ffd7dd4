import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABEL_SENTENCE, LABELS_PER_PAGE } from '../../src/server/integrations/pdf/bike-labels.js';
import { call, person, type Person } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { pdfPages } from '../helpers/pdf-text.js';

/**
 * Issue 34, "A QR code on every bike": GET /api/admin/biciclette/etichette.pdf, one label per
 * bike on A4 (8 a page), each with the number, the QR code of `{PUBLIC_URL}/bici/{numero}` (the
 * code's payload: src/server/integrations/pdf/bike-labels.test.ts reads it back) and the sentence.
 */
const PUBLIC_URL = 'https://bici.collegio.example';
const URL_PATH = '/api/admin/biciclette/etichette.pdf';
let ctx: TestContext;
let admin: Person;
let user: Person;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL } });
  admin = await person(ctx, { ruolo: 'admin' });
  user = await person(ctx);
});
afterAll(async () => ctx?.close());

async function setFleet(numeri: string[]) {
  await ctx.database.db.execute(sql`truncate biciclette restart identity cascade`);
  for (const numero of numeri) await insertBike(ctx.database.db, { numero, stato: numero === '03' ? 'manutenzione' : 'disponibile' });
}

describe('GET /api/admin/biciclette/etichette.pdf', () => {
  it('one label per bike, 8 a page, each with its number, its page\'s address and the sentence', async () => {
    const numeri = Array.from({ length: 11 }, (_, i) => String(i + 1).padStart(2, '0'));
    await setFleet(numeri);
    const res = await call(ctx.app, admin, 'GET', URL_PATH);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="etichette-bici.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const pages = await pdfPages(res.rawPayload);
    expect(LABELS_PER_PAGE).toBe(8);
    expect(pages).toHaveLength(2);
    const onPage = (text: string) => numeri.filter((n) => text.includes(`${PUBLIC_URL}/bici/${n}`));
    expect(onPage(pages[0]!)).toEqual(numeri.slice(0, 8));
    expect(onPage(pages[1]!)).toEqual(numeri.slice(8));
    for (const [i, page] of pages.entries()) {
      const count = i === 0 ? 8 : 3;
      expect(page.split(LABEL_SENTENCE).length - 1).toBe(count);
      expect(page.match(/\bBici\b/g)).toHaveLength(count);
    }
    // Every bike, in maintenance too (its label stays on it), each number as its own text.
    for (const n of numeri) expect(pages.join(' ')).toMatch(new RegExp(`Bici ${n} `));
  });

  it('a number that is not URL-safe is encoded in the address; no bikes: one page that says so', async () => {
    await setFleet(['City 12']);
    const [page] = await pdfPages((await call(ctx.app, admin, 'GET', URL_PATH)).rawPayload);
    expect(page).toContain(`${PUBLIC_URL}/bici/City%2012`);
    expect(page).toContain('City 12');

    await setFleet([]);
    const empty = await call(ctx.app, admin, 'GET', URL_PATH);
    expect(empty.statusCode).toBe(200);
    const pages = await pdfPages(empty.rawPayload);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain("Nessuna bicicletta: aggiungine una per stamparne l'etichetta.");
  });

  it('401 anonymous, 403 for a user who is not an admin', async () => {
    const anonymous = await call(ctx.app, null, 'GET', URL_PATH);
    expect(anonymous.statusCode).toBe(401);
    const notAdmin = await call(ctx.app, user, 'GET', URL_PATH);
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.headers['content-type']).toMatch(/^application\/json/);
  });
});
