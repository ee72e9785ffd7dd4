import type { Browser, BrowserContext, Page } from '@playwright/test';
import { compiledCatalogue, tFor } from '../../src/shared/i18n/all.js';
import type { Lingua } from '../../src/shared/i18n/index.js';
import { DEMO_WRITTEN } from '../../src/server/seed/seed-history.js';
import { createAccount, seedActiveBooking, windowFromNow, withE2eDatabase } from './database';
import { collectConsoleErrors, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, notice, test } from './fixtures';
import { expectOnlyLanguage } from './language-scan';

/*
 * English as a second language (issue 36): a crawl at 375 px of every screen and dialog of a
 * visitor, a resident, an external user and an admin, in English, failing on any text a person
 * can read that the catalogue gives in Italian (or that holds a word only Italian has); and the
 * same screens in Italian, failing on English. axe in both. The people, bikes and bookings are
 * the spec's own; the admin only reads.
 */

const PASSWORD = 'lingue-di-prova-1';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A text the specs know in Italian, in `lingua`: the key whose Italian is exactly that text (no values). */
function say(italian: string, lingua: Lingua): string {
  const key = Object.entries(compiledCatalogue('it')).find(([, message]) => message.join('') === italian)?.[0];
  if (!key) throw new Error(`"${italian}" non è nel catalogo`);
  return (tFor(lingua) as (key: string) => string)(key);
}
const en = (italian: string) => say(italian, 'en');

/** What people and the demo wrote, shown as written in either language: names, models, destinations. */
const AS_WRITTEN = [
  /Gravel Test/,
  /Giro di prova/,
  /Lingua|Lingue/,
  /@bicielis\.(test|demo)/,
  ...DEMO_WRITTEN().map((text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
];

async function person(ruolo: 'user' | 'admin', residente: boolean, lingua: Lingua): Promise<{ email: string }> {
  const email = `lingue-${ruolo}-${unique()}@bicielis.test`;
  const id = await createAccount({ nome: 'Lingua', cognome: ruolo === 'admin' ? 'Admin' : residente ? 'Residente' : 'Esterno', email, password: PASSWORD, ruolo, residente });
  await withE2eDatabase((db) => db.query(`update users set lingua = $2 where id = $1`, [id, lingua]));
  return { email };
}

/** A phone's context, its browser asking for `acceptLanguage`, logged in as `email` when given. */
async function phone(browser: Browser, acceptLanguage: string, email?: string): Promise<{ context: BrowserContext; page: Page; done: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: acceptLanguage, timezoneId: 'Europe/Rome' });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  if (email) {
    const res = await page.request.post('/api/login', { data: { email, password: PASSWORD } });
    expect(res.status()).toBe(200);
  }
  const done = async () => {
    await context.close();
    expect(errors, `errors in the browser console:\n${errors.join('\n')}`).toEqual([]);
  };
  return { context, page, done };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Everyone's names, as written: the admin's lists show the people other specs made (one server
 * for the whole suite), whose names may be Italian words (`Laura Esterni`, `Marco Dopo`).
 */
async function peopleAsWritten(): Promise<RegExp[]> {
  const { rows } = await withE2eDatabase((db) => db.query<{ nome: string; cognome: string }>('select nome, cognome from users'));
  return rows.flatMap(({ nome, cognome }) => [
    new RegExp(`^(${escapeRegExp(nome)}|${escapeRegExp(cognome)})$`),
    new RegExp(escapeRegExp(`${nome} ${cognome}`)),
  ]);
}

async function scan(page: Page, lingua: Lingua, where: string, asWritten: RegExp[] = []) {
  await expectOnlyLanguage(page, lingua, where, [...AS_WRITTEN, ...asWritten]);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, where);
}

test.describe('English as a second language', () => {

  test('a visitor: the first visit follows the browser, IT | EN switches without a reload and is remembered', async ({ browser }) => {
    // A browser that asks for English gets the login in English from the server: no Italian first.
    const { page, done } = await phone(browser, 'en-GB');
    const html = await (await page.request.get('/login', { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain(`>${en('Accedi')}<`);
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: en('Accedi') })).toBeVisible();
    await scan(page, 'en', '/login (en)');
    for (const path of ['/registrazione', '/recupera-password', '/privacy', '/pagina-che-non-esiste']) {
      await page.goto(path);
      await expect(page.locator('#root')).not.toBeEmpty();
      await expect(page.getByRole('navigation', { name: 'Language' })).toBeVisible();
      await scan(page, 'en', `${path} (en)`);
    }
    await expect(page.getByText('404 Page Not Found')).toBeVisible();

    // The switch: Italian at once, no reload, remembered over the browser's English.
    await page.goto('/login');
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await page.getByRole('button', { name: 'Italiano' }).click();
    await expect(page.getByRole('heading', { name: 'Accedi' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    expect(await page.evaluate(() => '__noReload' in window)).toBe(true);
    await scan(page, 'it', '/login (it, switched)');
    expect((await page.context().cookies()).find((c) => c.name === 'lingua')?.value).toBe('it');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Accedi' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await done();
  });

  test('a visitor in Italian sees no English, and the switch to English', async ({ browser }) => {
    const { page, done } = await phone(browser, 'it-IT');
    for (const path of ['/login', '/registrazione', '/recupera-password', '/privacy']) {
      await page.goto(path);
      await expect(page.locator('#root')).not.toBeEmpty();
      await scan(page, 'it', `${path} (it)`);
    }
    await page.goto('/registrazione');
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await scan(page, 'en', '/registrazione (en, switched)');
    await done();
  });

  test('a resident in English: dashboard, booking, ride, waitlist, profile; the profile switches to Italian', async ({ browser }) => {
    test.slow();
    const { email } = await person('user', true, 'en');
    // The browser asks for Italian: the account's language wins.
    const { page, done } = await phone(browser, 'it-IT', email);
    await page.goto('/dashboard');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('#root[data-started]')).toBeVisible();
    await scan(page, 'en', '/dashboard (en)');

    // A booking through the form.
    await page.getByRole('button', { name: en('Nuova prenotazione') }).click();
    await expect(page.getByRole('group', { name: en('Bicicletta') })).toBeVisible();
    await scan(page, 'en', 'the booking form (en)');
    await page.getByRole('group', { name: en('Bicicletta') }).getByRole('radio').first().check();
    await page.getByRole('button', { name: en('Prenota'), exact: true }).click();
    await expect(notice(page, en('Prenotazione creata!'))).toBeVisible();
    await scan(page, 'en', 'a booking made (en)');

    // Its deletion's confirmation, then kept.
    const active = page.getByRole('region', { name: en('Le tue prenotazioni attive') });
    await active.getByRole('button', { name: en('Elimina') }).first().click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toBeVisible();
    await scan(page, 'en', 'the delete dialog (en)');
    await dialog.getByRole('button', { name: en('Elimina') }).click();
    await expect(dialog).toHaveCount(0);

    // The waitlist: a window with no bike free offers to wait.
    await page.route('**/api/biciclette/available', (route) => route.fulfill({ json: [] }));
    await page.getByRole('button', { name: en('Nuova prenotazione') }).click();
    await expect(page.getByRole('button', { name: 'Notify me if a bike frees up' })).toBeVisible();
    await scan(page, 'en', 'the waitlist offer (en)');
    await page.unroute('**/api/biciclette/available');

    // The ride: a booking starting now on a bike of its own, picked up, then the return dialog.
    const bike = `L${unique()}`.slice(0, 12);
    await withE2eDatabase((db) => db.query(`insert into biciclette (numero, modello) values ($1, 'Gravel Test')`, [bike]));
    await seedActiveBooking(email, bike, windowFromNow(5), 'Giro di prova');
    await page.goto('/dashboard');
    const item = page.getByRole('region', { name: en('Le tue prenotazioni attive') }).getByRole('listitem').filter({ hasText: bike });
    await item.getByRole('button', { name: 'Picked up' }).click();
    await expect(notice(page, en('Buon viaggio!'))).toBeVisible();
    await scan(page, 'en', 'a ride (en)');
    await item.getByRole('button', { name: 'Returned' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await scan(page, 'en', 'the return dialog (en)');
    await page.getByRole('dialog').getByRole('button', { name: en('Conferma riconsegna') }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The profile, then Italian from it: no reload, the account keeps it.
    await page.goto('/profilo');
    await expect(page.getByRole('heading', { level: 2, name: 'Language' })).toBeVisible();
    await scan(page, 'en', '/profilo (en)');
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await page.getByRole('radio', { name: 'Italiano' }).check();
    await expect(page.getByRole('heading', { level: 2, name: 'Lingua' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    expect(await page.evaluate(() => '__noReload' in window)).toBe(true);
    await scan(page, 'it', '/profilo (it, switched)');
    await page.goto('/dashboard');
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await scan(page, 'it', '/dashboard (it)');
    await done();
  });

  test('an external user in English: a booking to pay, the payment page', async ({ browser }) => {
    test.slow();
    const { email } = await person('user', false, 'en');
    const { page, done } = await phone(browser, 'en-GB', email);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: en('Nuova prenotazione') }).click();
    await page.getByRole('group', { name: en('Bicicletta') }).getByRole('radio').first().check();
    await page.getByRole('button', { name: en('Prenota'), exact: true }).click();
    await expect(notice(page, en('Prenotazione creata!'))).toBeVisible();
    await scan(page, 'en', 'a booking to pay (en)');
    await page.getByRole('link', { name: /€2\.50/ }).click();
    await expect(page).toHaveURL(/\/payment\/\d+$/);
    await expect(page.getByRole('button', { name: en('Paga'), exact: true })).toBeVisible();
    await scan(page, 'en', 'the payment page (en)');
    await done();
  });

  test('an admin in English: every tab, the statistics, the reports', async ({ browser }) => {
    test.slow();
    const { email } = await person('admin', false, 'en');
    const { page, done } = await phone(browser, 'it-IT', email);
    await page.goto('/admin');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('#root[data-started]')).toBeVisible();
    await scan(page, 'en', '/admin (en)', await peopleAsWritten());
    const tabs = page.getByRole('tablist');
    const count = await tabs.getByRole('tab').count();
    expect(count).toBeGreaterThan(3);
    for (let i = 0; i < count; i++) {
      const tab = tabs.getByRole('tab').nth(i);
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tabpanel')).toBeVisible();
      await expect(page.getByRole('tabpanel').locator('[aria-busy="true"]')).toHaveCount(0);
      await scan(page, 'en', `/admin, tab ${i + 1} (en)`, await peopleAsWritten());
    }
    // A dialog: the desk's booking for a person.
    await page.goto('/admin?tab=utenti');
    await page.getByRole('button', { name: en('Nuova prenotazione') }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await scan(page, 'en', 'the desk booking dialog (en)', await peopleAsWritten());
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.goto('/admin/statistiche');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await scan(page, 'en', '/admin/statistiche (en)', await peopleAsWritten());
    await done();
  });
});
