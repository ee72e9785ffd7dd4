import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { openDays, sessionFor, withE2eDatabase } from './database';
import { expect, listedScripts, scriptStarts, test, watchFirstPaint } from './fixtures';

/*
 * /dashboard and /admin rendered on the server with the user's data (issue 22, decision 027):
 * with JavaScript off the HTML alone shows the user's page; with it on, React adopts that HTML
 * (the same elements stay, nothing moves, nothing is fetched again, no console error) and the
 * page works. The people, the bike and the bookings are written into the database: nothing
 * another spec does can change them.
 */

const TIME_ZONE = 'Europe/Rome';
const PHONE = { width: 412, height: 823 };
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface Rider {
  nome: string;
  bike: string;
  token: string;
  /** The day of the active booking (10:00–12:00) and of the offer (07:00–07:30). */
  day: string;
}

/**
 * A resident with a session, a bike of their own, a booking on it on the first open day (not
 * picked up yet: `Ritirata` waits for 09:50), a ride done last week, and an offer from a
 * waitlist on the next open day on the same bike (its countdown shows the time of the render).
 */
async function rider(): Promise<Rider> {
  const id = unique();
  const nome = `Rita${id.slice(-5)}`;
  const bike = `S${id}`.slice(0, 12);
  const token = randomBytes(32).toString('base64url');
  const today = zonedToday(new Date(), TIME_ZONE);
  const windows = [{ orarioInizio: '07:00', orarioFine: '07:30' }, { orarioInizio: '10:00', orarioFine: '12:00' }];
  const [day, offerDay] = (await openDays({ count: 2, windows })) as [string, string];
  const lastWeek = addDays(today, -7);
  await withE2eDatabase(async (db) => {
    await db.query(
      `with u as (insert into users (nome, cognome, email, password_hash, is_residente) values ($1, 'Server', $2, 'x', true) returning id)
       insert into sessions (token_hash, user_id, kind, expires_at) select $3, u.id, 'session', now() + interval '1 day' from u`,
      [nome, `ssr-${id}@bicielis.test`, createHash('sha256').update(token).digest('hex')],
    );
    await db.query(`insert into biciclette (numero, modello) values ($1, 'Graziella Server')`, [bike]);
    const booking = (date: string, start: string, end: string, extra: string) =>
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, ${extra.split('|')[0]})
       select u.id, b.id, '${date}'::date, '${start}', '${end}',
              ('${date} ${start}')::timestamp at time zone '${TIME_ZONE}', ('${date} ${end}')::timestamp at time zone '${TIME_ZONE}', ${extra.split('|')[1]}
         from users u, biciclette b where u.email = $1 and b.numero = $2`;
    const args = [`ssr-${id}@bicielis.test`, bike];
    await db.query(booking(day, '10:00', '12:00', `stato|'Stazione del test', 'attiva'`), args);
    await db.query(
      booking(
        lastWeek,
        '09:00',
        '11:00',
        `stato, ritirata_at, riconsegnata_at|'Villa del test', 'completata', ('${lastWeek} 09:05')::timestamp at time zone '${TIME_ZONE}', ('${lastWeek} 10:40')::timestamp at time zone '${TIME_ZONE}'`,
      ),
      args,
    );
    await db.query(
      `with w as (
         insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato)
         select u.id, $3::date, '07:00', '07:30', ($3 || ' 07:00')::timestamp at time zone '${TIME_ZONE}',
                ($3 || ' 07:30')::timestamp at time zone '${TIME_ZONE}', 'Mercato del test', 'offerta'
           from users u where u.email = $1
         returning id, user_id, inizio, fine)
       insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, attesa_id, offerta_scade_at)
       select w.user_id, b.id, $3::date, '07:00', '07:30', w.inizio, w.fine, 'Mercato del test', 'offerta', w.id, now() + interval '14 minutes'
         from w, biciclette b where b.numero = $2`,
      [...args, offerDay],
    );
  });
  return { nome, bike, token, day };
}

async function contextFor(browser: Browser, baseURL: string | undefined, token: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, locale: 'it-IT', timezoneId: TIME_ZONE, javaScriptEnabled });
  await context.addCookies([{ name: 'bicielis_session', value: token, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/** A session of the demo admin, written into the database. */
const adminToken = (): Promise<string> => sessionFor('admin@bicielis.demo');

/**
 * Before the page's scripts run: every layout shift is summed, and the heading, first list
 * item and first card list of the HTML are kept as the parser inserts them, to find out later whether React
 * adopted them or painted new ones. Returns the API paths the page asks for, as it asks.
 */
async function watchHydration(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    const w = window as unknown as { shift: number; served: Element[] };
    w.shift = 0;
    w.served = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    // The first of each the parser inserts: React's own, had it painted the page again, come later.
    const first = new Map<string, Element>();
    new MutationObserver(() => {
      for (const selector of ['#root h1', '#root li', '#root dl']) {
        const found = document.querySelector(selector);
        if (found && !first.has(selector)) first.set(selector, found);
      }
      w.served = [...first.values()];
    }).observe(document, { childList: true, subtree: true });
  });
  const api: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) api.push(pathname);
  });
  return api;
}

/** Whether the elements the server sent are still the ones on the page. */
const servedElementsKept = (page: Page) =>
  page.evaluate(() => {
    const { served } = window as unknown as { served: Element[] };
    return served.length > 0 && served.every((e) => e.isConnected);
  });

test.describe('pages rendered on the server', () => {
  test('with JavaScript off, the dashboard’s HTML shows the welcome line, the bookings, their buttons and the offer', async ({ browser, baseURL }) => {
    const rita = await rider();
    const context = await contextFor(browser, baseURL, rita.token, false);
    try {
      const page = await context.newPage();
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Benvenuto, ${rita.nome} Server`);
      const active = page.getByRole('region', { name: 'Le tue prenotazioni attive' });
      await expect(active.getByRole('heading', { name: `Bici ${rita.bike} · Graziella Server` })).toBeVisible();
      await expect(active).toContainText('Stazione del test');
      await expect(active.getByRole('button', { name: 'Ritirata' })).toBeDisabled();
      await expect(active).toContainText('Potrai ritirarla dalle 09:50');
      // Shown, and inert (looking disabled) until the app has started (here: never).
      await expect(active.getByRole('button', { name: 'Elimina' })).toHaveCSS('pointer-events', 'none');
      await expect(active.getByRole('button', { name: 'Elimina' })).toHaveCSS('opacity', '0.5');
      const past = page.getByRole('region', { name: 'Prenotazioni passate' });
      await expect(past).toContainText('Villa del test');
      await expect(past).toContainText('Riconsegnata alle 10:40');
      await expect(page.getByRole('region', { name: /^Una bici si è liberata per il/ })).toContainText(/Tenuta per te ancora 1[34]:\d\d/);
      await expect(page.getByRole('definition').first()).toHaveText('1');
      await expect(page.getByText('Caricamento')).toHaveCount(0);
      // The first paint waits for the whole header (vite.config.ts), which is there.
      await expect(page.locator('head link[rel="expect"][blocking="render"]')).toHaveAttribute('href', '#page-bar-end');
      await expect(page.locator('#root header#page-header > span#page-bar-end[hidden]')).toHaveCount(1);
    } finally {
      await context.close();
    }
  });

  test('with JavaScript on, React adopts the dashboard as served: no error, no shift, no second read, and it works', async ({ browser, baseURL }) => {
    const rita = await rider();
    const context = await contextFor(browser, baseURL, rita.token, true);
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      page.on('pageerror', (e) => errors.push(e.message));
      const api = await watchHydration(page);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Benvenuto, ${rita.nome} Server`);
      // Working: the deletion asks for confirmation (a hydrated button), and the dialog closes.
      await page.getByRole('button', { name: 'Elimina' }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toContainText('Sei sicuro di voler eliminare questa prenotazione?');
      await dialog.getByRole('button', { name: 'Annulla' }).click();
      await expect(dialog).toHaveCount(0);
      // The countdown runs in the browser.
      const offer = page.getByRole('region', { name: /^Una bici si è liberata per il/ });
      const before = await offer.textContent();
      await expect(offer).not.toHaveText(before!, { timeout: 5_000 });
      expect(await servedElementsKept(page)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBe(0);
      // Everything the screen shows came with the page: not the session, not one answer read again.
      expect(api).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the app’s code is asked for once the dashboard has been painted, a chunk per task, and then takes the page', async ({ browser, baseURL }) => {
    const rita = await rider();
    const context = await contextFor(browser, baseURL, rita.token, true);
    try {
      // As served: one script, the small after-paint module; the entry and the screen's chunks
      // listed for it as data (vite.config.ts), no modulepreload that would fetch them with the HTML.
      const served = await (await context.request.get('/dashboard')).text();
      expect(served.match(/<script type="module"[^>]*>/g)).toEqual([expect.stringMatching(/src="\/assets\/after-paint-[\w-]+\.js"/)]);
      expect(served).not.toContain('rel="modulepreload"');
      const listed = listedScripts(served);
      expect(listed[0]).toMatch(/^\/assets\/index-[\w-]+\.js$/);
      expect(listed.some((url) => /\/assets\/dashboard-page-[\w-]+\.js$/.test(url))).toBe(true);

      const page = await context.newPage();
      // The first frame after the header is in the document: the page's first paint.
      const painted = await watchFirstPaint(page, 'page-header');
      await page.addInitScript(() => {
        // after-paint.ts's modulepreloads, counted per task: a MutationObserver's callback runs
        // at the end of the task that made the changes (issue 51: one per task, a tap between).
        // The app's own preloads of a lazy chunk (Vite's) carry `as="script"`; these do not.
        const w2 = window as unknown as { preloadBatches: number[] };
        w2.preloadBatches = [];
        new MutationObserver((records) => {
          const added = records
            .flatMap((r) => [...r.addedNodes])
            .filter((n) => n instanceof HTMLLinkElement && n.rel === 'modulepreload' && !n.hasAttribute('as'));
          if (added.length > 0) w2.preloadBatches.push(added.length);
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto('/dashboard');
      await expect(page.locator('#root')).toHaveAttribute('data-started', '');
      // Every chunk listed after the entry, each added in a task of its own.
      const batches = await page.evaluate(() => (window as unknown as { preloadBatches: number[] }).preloadBatches);
      expect(batches.reduce((a, b) => a + b, 0)).toBe(listed.length - 1);
      expect(Math.max(...batches)).toBe(1);
      const timing = await painted();
      expect(timing.paintedAt).not.toBeNull();
      expect(timing.scripts.length).toBeGreaterThanOrEqual(listed.length);
      expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paintedAt!);
      // Not at the rack: the entry is asked for after the screen's chunks (decision 034's amendment).
      const started = await scriptStarts(page, listed);
      expect(started.entry).toBeGreaterThanOrEqual(Math.max(...started.chunks));
      // And it works: the deletion asks for confirmation.
      await page.getByRole('button', { name: 'Elimina' }).click();
      await expect(page.getByRole('alertdialog')).toContainText('Sei sicuro di voler eliminare questa prenotazione?');
    } finally {
      await context.close();
    }
  });

  test('the dashboard and /admin open without one Intl object: the times come with the page, and are right', async ({ browser, baseURL }) => {
    // A page's first Intl object loads ICU's data (some 25 ms here, four times that on a slow
    // phone): every constructor and locale method is counted from before the page's scripts.
    const countIntl = (context: BrowserContext) =>
      context.addInitScript(() => {
        const w = window as unknown as { intlUses: string[] };
        w.intlUses = [];
        const intl = Intl as unknown as Record<string, unknown>;
        for (const name of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DisplayNames']) {
          const original = intl[name] as (new (...args: unknown[]) => object) & ((...args: unknown[]) => object);
          intl[name] = new Proxy(original, {
            construct: (target, args) => (w.intlUses.push(name), new target(...args)),
            apply: (target, self, args) => (w.intlUses.push(name), target.apply(self, args)),
          });
        }
        const methods: [Record<string, unknown>, string][] = [
          [Date.prototype as unknown as Record<string, unknown>, 'toLocaleString'],
          [Date.prototype as unknown as Record<string, unknown>, 'toLocaleDateString'],
          [Date.prototype as unknown as Record<string, unknown>, 'toLocaleTimeString'],
          [Number.prototype as unknown as Record<string, unknown>, 'toLocaleString'],
          [String.prototype as unknown as Record<string, unknown>, 'localeCompare'],
        ];
        for (const [owner, name] of methods) {
          const original = owner[name] as (...args: unknown[]) => unknown;
          owner[name] = function (this: unknown, ...args: unknown[]) {
            w.intlUses.push(name);
            return original.apply(this, args);
          };
        }
      });
    const intlUses = (page: Page) => page.evaluate(() => (window as unknown as { intlUses: string[] }).intlUses);
    const rita = await rider();
    // A ticket opened three days ago on Rita's bike: its age is a plural (`3 giorni fa`), which
    // Lingui would pick with Intl.PluralRules and write with Intl.NumberFormat (shared/i18n/plural.ts).
    const ticket = `Freno del test ${unique()}`;
    await withE2eDatabase((db) =>
      db.query(
        `insert into interventi (bici_id, origine, categoria, descrizione, created_at, updated_at)
         select id, 'staff', 'freni', $2, now() - interval '3 days 1 hour', now() - interval '3 days 1 hour' from biciclette where numero = $1`,
        [rita.bike, ticket],
      ),
    );
    const resident = await contextFor(browser, baseURL, rita.token, true);
    const admin = await contextFor(browser, baseURL, await adminToken(), true);
    const errors: string[] = [];
    try {
      await countIntl(resident);
      await countIntl(admin);
      const page = await resident.newPage();
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await page.goto('/dashboard');
      const active = page.getByRole('region', { name: 'Le tue prenotazioni attive' });
      // Hydrated (the button opens its dialog), with the times the server wrote.
      await active.getByRole('button', { name: 'Elimina' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Annulla' }).click();
      await expect(active).toContainText('Potrai ritirarla dalle 09:50');
      await expect(page.getByRole('region', { name: 'Prenotazioni passate' })).toContainText('Riconsegnata alle 10:40');
      // The offer's countdown has ticked in the browser meanwhile.
      const offer = page.getByRole('region', { name: /^Una bici si è liberata per il/ });
      const before = await offer.textContent();
      await expect(offer).not.toHaveText(before!, { timeout: 5_000 });
      expect(await intlUses(page)).toEqual([]);

      const adminPage = await admin.newPage();
      adminPage.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await adminPage.goto('/admin');
      await expect(adminPage.getByRole('tab', { name: 'Prenotazioni' })).toHaveCSS('pointer-events', 'auto');
      await expect(adminPage.getByRole('region', { name: 'Riepilogo' }).getByRole('term')).toHaveCount(6);
      await expect(adminPage.getByRole('region', { name: 'Danni da controllare' }).getByRole('listitem').filter({ hasText: ticket })).toContainText('3 giorni fa');
      expect(await intlUses(adminPage)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await resident.close();
      await admin.close();
    }
  });

  test('an anonymous visitor of /dashboard gets the loading page, then the login form', async ({ page }) => {
    const html = await (await page.request.get('/dashboard')).text();
    expect(html).toContain('data-prerendered="loading"');
    expect(html).not.toContain('id="bicielis-state"');
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
  });

  test('/admin for an admin: the cards, the sections and the bookings are in the HTML, and React adopts them', async ({ browser, baseURL }) => {
    const token = await adminToken();
    const off = await contextFor(browser, baseURL, token, false);
    const on = await contextFor(browser, baseURL, token, true);
    const errors: string[] = [];
    try {
      const plain = await off.newPage();
      await plain.goto('/admin');
      await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Dashboard Amministratore');
      const summary = plain.getByRole('region', { name: 'Riepilogo' });
      await expect(summary.getByRole('term')).toHaveCount(6);
      for (const value of await summary.getByRole('definition').allTextContents()) expect(value).toMatch(/^\d+( di \d+)?$/);
      // The sections and the bookings tab's first page too: nothing shown is loading (the
      // hidden panel of `Biciclette` holds that tab's first screen, its rows loading: decision 039).
      expect(await plain.getByRole('region', { name: 'Prenotazioni', exact: true }).getByRole('row').count()).toBeGreaterThan(2);
      expect(await plain.getByRole('region', { name: 'Prenotazioni', exact: true }).locator('tbody tr[data-slot="table-row"]').count()).toBeLessThanOrEqual(10);
      await expect(plain.getByText('Caricamento').filter({ visible: true })).toHaveCount(0);
      await expect(plain.getByRole('tabpanel', { includeHidden: true })).toHaveCount(2);

      const page = await on.newPage();
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      page.on('pageerror', (e) => errors.push(e.message));
      const api = await watchHydration(page);
      await page.goto('/admin');
      // Started (the tabs take taps then), with everything it shows come with the page.
      await expect(page.getByRole('tab', { name: 'Prenotazioni' })).toHaveCSS('pointer-events', 'auto');
      await expect(page.getByRole('tab', { name: 'Prenotazioni' })).toHaveAttribute('aria-selected', 'true');
      expect(api).toEqual([]);
      expect(await servedElementsKept(page)).toBe(true);
      // The HTML holds the first page's first 10 rows; the others come when the row keeping
      // their place nears the screen (far below the fold on this phone: not before), where
      // that row was: the table ends as tall as it began.
      const bookings = page.getByRole('region', { name: 'Prenotazioni', exact: true });
      const total = Number(/\((\d+) risultati\)/.exec((await page.getByRole('navigation', { name: 'Pagine delle prenotazioni' }).textContent()) ?? '')?.[1]);
      expect(total).toBeGreaterThan(10);
      const servedHeight = await bookings.evaluate((e) => e.getBoundingClientRect().height);
      await page.waitForTimeout(500);
      await expect(bookings.locator('tbody tr[data-slot="table-row"]')).toHaveCount(10);
      await bookings.locator('[data-pending-rows]').evaluate((e) => e.scrollIntoView());
      await expect(bookings.locator('tbody tr')).toHaveCount(Math.min(total, 50));
      await expect(bookings.locator('[data-pending-rows]')).toHaveCount(0);
      expect(Math.abs((await bookings.evaluate((e) => e.getBoundingClientRect().height)) - servedHeight)).toBeLessThan(1);
      // The other tabs load in the browser.
      await page.getByRole('tab', { name: 'Biciclette' }).click();
      await expect(page).toHaveURL(/\?tab=biciclette$/);
      await expect(page.getByRole('region', { name: 'Biciclette', exact: true }).getByRole('row')).not.toHaveCount(0);
      expect(errors).toEqual([]);
    } finally {
      await off.close();
      await on.close();
    }
  });
  test('/admin: a search typed before React takes the page is kept, and applied once it does', async ({ browser, baseURL }) => {
    const token = await adminToken();
    const context = await contextFor(browser, baseURL, token, true);
    try {
      const page = await context.newPage();
      // The app's scripts wait until the person has typed: a slow phone, made certain.
      let release = () => undefined as void;
      const typed = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/.*\.js$/, async (route) => {
        await typed;
        await route.continue();
      });
      const searched: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/admin/prenotazioni') searched.push(url.searchParams.get('q') ?? '');
      });
      await page.goto('/admin', { waitUntil: 'commit' });
      const search = page.getByLabel('Cerca prenotazioni');
      await search.fill('Bici 01');
      release();
      await expect(page.getByRole('tab', { name: 'Prenotazioni' })).toHaveCSS('pointer-events', 'auto');
      // React took the field with the text in it, and the list asked the server for it.
      await expect.poll(() => searched).toContain('Bici 01');
      await expect(search).toHaveValue('Bici 01');
    } finally {
      await context.close();
    }
  });
});

