import fs from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_STATE_ELEMENT_ID } from '../../src/shared/server-page.js';
import { renderPage } from '../../src/web/boot/entry-server.js';
import { render as prerender } from '../../src/web/boot/prerender.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { person, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';

/**
 * Issue 47, the golden rule: an install with one open sede looks exactly as before sedi. No
 * screen shows the word `Sede` (Italian) or `Location` (English): the pages the server renders
 * with a person's data (/dashboard with a booking's card, /admin), and the pages built ahead
 * (/login, /registrazione, …), in both languages. With a second sede the card names it, on the
 * server as in the browser (decision 039). And every text of the catalogue holding the word is a
 * sedi text, used on a screen only behind `several`.
 */

const WORD = { it: /\bsed[ei]\b/i, en: /\blocations?\b/i } as const;
const TEMPLATE = (screen: string) =>
  `<!doctype html><html lang="it"><head><title>BiciElis</title></head><body><div id="root" data-prerendered="${screen}"></div>\n</body></html>`;

let webRoot: string;
let ctx: TestContext;
const db = () => ctx.database.db;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-one-sede-'));
  for (const [file, screen] of [['index.html', 'loading'], ['dashboard.html', 'loading'], ['admin.html', 'loading']] as const) {
    await fs.writeFile(path.join(webRoot, file), TEMPLATE(screen));
  }
  ctx = await createTestApp({ deps: { webRoot, pageRenderer: { renderPage } } });
});
afterAll(async () => {
  await ctx?.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});

/** What a reader sees of a served page: the HTML of #root without its tags, the state script left out. */
function shown(html: string): string {
  const withoutState = html.replace(new RegExp(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">[\\s\\S]*?</script>`), '');
  return withoutState.replaceAll('<!-- -->', '').replace(/<[^>]+>/g, ' ');
}

async function servedHtml(url: string, who: Person, lingua: 'it' | 'en'): Promise<string> {
  await db().execute(sql`update users set lingua = ${lingua} where id = ${who.id}`);
  const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
  expect(res.statusCode).toBe(200);
  expect(res.body, `${url} server-rendered`).toContain(SERVER_STATE_ELEMENT_ID);
  return res.body;
}
const served = async (url: string, who: Person, lingua: 'it' | 'en') => shown(await servedHtml(url, who, lingua));

/**
 * The one exception (decision 053): /admin's link to /admin → Sedi, for the admin who sets the
 * install up. A second residence is made there, so it shows with one sede too; nothing else does.
 */
const SEDI_LINK = /<a[^>]*href="\/admin\/sedi"[^>]*>[\s\S]*?<\/a>/g;

describe('one open sede', () => {
  let rider: Person;
  let admin: Person;
  beforeAll(async () => {
    rider = await person(ctx, { nome: 'Ugo' });
    admin = await person(ctx, { ruolo: 'admin', nome: 'Ada' });
    const bike = await insertBike(db(), { numero: '07', modello: 'Hybrid Trekking' });
    // Today (TEST_NOW is 10:00 in Rome), later on: an active booking's card; and a past one.
    await insertBooking(db(), { userId: rider.id, biciId: bike, date: '2026-11-21', from: '15:00', to: '16:00' });
    await insertBooking(db(), { userId: rider.id, biciId: bike, date: '2026-11-20', from: '15:00', to: '16:00', stato: 'completata' });
  });

  for (const lingua of ['it', 'en'] as const) {
    it(`the server-rendered /dashboard and /admin never show the word (${lingua})`, async () => {
      const dashboard = await served('/dashboard', rider, lingua);
      expect(dashboard).toContain('07');
      expect(dashboard).not.toMatch(WORD[lingua]);
      expect(dashboard).not.toContain('Sede principale');
      const adminHtml = await servedHtml('/admin', admin, lingua);
      expect(adminHtml.match(SEDI_LINK) ?? []).toHaveLength(1);
      const adminPage = shown(adminHtml.replace(SEDI_LINK, ''));
      expect(adminPage).not.toMatch(WORD[lingua]);
      expect(adminPage).not.toContain('Sede principale');
    });

    it(`the pages built ahead never show the word (${lingua})`, async () => {
      for (const page of ['/login', '/registrazione', '/recupera-password', '/privacy', '/dashboard', '/profilo']) {
        const { html } = await prerender(page, lingua);
        expect(shown(html), page).not.toMatch(WORD[lingua]);
      }
    });
  }
});

describe('a second open sede', () => {
  it('the server-rendered card names the booking’s sede', async () => {
    const nord = (await db().execute<{ id: number }>(sql`insert into sedi (nome) values ('Residenza Nord') returning id`)).rows[0]!.id;
    const who = await person(ctx, { nome: 'Nina' });
    const { rows } = await db().execute<{ id: number }>(sql`insert into biciclette (numero, modello, sede_id) values ('15', 'City Bike', ${nord}) returning id`);
    await insertBooking(db(), { userId: who.id, biciId: rows[0]!.id, date: '2026-11-21', from: '15:00', to: '16:00' });
    const dashboard = await served('/dashboard', who, 'it');
    expect(dashboard).toMatch(/Bici 15 · City Bike · Residenza Nord/);
    await db().execute(sql`update sedi set archiviata_at = now() where id = ${nord}`);
    // Archived, it is one open sede again: the card is as before.
    expect(await served('/dashboard', who, 'it')).not.toContain('Residenza Nord');
  });
});

describe('the catalogue', () => {
  const root = path.join(import.meta.dirname, '../../src');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const messages = walk(path.join(root, 'shared/i18n/messages')).filter((f) => f.endsWith('.json'));
  const withWord = messages.flatMap((file) =>
    Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, { it: string; en: string }>)
      .filter(([, v]) => WORD.it.test(v.it) || WORD.en.test(v.en))
      .map(([key]) => ({ key, file: path.basename(file) })),
  );

  it('holds the word only in the sedi files (and the refusal of an unknown sede)', () => {
    expect(withWord.length).toBeGreaterThan(0);
    for (const { key, file } of withWord) expect(key === 'schemas.sedeNotFound' || /(^|-)sed[ei](-|\.)/.test(file), `${key} in ${file}`).toBe(true);
  });

  it('is used on a screen only by a file that asks whether there are several sedi', () => {
    const web = walk(path.join(root, 'web')).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'));
    for (const file of web) {
      const code = readFileSync(file, 'utf8');
      for (const { key } of withWord) {
        // Reached only from a screen that asked, or the admins' own: /admin's link and the page it
        // opens (the one exception, above), and the toast of a bike moved to another sede, a move
        // bike-sede-field.tsx offers only with several.
        const asked =
          (key === 'sediPage.link' && file.endsWith(path.join('admin', 'admin-page.tsx'))) ||
          /admin\/sedi-(page\.tsx|queries\.ts)$/.test(file.split(path.sep).join('/')) ||
          (key.startsWith('sediMovesTab.') && file.endsWith(path.join('admin', 'queries.ts')));
        if (key !== 'schemas.sedeNotFound' && !asked && code.includes(`'${key}'`)) expect(code, `${path.relative(root, file)} uses ${key}`).toMatch(/several/i);
      }
    }
  });
});
