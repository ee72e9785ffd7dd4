import { expect as baseExpect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createAccount, seedActiveBooking, windowFromNow, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, expectStarted, holdRequests, listedScripts, scriptStarts, test } from './fixtures';

/*
 * At the rack, the booking comes first (issue 51, decision 060): on a phone (375 × 667), with a
 * ride in progress or a booking in its pick-up window, /dashboard opens on that booking's card,
 * its bike, its lock's code and its action (`Riconsegnata`, `Ritirata`) inside the first screen,
 * above the statistics and the notice `Hai già una prenotazione attiva`; the server's HTML has
 * that order already. Without such a booking the page keeps its order. Each test adds its own
 * bike (with a combination lock) and its own resident.
 */

const PASSWORD = 'bici-rastrelliera-prima-1';
const PHONE = { width: 375, height: 667 };
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A resident of the test's own, logged in in `request`'s context (the page's: same cookies). */
async function registerResident(request: APIRequestContext): Promise<string> {
  const email = `rastrelliera-${unique()}@bicielis.test`;
  await createAccount({ nome: 'Rita', cognome: 'Rastrelliera', email, password: PASSWORD, residente: true });
  const res = await request.post('/api/login', { data: { email, password: PASSWORD } });
  baseExpect(res.status()).toBe(200);
  return email;
}

/** A bike of the test's own with a combination lock whose code is `codice`. */
async function addLockedBike(numero: string, codice: string): Promise<void> {
  await withE2eDatabase(async (db) => {
    await db.query(`insert into biciclette (numero, modello) values ($1, 'Rack First')`, [numero]);
    await db.query(`insert into lucchetti (bici_id, tipo, codice) select id, 'combinazione', $2 from biciclette where numero = $1`, [numero, codice]);
  });
}

const pickUp = (id: number) => withE2eDatabase((db) => db.query(`update prenotazioni set ritirata_at = now() where id = $1`, [id]));

/** The sections of the page's main, by their heading's text, in the order they are in the document. */
const sectionOrder = (page: Page) =>
  page.locator('main section').evaluateAll((sections) =>
    sections.map((s) => document.getElementById(s.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() ?? ''),
  );

/** The same, in the HTML the server sends (before any script ran). */
async function serverSectionOrder(page: Page): Promise<string[]> {
  const html = await (await page.request.get('/dashboard')).text();
  const titles = ['Riepilogo', 'Prenota una bicicletta', 'Le tue prenotazioni attive', 'Prenotazioni passate'];
  return titles
    .map((title) => ({ title, at: html.indexOf(`>${title}</h2>`) }))
    .filter((t) => t.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((t) => t.title);
}

const TODAY_ORDER = ['Riepilogo', 'Prenota una bicicletta', 'Le tue prenotazioni attive', 'Prenotazioni passate'];
const RACK_ORDER = ['Le tue prenotazioni attive', 'Riepilogo', 'Prenota una bicicletta', 'Prenotazioni passate'];

/** Whether the element lies whole inside the first screen (the page not scrolled). */
async function expectInFirstScreen(page: Page, locator: Locator, what: string): Promise<void> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  const scrollY = await page.evaluate(() => window.scrollY);
  baseExpect(scrollY, 'the page opened scrolled').toBe(0);
  baseExpect(box, what).not.toBeNull();
  baseExpect(box!.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  baseExpect(box!.y + box!.height, `${what}: its bottom (${Math.round(box!.y + box!.height)} px) past the first screen`).toBeLessThanOrEqual(PHONE.height);
}

function activeCard(page: Page, numero: string): Locator {
  return page
    .getByRole('region', { name: 'Le tue prenotazioni attive' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: `Bici ${numero} · Rack First` }) });
}

test.describe('at the rack, the booking comes first', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(PHONE);
  });

  test('a ride in progress: the card, its lock code and `Riconsegnata` fill the first screen, and the tap opens the return', async ({ page }) => {
    const bike = `R${unique()}`.slice(0, 12);
    await addLockedBike(bike, '3917');
    const email = await registerResident(page.request);
    await pickUp(await seedActiveBooking(email, bike, windowFromNow(1), 'Piazza Navona'));

    baseExpect(await serverSectionOrder(page)).toEqual(RACK_ORDER);
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(request.url()));
    await page.goto('/dashboard');
    const card = activeCard(page, bike);
    await expectInFirstScreen(page, card.getByRole('heading', { level: 3 }), 'the card’s bike');
    await expectInFirstScreen(page, card.getByText('Codice del lucchetto: 3917'), 'the lock code');
    await expectInFirstScreen(page, card.getByRole('button', { name: 'Riconsegnata' }), '`Riconsegnata`');
    await expectStarted(page);
    // On a ride the code and `Riconsegnata` work before the app (decision 067): its entry comes after the screen's chunks, as on any page.
    const started = await scriptStarts(page, listedScripts(await (await page.request.get('/dashboard')).text()));
    expect(started.entry).toBeGreaterThanOrEqual(Math.max(...started.chunks));
    // The return dialog's code is asked for before any pointer, focus or touch reached the button.
    await expect.poll(() => scripts.some((url) => /\/return-dialog-content-[\w-]+\.js$/.test(url))).toBe(true);
    expect(await sectionOrder(page)).toEqual(RACK_ORDER);
    // The notice stays, under the card.
    await expect(page.getByText('Hai già una prenotazione attiva')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page);

    // Nothing took the focus on its own; from the top, the keyboard's first stop in the page's
    // main is in the card (the header's links come before it).
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    for (let i = 0; i < 12 && !(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await card.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    await card.getByRole('button', { name: 'Riconsegnata' }).click();
    await expect(page.getByRole('dialog', { name: 'Riconsegna della bicicletta' })).toBeVisible();
  });

  test('a booking in its pick-up window: the card, its lock code and `Ritirata` fill the first screen', async ({ page }) => {
    const bike = `P${unique()}`.slice(0, 12);
    await addLockedBike(bike, '6254');
    const email = await registerResident(page.request);
    // Starting in 5 minutes: its pick-up window (10 minutes before the start) is open.
    await seedActiveBooking(email, bike, windowFromNow(5), 'Trastevere');

    baseExpect(await serverSectionOrder(page)).toEqual(RACK_ORDER);
    // The code is asked of the server without waiting for the device's store of codes (a chunk):
    // held, the question goes anyway; the code shows once the chunk is in.
    const release = await holdRequests(page, '**/lock-codes-*.js');
    const asked = page.waitForRequest(/\/api\/prenotazioni\/\d+\/codice$/, { timeout: 20_000 });
    await page.goto('/dashboard');
    await asked;
    release();
    const card = activeCard(page, bike);
    await expectInFirstScreen(page, card.getByRole('heading', { level: 3 }), 'the card’s bike');
    await expectInFirstScreen(page, card.getByText('Codice del lucchetto: 6254'), 'the lock code');
    await expectInFirstScreen(page, card.getByRole('button', { name: 'Ritirata' }), '`Ritirata`');
    await expectStarted(page);
    await expect(card.getByRole('button', { name: 'Ritirata' })).toBeEnabled();
    // Before a pick-up the person waits for the app (`Ritirata` is React's): its entry is asked for before the screen's chunks (decision 034's amendment).
    const started = await scriptStarts(page, listedScripts(await (await page.request.get('/dashboard')).text()));
    expect(started.entry).toBeLessThanOrEqual(Math.min(...started.chunks));
    expect(await sectionOrder(page)).toEqual(RACK_ORDER);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page);
  });

  test('a booking whose pick-up window is not open yet, or none: the page keeps its order', async ({ page }) => {
    const bike = `L${unique()}`.slice(0, 12);
    await addLockedBike(bike, '8406');
    const email = await registerResident(page.request);

    // No booking at all.
    baseExpect(await serverSectionOrder(page)).toEqual(TODAY_ORDER);
    await page.goto('/dashboard');
    await expect(page.getByRole('region', { name: 'Le tue prenotazioni attive' }).getByText('Nessuna prenotazione attiva')).toBeVisible();
    await expectStarted(page);
    expect(await sectionOrder(page)).toEqual(TODAY_ORDER);

    // A booking in an hour: the window opens 50 minutes from now.
    await seedActiveBooking(email, bike, windowFromNow(60), 'Testaccio');
    baseExpect(await serverSectionOrder(page)).toEqual(TODAY_ORDER);
    await page.reload();
    const card = activeCard(page, bike);
    await expect(card.getByText(/^Il codice del lucchetto sarà visibile dalle \d\d:\d\d$/)).toBeVisible();
    await expectStarted(page);
    expect(await sectionOrder(page)).toEqual(TODAY_ORDER);
    await expect(page.getByText('Hai già una prenotazione attiva')).toBeVisible();
  });
  test('before the app has come: the lock code shows and `Riconsegnata` opens the return, then the app takes both over', async ({ page }) => {
    const bike = `E${unique()}`.slice(0, 12);
    await addLockedBike(bike, '5172');
    const email = await registerResident(page.request);
    await pickUp(await seedActiveBooking(email, bike, windowFromNow(1), 'Villa Borghese'));

    // The app's entry held: whatever works now works without it (decision 067).
    const entry = listedScripts(await (await page.request.get('/dashboard')).text())[0]!;
    const release = await holdRequests(page, `**${entry}`);
    const codeQuestions: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/prenotazioni\/\d+\/codice$/.test(request.url())) codeQuestions.push(request.url());
    });
    await page.goto('/dashboard');
    const card = activeCard(page, bike);
    await expectInFirstScreen(page, card.getByText('Codice del lucchetto: 5172'), 'the lock code, before the app');
    const returned = card.getByRole('button', { name: 'Riconsegnata' });
    await returned.click();
    const dialog = page.getByRole('dialog', { name: 'Riconsegna della bicicletta' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Bici ${bike} · Rack First`);
    await expect(dialog.getByText('Carico il modulo di riconsegna…')).toBeVisible();
    await expect(dialog).toBeFocused();
    // Escape closes it as a dialog closes, the focus back on its button; a second tap opens it again.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(returned).toBeFocused();
    await returned.click();
    await expect(dialog).toBeVisible();
    await expect(page.locator('#root[data-started]')).toHaveCount(0);

    release();
    await expectStarted(page);
    // The app's own dialog, with its form, in place of the first screen: one dialog, not two.
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await expect(dialog.getByRole('switch', { name: 'Segnala un danno' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Conferma riconsegna' })).toBeVisible();
    await expect(page.locator('[data-early-dialog]')).toBeHidden();
    // The app shows the code the page's script got (under the dialog: the card is outside the
    // accessibility tree while it is open): one question to the server, not two.
    await expect(page.locator('[data-early-code][data-state="ready"] [data-early-digits]')).toHaveText('5172');
    await expect(page.locator('[data-early-code] [data-early-digits]')).toBeVisible();
    expect(codeQuestions).toHaveLength(1);

    await dialog.getByRole('button', { name: 'Conferma riconsegna' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toHaveCount(0);
  });

  test('`Annulla` on the return’s first screen while the app’s dialog is still coming: nothing opens after', async ({ page }) => {
    const bike = `A${unique()}`.slice(0, 12);
    await addLockedBike(bike, '7730');
    const email = await registerResident(page.request);
    await pickUp(await seedActiveBooking(email, bike, windowFromNow(1), 'Gianicolo'));

    const release = await holdRequests(page, '**/return-dialog-content-*.js');
    await page.goto('/dashboard');
    await expectStarted(page);
    const card = activeCard(page, bike);
    await card.getByRole('button', { name: 'Riconsegnata' }).click();
    const dialog = page.getByRole('dialog', { name: 'Riconsegna della bicicletta' });
    await expect(dialog.getByText('Carico il modulo di riconsegna…')).toBeVisible();
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await expect(dialog).toBeHidden();
    const came = page.waitForResponse(/\/return-dialog-content-[\w-]+\.js$/);
    release();
    await came;
    // Its chunk came: the dialog stays closed. A new tap opens the app's own, at once.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await card.getByRole('button', { name: 'Riconsegnata' }).click();
    await expect(dialog.getByRole('switch', { name: 'Segnala un danno' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(1);
  });
});
