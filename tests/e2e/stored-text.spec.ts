import { createAccount, openDay } from './database';
import { expect, test } from './fixtures';

/**
 * Text people type is shown as text (issue 12, "stored text is text"): a name and a
 * destination holding HTML appear literally on the dashboard; no element is made from them
 * and no script runs.
 */

const IMG = '<img src=x onerror=alert(1)>';
const BOLD = '<b>grassetto</b>';

test('a name and a destination with HTML are shown literally on the dashboard', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const email = `html.${Date.now()}@example.it`;
  // page.request shares the page's cookies: the login logs this browser in.
  await createAccount({ nome: BOLD, cognome: 'Rossi', email, password: 'Password-Lunga-1' });
  const loggedIn = await page.request.post('/api/login', { data: { email, password: 'Password-Lunga-1' } });
  expect(loggedIn.status()).toBe(200);

  const window = { orarioInizio: '06:00', orarioFine: '06:30' };
  const date = await openDay({ from: 2, windows: [window] });
  const bikes = (await (await page.request.post('/api/biciclette/available', { data: { ...window, dataPrenotazione: date } })).json()) as { id: number }[];
  expect(bikes.length).toBeGreaterThan(0);
  const booked = await page.request.post('/api/prenotazioni', { data: { ...window, dataPrenotazione: date, destinazione: IMG, biciId: bikes[0]!.id } });
  expect(booked.status()).toBe(201);
  const bookingId = ((await booked.json()) as { id: number }).id;

  try {
    await page.goto('/dashboard');
    await expect(page.getByText(BOLD).first()).toBeVisible();
    await expect(page.getByText(IMG).first()).toBeVisible();
    // Nothing was parsed as HTML: no <b> with that text, no <img src="x">, no alert.
    await expect(page.locator('b', { hasText: 'grassetto' })).toHaveCount(0);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  } finally {
    await page.request.delete(`/api/prenotazioni/${bookingId}`);
  }
});
