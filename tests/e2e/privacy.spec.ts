import { readFile } from 'node:fs/promises';
import { dataExportSchema } from '../../src/shared/schemas/privacy.js';
import { zonedToday } from '../../src/shared/time.js';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, holdRequests, notice, test } from './fixtures';
import { createAccount, openDay } from './database';
import { readOutbox, waitForEmail } from './outbox';

/**
 * Issue 23 (decision 029) on a phone: /profilo → I tuoi dati. The user is made for this
 * spec (never a demo account): registered, with a booking on the first day the rules allow.
 */

test.use({ viewport: { width: 375, height: 812 } });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('download my data, then delete my account: told what happens, password asked, logged out, one last email', async ({ page }) => {
  const email = `privacy-${unique()}@example.it`;
  const password = 'Dati-Miei-2026';
  await createAccount({ nome: 'Prisca', cognome: `Riservati${unique()}`, email, password });
  const loggedIn = await page.request.post('/api/login', { data: { email, password } });
  expect(loggedIn.status(), await loggedIn.text()).toBe(200);
  const day = await openDay();
  const window = { dataPrenotazione: day, orarioInizio: '10:00', orarioFine: '11:00' };
  const bikes = (await (await page.request.post('/api/biciclette/available', { data: window })).json()) as { id: number; numero: string }[];
  expect(bikes.length).toBeGreaterThan(0);
  const booked = await page.request.post('/api/prenotazioni', { data: { ...window, destinazione: null, biciId: bikes[0]!.id } });
  expect(booked.status(), await booked.text()).toBe(201);

  await page.goto('/profilo');
  const section = page.getByRole('region', { name: 'I tuoi dati' });
  await expect(section).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, '/profilo at 375 px');

  // Scarica i miei dati: one JSON file in the documented format.
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Scarica i miei dati' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`bicielis-dati-${zonedToday(new Date(), 'Europe/Rome')}.json`);
  const data = dataExportSchema.parse(JSON.parse(await readFile((await download.path())!, 'utf8')));
  expect(data.account.email).toBe(email);
  expect(data.prenotazioni.map((b) => [b.dataPrenotazione, b.orarioInizio, b.stato])).toEqual([[day, '10:00', 'attiva']]);
  await expect(notice(page, 'Dati scaricati')).toBeVisible();

  // Elimina il mio account: what will happen, then the password.
  await section.getByRole('button', { name: 'Elimina il mio account' }).click();
  const panel = page.getByRole('region', { name: 'Elimina il mio account' });
  await expect(panel.getByRole('heading', { name: 'Elimina il mio account' })).toBeFocused();
  const [y, m, d] = day.split('-');
  await expect(panel.getByRole('listitem').filter({ hasText: `La prenotazione del ${d}/${m}/${y} dalle 10:00 alle 11:00` })).toContainText('sarà annullata');
  await expect(panel.getByText(`la tua email (${email})`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the deletion panel at 375 px');

  // No password: said at the field, nothing sent. A wrong one: the server's word, at the field.
  await panel.getByRole('button', { name: 'Elimina definitivamente' }).click();
  const field = panel.getByLabel('Password', { exact: true });
  await expect(field).toBeFocused();
  await expect(panel.getByText('Inserisci la tua password per confermare')).toBeVisible();
  await field.fill('Non-E-La-Mia');
  await panel.getByRole('button', { name: 'Elimina definitivamente' }).click();
  await expect(panel.getByText('La password non è corretta')).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  await field.fill(password);
  await panel.getByRole('button', { name: 'Elimina definitivamente' }).click();
  await expect(page).toHaveURL('/login');
  await expect(notice(page, 'Account eliminato')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  expect((await page.request.get('/api/current-user')).status()).toBe(401);

  // The last email, and no other email to the person left in the outbox.
  const last = await waitForEmail(email, (e) => e.subject.startsWith('Il tuo account BiciElis'));
  expect(last.text).toContain('Il tuo account BiciElis è stato eliminato');
  expect((await readOutbox()).filter((e) => e.to.toLowerCase().includes(email)).map((e) => e.subject)).toEqual([last.subject]);

  // The profile needs a login again.
  await page.goto('/profilo');
  await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
});

test('/privacy never gives way to the loading screen while the app starts', async ({ page }) => {
  // Recorded from the document's start: whether `Caricamento BiciElis...` is ever in the page.
  await page.addInitScript(() => {
    const state = window as unknown as { sawLoading: boolean };
    state.sawLoading = false;
    const check = () => {
      if (document.body?.textContent?.includes('Caricamento BiciElis...')) state.sawLoading = true;
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // The notice's chunk arrives only after the session has answered: the order in which the
  // session's answer replaced the server's notice with the loading screen (issue 31).
  const release = await holdRequests(page, '**/assets/privacy-page-*.js');
  const session = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/current-user');
  // Not to `load`: the held chunk is a modulepreload of the page.
  await page.goto('/privacy', { waitUntil: 'commit' });
  await session;
  release();

  await expect(page.locator('#root')).toHaveAttribute('data-started', '');
  await expect(page.getByRole('heading', { level: 1, name: 'Informativa sulla privacy' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sawLoading: boolean }).sawLoading)).toBe(false);
});
