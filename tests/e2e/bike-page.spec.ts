import fs from 'node:fs/promises';
import { expect as baseExpect, type APIRequestContext, type Browser } from '@playwright/test';
import { zonedClock, zonedToday } from '../../src/shared/time.js';
import { createAccount, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/*
 * The page a bike's QR code opens, /bici/:numero (issue 34), on a phone's width: the holder of
 * the bike's current booking gets its card with `Ritirata`; anyone else the bike's state and
 * `Prenota questa bici`, which opens the booking form with that bike chosen; without a login,
 * the login and then back to the bike; an unknown number says so. The holder's and the booking
 * flows use bikes of their own (another spec booking a demo bike meanwhile cannot be in the
 * way); the login's way back uses the demo bike 07, which it only reads.
 */

test.use({ viewport: { width: 375, height: 812 } });

const TIME_ZONE = 'Europe/Rome';
const PASSWORD = 'bici-etichetta-1';
const resident = DEMO_ACCOUNTS.find((a) => a.ruolo !== 'admin' && a.email.startsWith('residente'))!;
const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A resident of the test's own (no payment stands between the booking and the pick-up), logged in in `request`'s context. */
async function loggedInResident(request: APIRequestContext, nome: string, cognome: string): Promise<string> {
  const email = `qr-${unique()}@bicielis.test`;
  await createAccount({ nome, cognome, email, password: PASSWORD, residente: true });
  const res = await request.post('/api/login', { data: { email, password: PASSWORD } });
  baseExpect(res.status()).toBe(200);
  return email;
}

async function addBike(numero: string): Promise<void> {
  await withE2eDatabase((db) => db.query(`insert into biciclette (numero, modello) values ($1, 'Etichetta Test')`, [numero]));
}

/** An `attiva` booking of `email` on bike `numero` that can be picked up now: it starts in 5 minutes, for an hour (to 23:59 at most). */
async function bookingStartingNow(email: string, numero: string): Promise<{ start: string }> {
  const startAt = new Date(Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000);
  const start = zonedClock(startAt, TIME_ZONE);
  const [h, m] = start.split(':').map(Number) as [number, number];
  const endMinutes = Math.min(23 * 60 + 59, h * 60 + m + 60);
  const end = `${String(Math.floor(endMinutes / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
  const date = zonedToday(startAt, TIME_ZONE);
  await withE2eDatabase(async (db) => {
    const { rowCount } = await db.query(
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, created_at, updated_at)
       select u.id, b.id, $3::date, $4, $5,
              ($3 || ' ' || $4)::timestamp at time zone 'Europe/Rome', ($3 || ' ' || $5)::timestamp at time zone 'Europe/Rome',
              'Giro dal cortile', 'attiva', now() - interval '1 day', now() - interval '1 day'
         from users u, biciclette b
        where u.email = $1 and b.numero = $2`,
      [email, numero, date, start, end],
    );
    baseExpect(rowCount).toBe(1);
  });
  return { start };
}

async function loggedInPage(browser: Browser, nome: string, cognome: string) {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  await loggedInResident(context.request, nome, cognome);
  return context.newPage();
}

test.describe('the bike page', () => {
  test("the holder gets the booking's card and picks the bike up; another user sees only the bike's state", async ({ page, browser }) => {
    test.slow();
    const bike = `Q${unique()}`.slice(0, 12);
    await addBike(bike);
    const email = await loggedInResident(page.request, 'Irene', 'Titolare');
    const { start } = await bookingStartingNow(email, bike);

    await page.goto(`/bici/${bike}`);
    await expect(page.getByRole('heading', { level: 1, name: `Bici ${bike}` })).toBeVisible();
    const card = page.getByRole('region', { name: 'La tua prenotazione' }).getByRole('listitem').filter({
      has: page.getByRole('heading', { level: 3, name: `Bici ${bike} · Etichetta Test` }),
    });
    await expect(card.getByText('Da ritirare', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Ritirata' })).toBeEnabled();
    await expectNoSeriousA11yViolations(page);
    await expectNoSidewaysScroll(page, 'the holder’s bike page');

    // Another person at the same bike: its state and times, nothing of the holder or the booking.
    const other = await loggedInPage(browser, 'Pietro', 'Passante');
    try {
      await other.goto(`/bici/${bike}`);
      const state = other.getByRole('region', { name: 'Stato ora' });
      await expect(state.getByText('Prenotata', { exact: true })).toBeVisible();
      await expect(state.getByText(`Prenotata dalle ${start}`)).toBeVisible();
      await expect(other.getByRole('button', { name: 'Ritirata' })).toHaveCount(0);
      await expect(other.getByText('Irene')).toHaveCount(0);
      await expect(other.getByText('Giro dal cortile')).toHaveCount(0);
      await expectNoSeriousA11yViolations(other);
    } finally {
      await other.context().close();
    }

    // The dashboard's own card and action: the pick-up is recorded, the next step offered.
    await card.getByRole('button', { name: 'Ritirata' }).click();
    await expect(notice(page, 'Buon viaggio!')).toBeVisible();
    await expect(card.getByText('In corso', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Riconsegnata' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('another user taps Prenota questa bici: the booking form opens with that bike chosen', async ({ page }) => {
    const bike = `P${unique()}`.slice(0, 12);
    await addBike(bike);
    await loggedInResident(page.request, 'Paola', 'Prenota');

    await page.goto(`/bici/${bike}`);
    const state = page.getByRole('region', { name: 'Stato ora' });
    await expect(state.getByText('Libera', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectNoSidewaysScroll(page, 'the bike page');

    await state.getByRole('link', { name: 'Prenota questa bici' }).click();
    await expect(page).toHaveURL('/dashboard');
    const chosen = page.getByRole('radio', { name: new RegExp(`^Bici ${bike} `) });
    await expect(chosen).toBeChecked();
    // Only that one.
    await expect(page.getByRole('radio', { checked: true })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
  });

  test('Segnala un problema before the app has come: the fields open at once, and what was chosen and typed stays in the form (decision 068)', async ({ page }) => {
    const bike = `S${unique()}`.slice(0, 12);
    await addBike(bike);
    await loggedInResident(page.request, 'Sara', 'Segnala');
    // The app's code is held back: the page is the server's HTML and its one small script.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/bici/${bike}`);
    const root = page.locator('#root');
    await expect(root).toHaveAttribute('data-prerendered', 'server');
    const open = page.getByRole('button', { name: 'Segnala un problema' });

    // Annulla closes them and gives the focus back to the button, all before the app.
    await open.click();
    const category = page.getByLabel('Che cosa non va');
    await expect(category).toBeFocused();
    await page.getByRole('button', { name: 'Annulla' }).click();
    await expect(category).toBeHidden();
    await expect(open).toBeFocused();

    await open.click();
    await expect(category).toBeFocused();
    await category.selectOption({ label: 'Catena' });
    await page.getByLabel('Descrizione').fill('La catena salta in salita');
    await expect(page.getByRole('status').filter({ hasText: 'Caricamento del modulo...' })).toBeVisible();
    await expect(root).not.toHaveAttribute('data-started');

    release();
    const send = page.getByRole('button', { name: 'Invia la segnalazione' });
    await expect(send).toBeVisible();
    await expect(root).toHaveAttribute('data-started');
    await expect(page.getByLabel('Che cosa non va')).toHaveValue('catena');
    await expect(page.getByLabel('Descrizione')).toHaveValue('La catena salta in salita');
    await expect(page.getByLabel('Descrizione')).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await send.click();
    await expect(page.getByRole('status').filter({ hasText: `la segnalazione sulla bici n. ${bike} è arrivata all'officina` })).toBeVisible();
  });

  test('without a login: the login form, then back to the bike', async ({ page }) => {
    await page.goto('/bici/07');
    await page.getByLabel('Email').fill(resident.email);
    await page.getByLabel('Password', { exact: true }).fill(resident.password);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page).toHaveURL('/bici/07');
    await expect(page.getByRole('heading', { level: 1, name: 'Bici 07' })).toBeVisible();
    // Its state, or the resident's own booking of it: either way the bike's page, read.
    await expect(page.getByRole('region', { name: /^(Stato ora|La tua prenotazione)$/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('an unknown number: Bicicletta non trovata, and the way back to the dashboard', async ({ page }) => {
    await loggedInResident(page.request, 'Nora', 'Numero');
    await page.goto('/bici/NON-ESISTE');
    await expect(page.getByRole('heading', { name: 'Bicicletta non trovata' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Torna alla dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
  });

  test('the admin downloads the QR labels from Biciclette', async ({ page }) => {
    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    await page.getByRole('tab', { name: 'Biciclette' }).click();
    const button = page.getByRole('button', { name: 'Etichette QR' });
    await expect(button).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const downloading = page.waitForEvent('download');
    await button.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('etichette-bici.pdf');
    const bytes = await fs.readFile(await download.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await expect(notice(page, 'Download completato')).toBeVisible();
  });
});
