import { type Locator } from '@playwright/test';
import { zonedClock, zonedToday } from '../../src/shared/time.js';
import { createAccount, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, test } from './fixtures';

/*
 * The rack's board (issue 34, decision 044): the admin makes the link in /admin → Biciclette, a
 * tablet (a second browser context, landscape) opens it without a login, a booking made
 * meanwhile shows on it without a reload, and a revoked link says `Link non valido`. The bike
 * and the rider are the test's own.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const TIME_ZONE = 'Europe/Rome';
const PASSWORD = 'bici-rastrelliera-1';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A window starting 5 minutes from now, half an hour long (to 23:59 at most): its pick-up is open now. */
function windowStartingNow(): { date: string; start: string; end: string } {
  const startAt = new Date(Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000);
  const start = zonedClock(startAt, TIME_ZONE);
  const [h, m] = start.split(':').map(Number) as [number, number];
  const endMinutes = Math.min(23 * 60 + 59, h * 60 + m + 30);
  const end = `${String(Math.floor(endMinutes / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
  return { date: zonedToday(startAt, TIME_ZONE), start, end };
}

/** The font size of an element, in CSS pixels. */
const fontSize = (locator: Locator) => locator.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));

test.describe('the rack’s board', () => {
  test('the admin makes the link; the tablet shows every bike and a new booking without a reload; a revoked link is not valid', async ({
    page,
    browser,
    playwright,
    baseURL,
  }) => {
    // Two browsers, a rider and three accessibility scans on a busy 2-core machine.
    test.slow();
    const numero = `Q${unique()}`.slice(0, 10);
    await withE2eDatabase((db) => db.query(`insert into biciclette (numero, modello) values ($1, 'City Bike Rastrelliera')`, [numero]));

    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    await page.goto('/admin?tab=biciclette');
    const section = page.getByRole('region', { name: 'Schermo della rastrelliera' });
    await expect(section).toBeVisible();
    const replace = section.getByRole('button', { name: 'Nuovo link' });
    const make = section.getByRole('button', { name: 'Crea il link' });
    await expect(replace.or(make)).toBeVisible();
    if (await replace.isVisible()) {
      // A link made by an earlier run on this server: replacing it asks first.
      await replace.click();
      const confirm = page.getByRole('alertdialog', { name: 'Sostituire il link attuale?' });
      await confirm.getByRole('button', { name: 'Crea un nuovo link' }).click();
    } else {
      await make.click();
    }
    const linkField = section.getByRole('textbox', { name: 'Link dello schermo (mostrato solo ora)' });
    await expect(linkField).toHaveValue(/\/rastrelliera\/[A-Za-z0-9_-]{43}$/);
    const url = new URL(await linkField.inputValue());
    await expect(section.getByRole('button', { name: 'Copia' })).toBeVisible();
    await expect(section.getByText(/Un link è attivo, creato il/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The tablet: no login, landscape.
    const tablet = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'it-IT', timezoneId: TIME_ZONE });
    const board = await tablet.newPage();
    // The page's timers on a clock the test can move: a network dropped without a word is
    // noticed by the silence of the stream (no `ping` for 40 s).
    await board.clock.install();
    await board.goto(url.pathname);
    const card = board.getByRole('listitem').filter({ hasText: numero });
    await expect(card.getByText('Libera', { exact: true })).toBeVisible();
    await expect(card.getByText('Nessun’altra prenotazione oggi')).toBeVisible();
    await expect(board.getByText(/^Aggiornato alle \d\d:\d\d$/)).toBeVisible();
    expect(await fontSize(card.getByText(`Bici ${numero}`, { exact: true }))).toBeGreaterThanOrEqual(48);
    expect(await fontSize(card.getByText('Libera', { exact: true }))).toBeGreaterThanOrEqual(48);
    await expectNoSeriousA11yViolations(board);

    // A rider of the test's own books the bike through the API, from another client.
    const email = `rastrelliera-${unique()}@bicielis.test`;
    await createAccount({ nome: 'Rita', cognome: 'Rastrelli', email, password: PASSWORD, residente: true });
    const rider = await playwright.request.newContext({ baseURL });
    expect((await rider.post('/api/login', { data: { email, password: PASSWORD } })).status()).toBe(200);
    const bike = (await (await rider.get('/api/biciclette')).json()) as { id: number; numero: string }[];
    const biciId = bike.find((b) => b.numero === numero)!.id;
    const { date, start, end } = windowStartingNow();
    const booked = await rider.post('/api/prenotazioni', { data: { dataPrenotazione: date, orarioInizio: start, orarioFine: end, biciId } });
    expect(booked.status(), await booked.text()).toBe(201);

    // On the board within seconds, without a reload: its pick-up window is open.
    await expect(card.getByText(`Prenotata dalle ${start}`, { exact: true })).toBeVisible({ timeout: 10_000 });
    await expect(card.getByText(`Prenotazioni di oggi: ${start}–${end}`)).toBeVisible();
    // No person on the board.
    await expect(board.getByText('Rastrelli')).toHaveCount(0);
    await expect(board.getByText(email)).toHaveCount(0);
    await expectNoSeriousA11yViolations(board);
    await rider.dispose();
    // Opened on a phone too, it fits its width.
    await board.setViewportSize({ width: 375, height: 812 });
    await expectNoSidewaysScroll(board, 'the rack’s board at 375 px');
    await board.setViewportSize({ width: 1280, height: 800 });

    // The network drops: the last state stays, with its time.
    await tablet.setOffline(true);
    await board.clock.fastForward('01:00');
    await expect(board.getByText(/^Ultimo aggiornamento alle \d\d:\d\d — connessione assente$/)).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText(`Prenotata dalle ${start}`, { exact: true })).toBeVisible();
    // It comes back: live again by itself.
    await tablet.setOffline(false);
    await board.clock.fastForward('00:10');
    await expect(board.getByText(/^Aggiornato alle \d\d:\d\d$/)).toBeVisible({ timeout: 15_000 });

    // The admin revokes the link: the open board says so.
    await section.getByRole('button', { name: 'Revoca' }).click();
    await page.getByRole('alertdialog', { name: 'Revocare il link dello schermo?' }).getByRole('button', { name: 'Revoca' }).click();
    await expect(section.getByText(/Nessun link attivo/)).toBeVisible();
    await expect(board.getByRole('heading', { name: 'Link non valido' })).toBeVisible({ timeout: 15_000 });
    // And so does the link opened afresh.
    const again = await tablet.newPage();
    await again.goto(url.pathname);
    await expect(again.getByRole('heading', { name: 'Link non valido' })).toBeVisible();
    await tablet.close();
  });
});
