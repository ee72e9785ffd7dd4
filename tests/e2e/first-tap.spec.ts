import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { zonedToday } from '../../src/shared/time.js';
import { defaultBookingForm } from '../../src/web/features/dashboard/dashboard-model.js';
import { openDay, sessionFor, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, notice, test } from './fixtures';

/*
 * A first tap that works (issue 33, decision 039): `Nuova prenotazione` shows the booking
 * form's first fields before the app's code has run (the server's HTML holds them, the button
 * shows them natively), and the form that takes their place once the page has hydrated keeps
 * what was typed there and books. Each test has a resident of its own (no booking) and a bike
 * of its own, written into the database: nothing another spec does can change them.
 */

const TIME_ZONE = 'Europe/Rome';
const PHONE = { width: 375, height: 812 };
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function resident(): Promise<{ token: string; bike: string }> {
  const id = unique();
  const token = randomBytes(32).toString('base64url');
  const bike = `T${id}`.slice(0, 12);
  await withE2eDatabase(async (db) => {
    await db.query(
      `with u as (insert into users (nome, cognome, email, password_hash, is_residente) values ('Tina', 'Tocco', $1, 'x', true) returning id)
       insert into sessions (token_hash, user_id, kind, expires_at) select $2, u.id, 'session', now() + interval '1 day' from u`,
      [`tap-${id}@bicielis.test`, createHash('sha256').update(token).digest('hex')],
    );
    await db.query(`insert into biciclette (numero, modello) values ($1, 'Graziella Tocco')`, [bike]);
  });
  return { token, bike };
}

async function contextFor(browser: Browser, baseURL: string | undefined, token: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, locale: 'it-IT', timezoneId: TIME_ZONE, javaScriptEnabled });
  await context.addCookies([{ name: 'bicielis_session', value: token, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/** A session of the demo admin, written into the database. */
const adminToken = (): Promise<string> => sessionFor('admin@bicielis.demo');

/** Holds the app's code (every script but the page's own small after-paint) until the returned function is called. */
async function holdTheAppsCode(page: Page): Promise<() => void> {
  const { release } = await holdTheAppsCodeAsked(page);
  return release;
}

/**
 * `holdTheAppsCode`, and `asked`: resolved once the page asks for the app's code, i.e. once
 * after-paint.js has run (its listeners are set before it asks, after the first paint).
 */
async function holdTheAppsCodeAsked(page: Page): Promise<{ release: () => void; asked: Promise<void> }> {
  let release: () => void = () => undefined;
  let ask: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked = new Promise<void>((resolve) => {
    ask = resolve;
  });
  await page.route(/\/assets\/(?!after-paint-)[^/]+\.js$/, async (route) => {
    ask();
    await held;
    await route.continue();
  });
  return { release, asked };
}

const section = (page: Page) => page.getByRole('region', { name: 'Prenota una bicicletta' });

test.describe('a first tap that works before the app’s code', () => {
  test('with JavaScript off, `Nuova prenotazione` shows the form’s date and times, and `Annulla` hides them', async ({ browser, baseURL }) => {
    const { token } = await resident();
    const context = await contextFor(browser, baseURL, token, false);
    try {
      const page = await context.newPage();
      const before = new Date();
      await page.goto('/dashboard');
      const open = section(page).getByRole('button', { name: 'Nuova prenotazione' });
      const date = section(page).getByLabel('Data', { exact: true });
      await expect(open).toBeVisible();
      await expect(date).toBeHidden();

      await open.click();
      await expect(date).toBeVisible();
      await expect(open).toBeHidden();
      const shown = {
        dataPrenotazione: await date.inputValue(),
        orarioInizio: await section(page).getByLabel('Ora di inizio').inputValue(),
        orarioFine: await section(page).getByLabel('Ora di fine').inputValue(),
      };
      const candidates = [before, new Date()].map((t) => defaultBookingForm(t, TIME_ZONE));
      expect(candidates.map(({ dataPrenotazione, orarioInizio, orarioFine }) => ({ dataPrenotazione, orarioInizio, orarioFine }))).toContainEqual(shown);
      await expect(date).toHaveAttribute('min', zonedToday(new Date(), TIME_ZONE));

      await section(page).getByRole('button', { name: 'Annulla' }).click();
      await expect(date).toBeHidden();
      await expect(open).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test('a tap that comes before the page’s small script has run still leaves the focus on the date', async ({ browser, baseURL }) => {
    const { token } = await resident();
    const context = await contextFor(browser, baseURL, token, true);
    try {
      const page = await context.newPage();
      // The app's code held throughout (its hydration would move the focus itself), and the
      // page's small script, after-paint, held until after the tap.
      await holdTheAppsCode(page);
      let releaseAfterPaint: () => void = () => undefined;
      const afterPaintHeld = new Promise<void>((resolve) => {
        releaseAfterPaint = resolve;
      });
      await page.route(/\/assets\/after-paint-[^/]+\.js$/, async (route) => {
        await afterPaintHeld;
        await route.continue();
      });
      await page.goto('/dashboard', { waitUntil: 'commit' });
      await section(page).getByRole('button', { name: 'Nuova prenotazione' }).click();
      const date = section(page).getByLabel('Data', { exact: true });
      await expect(date).toBeVisible();
      await expect(date).not.toBeFocused();
      releaseAfterPaint();
      await expect(page.locator('#root')).not.toHaveAttribute('data-started');
      await expect(date).toBeFocused();
    } finally {
      await context.close();
    }
  });

  test('a window typed before hydration is kept by the form that takes its place, and the booking is made', async ({ browser, baseURL }) => {
    const { token, bike } = await resident();
    const context = await contextFor(browser, baseURL, token, true);
    try {
      const page = await context.newPage();
      // The app's code is held (the page's own small script, after-paint, is not): the tap and
      // the typing happen on the server's HTML alone.
      const releaseCode = await holdTheAppsCode(page);
      await page.goto('/dashboard', { waitUntil: 'commit' });
      const open = section(page).getByRole('button', { name: 'Nuova prenotazione' });
      await open.click();
      const date = section(page).getByLabel('Data', { exact: true });
      await expect(date).toBeVisible();
      // The focus went to the date, as when the form opens.
      await expect(date).toBeFocused();
      const day = await openDay({ from: 2, windows: [{ orarioInizio: '09:00', orarioFine: '10:30' }] });
      await date.fill(day);
      await section(page).getByLabel('Ora di inizio').fill('09:00');
      await section(page).getByLabel('Ora di fine').fill('10:30');
      await expect(page.locator('#root')).not.toHaveAttribute('data-started');

      releaseCode();
      await expect(page.locator('#root')).toHaveAttribute('data-started', '');
      // The form took the fields' place: what was typed is there, the rest of the form with it.
      await expect(section(page).getByLabel(/Destinazione/)).toBeVisible();
      await expect(date).toHaveValue(day);
      await expect(section(page).getByLabel('Ora di inizio')).toHaveValue('09:00');
      await expect(section(page).getByLabel('Ora di fine')).toHaveValue('10:30');
      await expectNoSeriousA11yViolations(page);

      const radio = page.getByRole('group', { name: 'Bicicletta' }).getByRole('radio', { name: new RegExp(bike) });
      await radio.check();
      await section(page).getByRole('button', { name: 'Prenota', exact: true }).click();
      await expect(notice(page, 'Prenotazione creata!')).toBeVisible();
      const item = page.getByRole('region', { name: 'Le tue prenotazioni attive' }).getByRole('listitem').filter({ hasText: bike });
      await expect(item).toContainText('09:00–10:30');
    } finally {
      await context.close();
    }
  });

  test('/admin: the `Biciclette` tab shows its panel before hydration, and the page keeps that tab once hydrated', async ({ browser, baseURL }) => {
    const context = await contextFor(browser, baseURL, await adminToken(), true);
    try {
      const page = await context.newPage();
      const { release: releaseCode, asked } = await holdTheAppsCodeAsked(page);
      await page.goto('/admin', { waitUntil: 'commit' });
      const tab = page.getByRole('tab', { name: 'Biciclette' });
      const bikes = page.getByRole('tabpanel').getByRole('region', { name: 'Biciclette' });
      await expect(bikes).toBeHidden();
      // The tab has no action of its own before after-paint.js has run (a module script: once the
      // whole HTML is parsed). CI's loaded machine once clicked before that; the tap here is the one
      // of a person after the page's small script, before hydration.
      await asked;
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tab', { name: 'Prenotazioni' })).toHaveAttribute('aria-selected', 'false');
      await expect(bikes).toBeVisible();
      await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', (await tab.getAttribute('id'))!);
      await expect(tab).toBeFocused();
      await expect(page.locator('#root')).not.toHaveAttribute('data-started');

      releaseCode();
      await expect(page.locator('#root')).toHaveAttribute('data-started', '');
      // The tab stays; the address and the panel are the tab's own now: its rows, its buttons.
      await expect(page).toHaveURL(/\?tab=biciclette$/);
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('button', { name: 'Aggiungi bicicletta' })).toBeVisible();
      await expect(bikes.getByRole('row').nth(1)).not.toContainText('Caricamento');
      await expectNoSeriousA11yViolations(page);

      // The tabs work as before: back to the bookings, with React now.
      await page.getByRole('tab', { name: 'Prenotazioni' }).click();
      await expect(page).toHaveURL(/\/admin$/);
      await expect(bikes).toBeHidden();
    } finally {
      await context.close();
    }
  });
});
