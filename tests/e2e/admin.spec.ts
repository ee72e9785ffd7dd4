import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { openDay } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, expectStarted, loginViaForm, notice, test } from './fixtures';

/**
 * The admin dashboard of issue 9, used as the college's staff would. This file runs in its
 * own project after every other spec (playwright.config.ts): a bike put in maintenance, the
 * residents imported or a user deactivated would otherwise surprise the tests running next to it.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const resident = DEMO_ACCOUNTS.find((a) => a.sigla !== null && a.ruolo === 'user')!;
const external = DEMO_ACCOUNTS.find((a) => a.sigla === null && a.ruolo === 'user')!;
/** tests/e2e/server.mjs */
const INITIAL_PASSWORD = 'benvenuto-elis-2026';

const tag = () => Math.random().toString(36).slice(2, 8);

async function openAdmin(page: Page, path = '/admin') {
  await loginViaForm(page, admin);
  await expect(page).toHaveURL('/admin');
  if (path !== '/admin') await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
  await expectStarted(page);
}

/** A second browser, logged in through the API as `account`. */
async function loggedInContext(browser: Browser, baseURL: string | undefined, account: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  const res = await context.request.post('/api/login', { data: { email: account.email, password: account.password } });
  expect(res.ok(), await res.text()).toBe(true);
  return context;
}

/** Books the first available bike on the first open day (tests/helpers/days.ts), 10:00-11:00, for whoever `request` is logged in as. */
async function bookOpenDay(request: APIRequestContext, destinazione: string): Promise<number> {
  const window = { dataPrenotazione: await openDay(), orarioInizio: '10:00', orarioFine: '11:00' };
  const bikes = (await (await request.post('/api/biciclette/available', { data: window })).json()) as { id: number }[];
  expect(bikes.length).toBeGreaterThan(0);
  const res = await request.post('/api/prenotazioni', { data: { ...window, destinazione, biciId: bikes[0]!.id } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** A resident imported by the admin, past the forced password change, logged in. */
async function importedResidentContext(browser: Browser, baseURL: string | undefined, admin: Page, email: string) {
  expect((await admin.request.post('/api/admin/import-residents')).ok()).toBe(true);
  const context = await browser.newContext({ baseURL, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  const first = await context.request.post('/api/login', { data: { email, password: INITIAL_PASSWORD } });
  expect(first.status()).toBe(403);
  const { userId } = (await first.json()) as { userId: number };
  const changed = await context.request.post('/api/change-password', { data: { userId, newPassword: 'password-nuova-1' } });
  expect(changed.ok(), await changed.text()).toBe(true);
  const login = await context.request.post('/api/login', { data: { email, password: 'password-nuova-1' } });
  expect(login.ok(), await login.text()).toBe(true);
  return context;
}

const closeAll = async (contexts: BrowserContext[]) => Promise.all(contexts.map((c) => c.close()));

test.describe('admin dashboard', () => {
  // Two or three browsers per test (admin, user) and several round trips each.
  test.describe.configure({ timeout: 60_000 });

  test('imports the residents; an imported resident logs in and must change the password', async ({ page, browser, baseURL }) => {
    await openAdmin(page, '/admin?tab=utenti');
    await expect(page.getByRole('tab', { name: 'Utenti' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: 'Importa Residenti' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('i residenti che hanno già un account vengono saltati');
    await expect(dialog).toContainText('da cambiare al primo accesso');
    await dialog.getByRole('button', { name: 'Importa', exact: true }).click();
    await expect(notice(page, 'Importazione completata')).toContainText(/Importati: [1-9]\d*, saltati: \d+/);

    await page.getByLabel('Cerca utenti').fill('elis002');
    const row = page.getByRole('region', { name: 'Utenti' }).getByRole('row').filter({ hasText: 'elis002@elis.org' });
    await expect(row).toContainText('ELIS002');
    await expect(row).toContainText('Sì');

    const context = await browser.newContext({ baseURL, locale: 'it-IT', timezoneId: 'Europe/Rome' });
    try {
      const newcomer = await context.newPage();
      await loginViaForm(newcomer, { email: 'elis002@elis.org', password: INITIAL_PASSWORD });
      await expect(newcomer).toHaveURL('/cambio-password');
      await expect(newcomer.getByText('Imposta una nuova password')).toBeVisible();
    } finally {
      await closeAll([context]);
    }
  });

  test('bookings: search, filter, details, delete', async ({ page, browser, baseURL }) => {
    const t = tag();
    const residentContext = await loggedInContext(browser, baseURL, resident);
    const externalContext = await loggedInContext(browser, baseURL, external);
    const externalBooking = await bookOpenDay(externalContext.request, `Pantheon ${t}`);
    await bookOpenDay(residentContext.request, `Colosseo ${t}`);
    try {
      await openAdmin(page);
      await expect(page.getByRole('tab', { name: 'Prenotazioni' })).toHaveAttribute('aria-selected', 'true');
      const table = page.getByRole('region', { name: 'Prenotazioni' });
      const search = page.getByPlaceholder('Cerca per utente, bici o destinazione...');

      await search.fill(t);
      await expect(table.getByRole('row')).toHaveCount(3);
      await page.getByLabel('Filtra per stato').selectOption({ label: 'Cancellate' });
      await expect(table).toContainText('Nessuna prenotazione trovata');
      await page.getByLabel('Filtra per stato').selectOption({ label: 'Attive' });
      await expect(table.getByRole('row')).toHaveCount(3);

      await search.fill(`colosseo ${t}`);
      await expect(table.getByRole('row')).toHaveCount(2);
      const row = table.getByRole('row').nth(1);
      await expect(row).toContainText('Marco Rossi');
      await expect(row).toContainText('10:00-11:00');
      await expect(row).toContainText(/\d\d\/\d\d\/\d\d/);
      await expect(row).toContainText('Da ritirare');

      await row.getByRole('button', { name: /^Dettagli/ }).click();
      const details = page.getByRole('dialog');
      for (const text of ['Marco', 'Rossi', resident.email, `Colosseo ${t}`, 'Gratuito (Residente)', '10:00-11:00']) {
        await expect(details).toContainText(text);
      }
      await details.getByRole('button', { name: 'Chiudi' }).click();
      await expect(details).toBeHidden();

      await row.getByRole('button', { name: /^Elimina/ }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText('Sei sicuro di voler eliminare questa prenotazione? Questa azione è irreversibile.');
      await confirm.getByRole('button', { name: 'Elimina', exact: true }).click();
      await expect(notice(page, 'Prenotazione eliminata')).toBeVisible();
      await expect(table).toContainText('Nessuna prenotazione trovata');
    } finally {
      await externalContext.request.delete(`/api/prenotazioni/${externalBooking}`);
      await closeAll([residentContext, externalContext]);
    }
  });

  test('a bike put in maintenance leaves the booking form of the user dashboard', async ({ page, browser, baseURL }) => {
    const residentContext = await loggedInContext(browser, baseURL, resident);
    const bikes = (await (await residentContext.request.get('/api/biciclette')).json()) as { id: number; numero: string; stato: string }[];
    let bike: { id: number; numero: string } | undefined;
    const bikeRadio = (p: Page) => p.getByRole('radio', { name: new RegExp(`^Bici ${bike!.numero}\\b`) });
    try {
      const user = await residentContext.newPage();
      await user.goto('/dashboard');
      await user.getByRole('button', { name: 'Nuova prenotazione' }).click();
      // The last bike the form offers for its default window that is `disponibile` now: another
      // spec's ride may hold a bike in use now (prenotata) that is free again by that window.
      await expect(user.getByRole('radio').first()).toBeVisible();
      const free = new Set(bikes.filter((b) => b.stato === 'disponibile').map((b) => String(b.id)));
      const values = await user.getByRole('radio').evaluateAll((els) => els.map((e) => e.getAttribute('value') ?? ''));
      const offered = values.filter((v) => free.has(v)).at(-1)!;
      bike = bikes.find((b) => String(b.id) === offered)!;
      await expect(bikeRadio(user)).toBeVisible();

      await openAdmin(page, '/admin?tab=biciclette');
      // The row with the bike's own edit button: its number alone would match another row's time (`14:19` for bike 14).
      const row = page
        .getByRole('region', { name: 'Biciclette' })
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: `Modifica la bici ${bike.numero}`, exact: true }) });
      await expect(row).toContainText('Disponibile');
      await row.getByRole('button', { name: `Modifica la bici ${bike.numero}` }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('button', { name: 'Salva' })).toBeDisabled();
      await dialog.getByLabel('Stato').selectOption({ label: 'Manutenzione' });
      await dialog.getByRole('button', { name: 'Salva' }).click();
      // Out of use (issue 35): the toast says what the fleet did with the bike's bookings of the next 24 hours.
      await expect(notice(page, 'Successo')).toContainText(/Stato aggiornato\. \d+ prenotazion[ei] spostat[ae], \d+ annullat[ae]/);
      await expect(row).toContainText('Manutenzione');

      await user.reload();
      await user.getByRole('button', { name: 'Nuova prenotazione' }).click();
      await expect(user.getByRole('radio').first()).toBeVisible();
      await expect(bikeRadio(user)).toHaveCount(0);
    } finally {
      if (bike) await page.request.put(`/api/admin/biciclette/${bike.id}`, { data: { stato: 'disponibile' } });
      await closeAll([residentContext]);
    }
  });

  test('edit a user, then deactivate them: their session ends', async ({ page, browser, baseURL }) => {
    await openAdmin(page, '/admin?tab=utenti');
    const userContext = await importedResidentContext(browser, baseURL, page, 'elis003@elis.org');
    try {
      const user = await userContext.newPage();
      await user.goto('/dashboard');
      await expect(user.getByRole('heading', { level: 1 })).toContainText('Benvenuto');

      await page.getByLabel('Cerca utenti').fill('elis003@elis.org');
      const table = page.getByRole('region', { name: 'Utenti' });
      await expect(table.getByRole('row')).toHaveCount(2);
      await table.getByRole('button', { name: /^Modifica/ }).click();
      let dialog = page.getByRole('dialog');
      const nome = dialog.getByLabel('Nome', { exact: true });
      await nome.fill('');
      await expect(dialog.getByRole('button', { name: 'Salva' })).toBeDisabled();
      await nome.fill('Lucas');
      await dialog.getByRole('button', { name: 'Salva' }).click();
      await expect(notice(page, 'Utente modificato')).toBeVisible();
      await expect(table).toContainText('Lucas Ferrari');

      await table.getByRole('button', { name: /^Modifica/ }).click();
      dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('checkbox', { name: 'Account Attivo' })).toBeChecked();
      await dialog.getByRole('checkbox', { name: 'Account Attivo' }).click();
      await dialog.getByRole('button', { name: 'Salva' }).click();
      await expect(dialog).toBeHidden();
      await expect(table).toContainText('Disattivato');

      await user.reload();
      await expect(user.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    } finally {
      await closeAll([userContext]);
    }
  });

  test('delete a user: the confirmation warns that their bookings go too, and both are gone', async ({ page, browser, baseURL }) => {
    await openAdmin(page, '/admin?tab=utenti');
    const userContext = await importedResidentContext(browser, baseURL, page, 'elis004@elis.org');
    try {
      const bookingId = await bookOpenDay(userContext.request, 'Eliminazione utente');
      await page.getByLabel('Cerca utenti').fill('elis004@elis.org');
      const table = page.getByRole('region', { name: 'Utenti' });
      await expect(table.getByRole('row')).toHaveCount(2);
      await table.getByRole('button', { name: /^Elimina/ }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toContainText('tutte le sue prenotazioni');
      await expect(dialog).toContainText('irreversibile');
      await dialog.getByRole('button', { name: 'Elimina', exact: true }).click();
      await expect(notice(page, 'Utente eliminato')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(table).toContainText('Nessun utente');

      // The booking went with the user, and the user's session with it.
      const bookings = await page.request.get(`/api/admin/prenotazioni?q=${encodeURIComponent('Eliminazione utente')}`);
      expect(((await bookings.json()) as { id: number }[]).map((b) => b.id)).not.toContain(bookingId);
      expect((await userContext.request.get('/api/current-user')).status()).toBe(401);
    } finally {
      await closeAll([userContext]);
    }
  });

  test('the tabs by keyboard: one stop in the Tab order, arrows, Home and End move and select, round the ends', async ({ page }) => {
    await openAdmin(page);
    const tabs = page.getByRole('tablist', { name: 'Sezioni' });
    const tab = (name: string) => tabs.getByRole('tab', { name, exact: true });
    const expectSelected = async (name: string, address: string, panel: string) => {
      await expect(tab(name)).toBeFocused();
      await expect(tab(name)).toHaveAttribute('aria-selected', 'true');
      await expect(tab(name)).toHaveAttribute('tabindex', '0');
      await expect(page).toHaveURL(address);
      // The one panel, named by its tab, and it is this tab's.
      await expect(page.getByRole('tabpanel')).toHaveCount(1);
      await expect(page.getByRole('tabpanel', { name })).toHaveAttribute('id', (await tab(name).getAttribute('aria-controls'))!);
      await expect(page.getByRole('tabpanel', { name }).getByRole('region', { name: panel, exact: true })).toBeVisible();
    };
    await tab('Prenotazioni').focus();
    await expect(tabs.locator('[tabindex="0"]')).toHaveCount(1);
    await page.keyboard.press('ArrowRight');
    await expectSelected('Biciclette', '/admin?tab=biciclette', 'Biciclette');
    await expect(tab('Prenotazioni')).toHaveAttribute('tabindex', '-1');
    await page.keyboard.press('End');
    await expectSelected('Registro attività', '/admin?tab=registro', 'Registro attività');
    await page.keyboard.press('ArrowRight');
    await expectSelected('Prenotazioni', '/admin', 'Prenotazioni');
    await page.keyboard.press('ArrowLeft');
    await expectSelected('Registro attività', '/admin?tab=registro', 'Registro attività');
    await page.keyboard.press('Home');
    await expectSelected('Prenotazioni', '/admin', 'Prenotazioni');
    // Tab leaves the tab list for the panel.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tabpanel')).toBeFocused();
    await expectNoSeriousA11yViolations(page);
  });

  test('a tab whose file does not arrive: /admin opens, the tab says so, and a reload brings it', async ({ browser, baseURL }) => {
    // No service worker: its copy of the app would answer for the network that fails here.
    const context = await browser.newContext({ baseURL, serviceWorkers: 'block', locale: 'it-IT', timezoneId: 'Europe/Rome' });
    try {
      const page = await context.newPage();
      await openAdmin(page);
      await page.route(/\/assets\/users-tab-[^/]*\.js$/, (route) => route.abort('internetdisconnected'));
      await page.goto('/admin?tab=utenti');
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Utenti', selected: true })).toBeVisible();
      const failure = page.getByRole('tabpanel').getByRole('alert');
      await expect(failure).toContainText('Non è stato possibile caricare questa sezione.');
      await expect(page.getByText('Bici disponibili')).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await page.unrouteAll();
      await failure.getByRole('button', { name: 'Ricarica la pagina' }).click();
      await expect(page.getByRole('region', { name: 'Utenti' })).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: 'Non è stato possibile' })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('on a 375 px phone: tables scroll sideways, no serious axe violations on any tab', async ({ page, browser, baseURL }, testInfo) => {
    const residentContext = await loggedInContext(browser, baseURL, resident);
    const booking = await bookOpenDay(residentContext.request, 'Biblioteca nazionale centrale');
    try {
      await page.setViewportSize({ width: 375, height: 812 });
      await openAdmin(page);
      const table = page.getByRole('region', { name: 'Prenotazioni' });
      await page.getByPlaceholder('Cerca per utente, bici o destinazione...').fill('Biblioteca nazionale');
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(table.getByRole('row').nth(1)).toContainText('Marco Rossi');
      expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await expectNoSidewaysScroll(page);
      await table.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: testInfo.outputPath('admin-prenotazioni-375.png'), fullPage: true });

      await page.getByRole('tab', { name: 'Biciclette' }).click();
      await expect(page).toHaveURL('/admin?tab=biciclette');
      await expect(page.getByRole('region', { name: 'Biciclette' }).getByRole('row').nth(1)).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await page.getByRole('tab', { name: 'Utenti' }).click();
      await expect(page).toHaveURL('/admin?tab=utenti');
      await expect(page.getByRole('region', { name: 'Utenti' }).getByRole('row').nth(1)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: testInfo.outputPath('admin-utenti-375.png'), fullPage: true });

      await page.reload();
      await expect(page.getByRole('tab', { name: 'Utenti' })).toHaveAttribute('aria-selected', 'true');
    } finally {
      await residentContext.request.delete(`/api/prenotazioni/${booking}`);
      await closeAll([residentContext]);
    }
  });
});
