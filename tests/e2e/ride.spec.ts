import { expect as baseExpect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { zonedClock, zonedToday, addDays } from '../../src/shared/time.js';
import { createAccount, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, loginViaForm, notice, test } from './fixtures';

/*
 * The ride (issue 13, decision 022): pick-up, return with a damage report, the admin's damage
 * list and overdue bikes, the profile page. Each test registers its own people and adds its
 * own bikes, so nothing another spec does (two workers) can be in the way; what the UI cannot
 * make — a ride starting now, a ride whose end has passed — is written into the database.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const TIME_ZONE = 'Europe/Rome';
const PASSWORD = 'bici-giro-1';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/**
 * A resident of the test's own (a resident rides for free: no payment stands between the
 * booking and the pick-up), logged in in `request`'s context (its cookie is their session).
 */
async function registerResident(request: APIRequestContext, nome: string, cognome: string): Promise<string> {
  const email = `giro-${unique()}@bicielis.test`;
  await createAccount({ nome, cognome, email, password: PASSWORD, residente: true });
  const res = await request.post('/api/login', { data: { email, password: PASSWORD } });
  baseExpect(res.status()).toBe(200);
  return email;
}

/** A bike of its own for one test. */
async function addBike(numero: string): Promise<void> {
  await withE2eDatabase((db) => db.query(`insert into biciclette (numero, modello) values ($1, 'Gravel Test')`, [numero]));
}

/** An `attiva` booking of `email` on bike `numero`, on `date` from `start` to `end` (Rome), optionally already picked up. */
async function seedBooking(email: string, numero: string, date: string, start: string, end: string, pickedUp: boolean): Promise<number> {
  return withE2eDatabase(async (db) => {
    const { rows } = await db.query<{ id: number }>(
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, ritirata_at, created_at, updated_at)
       select u.id, b.id, $3::date, $4, $5,
              ($3 || ' ' || $4)::timestamp at time zone 'Europe/Rome', ($3 || ' ' || $5)::timestamp at time zone 'Europe/Rome',
              'Giro di prova', 'attiva',
              case when $6 then ($3 || ' ' || $4)::timestamp at time zone 'Europe/Rome' end,
              now() - interval '1 day', now() - interval '1 day'
         from users u, biciclette b
        where u.email = $1 and b.numero = $2
       returning id`,
      [email, numero, date, start, end, pickedUp],
    );
    baseExpect(rows).toHaveLength(1);
    return rows[0]!.id;
  });
}

/**
 * A window whose bike can be picked up now: it starts 5 minutes from now (the pick-up opens 10
 * minutes before the start) and lasts an hour, to 23:59 at most. Near midnight the start falls
 * on tomorrow, so the test does not depend on the hour it runs at.
 */
function windowStartingNow(): { date: string; start: string; end: string } {
  const startAt = new Date(Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000);
  const start = zonedClock(startAt, TIME_ZONE);
  const [h, m] = start.split(':').map(Number) as [number, number];
  const endMinutes = Math.min(23 * 60 + 59, h * 60 + m + 60);
  const end = `${String(Math.floor(endMinutes / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
  return { date: zonedToday(startAt, TIME_ZONE), start, end };
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test.describe('the ride', () => {
  test('a user picks up the bike, returns it with a damage report, and the admin sees the report', async ({ page, browser }) => {
    // Two people's whole flow with four accessibility scans: on a busy 2-core machine this
    // takes longer than one screen's test, whatever it waits for.
    test.slow();
    const bike = `R${unique()}`.slice(0, 12);
    await addBike(bike);
    const email = await registerResident(page.request, 'Sara', 'Ruota');
    const { date, start, end } = windowStartingNow();
    await seedBooking(email, bike, date, start, end, false);

    await page.goto('/dashboard');
    const active = page.getByRole('region', { name: 'Le tue prenotazioni attive' });
    const item = active.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: `Bici ${bike} · Gravel Test` }) });
    await expect(item.getByText('Da ritirare', { exact: true })).toBeVisible();
    await expect(item.getByRole('link', { name: 'Aggiungi al calendario' })).toHaveAttribute('href', /\/api\/prenotazioni\/\d+\/calendario\.ics$/);
    await expectNoSeriousA11yViolations(page);

    await item.getByRole('button', { name: 'Ritirata' }).click();
    await expect(notice(page, 'Buon viaggio!')).toBeVisible();
    await expect(item.getByText('In corso', { exact: true })).toBeVisible();
    // Once picked up, the booking can no longer be deleted.
    await expect(item.getByRole('button', { name: 'Elimina' })).toHaveCount(0);

    await item.getByRole('button', { name: 'Riconsegnata' }).click();
    const dialog = page.getByRole('dialog', { name: 'Riconsegna della bicicletta' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('switch', { name: 'Segnala un danno' }).check();
    await expectNoSeriousA11yViolations(page);
    // A report needs a category and a text: the form says so and sends nothing.
    await dialog.getByRole('button', { name: 'Conferma riconsegna' }).click();
    await expect(dialog.getByText('Scegli il tipo di danno')).toBeVisible();
    await expect(dialog.getByLabel('Tipo di danno')).toBeFocused();
    await dialog.getByLabel('Tipo di danno').selectOption({ label: 'Freni' });
    const text = `Il freno posteriore non frena ${unique()}`;
    await dialog.getByLabel('Descrizione del danno').fill(text);
    await expect(dialog.getByText(`${text.length} di 500 caratteri`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Conferma riconsegna' }).click();
    await expect(notice(page, 'Bicicletta riconsegnata')).toBeVisible();
    await expect(dialog).toBeHidden();

    await expect(active.getByText('Nessuna prenotazione attiva')).toBeVisible();
    const past = page.getByRole('region', { name: 'Prenotazioni passate' });
    const returned = past.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: `Bici ${bike} · Gravel Test` }) });
    await expect(returned.getByText(/^Riconsegnata alle \d\d:\d\d$/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const adminPage = await newPage(browser);
    try {
      await loginViaForm(adminPage, admin);
      await expect(adminPage).toHaveURL('/admin');
      // Issue 48: the report opened a repair ticket; `Danni da controllare` lists the open ones, each a link to it.
      const damage = adminPage.getByRole('region', { name: 'Danni da controllare' });
      const ticket = damage.getByRole('link', { name: `Bici n. ${bike}: Freni, Aperto` });
      await expect(ticket).toBeVisible();
      await expect(ticket).toContainText(text);
      await expectNoSeriousA11yViolations(adminPage);
      await ticket.click();
      await expect(adminPage).toHaveURL(/\/officina\/\d+$/);
      await expect(adminPage.getByText(text)).toBeVisible();
      await expect(adminPage.getByText(/^Sara Ruota, /)).toBeVisible();
      await adminPage.getByRole('button', { name: 'Riparata' }).click();
      await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Riparata' }).click();
      // The change lands, the dialog closes and a closed ticket has no actions left (a loaded CI
      // machine once took over 15 s from the answer to this state): then only its badge says it.
      await expect(adminPage.getByRole('alertdialog')).toHaveCount(0, { timeout: 30_000 });
      await expect(adminPage.getByRole('button', { name: 'Riparata' })).toHaveCount(0);
      await expect(adminPage.getByText('Riparata', { exact: true })).toBeVisible();
      // Closed, it leaves the open list.
      await adminPage.goto('/admin');
      await expect(adminPage.getByRole('region', { name: 'Danni da controllare' }).getByRole('link', { name: new RegExp(`^Bici n. ${bike}:`) })).toHaveCount(0);
    } finally {
      await adminPage.context().close();
    }
  });

  test('an admin sees a bike not returned in time and releases it', async ({ page, browser }) => {
    const bike = `L${unique()}`.slice(0, 12);
    await addBike(bike);
    const rider = await newPage(browser);
    let email: string;
    try {
      email = await registerResident(rider.request, 'Luca', 'Ritardo');
    } finally {
      await rider.context().close();
    }
    // Picked up yesterday 10:00, due back at 11:00: in ritardo by about a day.
    const yesterday = addDays(zonedToday(new Date(), TIME_ZONE), -1);
    await seedBooking(email, bike, yesterday, '10:00', '11:00', true);

    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    const overdue = page.getByRole('region', { name: 'Biciclette in ritardo' });
    const ride = overdue.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Bici ${bike} · Gravel Test` }) });
    await expect(ride).toBeVisible();
    await expect(ride).toContainText('Luca Ritardo');
    await expect(ride).toContainText('alle 11:00');
    await expect(ride.getByText(/^In ritardo di /)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The bookings list filters by the ride's phase.
    await page.getByPlaceholder('Cerca per utente, bici o destinazione...').fill('Ritardo');
    await page.getByLabel('Filtra per stato').selectOption({ label: 'Attive: in ritardo' });
    const table = page.getByRole('region', { name: 'Prenotazioni' });
    await expect(table.getByRole('row').filter({ hasText: bike })).toContainText('In ritardo');

    await ride.getByRole('button', { name: `Rilascia la bici ${bike}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`Rilasciare la bici ${bike}?`);
    await expectNoSeriousA11yViolations(page);
    await confirm.getByRole('button', { name: 'Rilascia', exact: true }).click();
    await expect(notice(page, 'Bicicletta rilasciata')).toBeVisible();
    await expect(ride).toHaveCount(0);
  });
});

test.describe('the profile page', () => {
  test('changes the name, turns reminders off and makes a calendar link', async ({ page }) => {
    await registerResident(page.request, 'Paola', 'Profilo');
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profilo' }).click();
    await expect(page).toHaveURL('/profilo');
    await expect(page.getByRole('heading', { level: 1, name: 'Il tuo profilo' })).toBeVisible();
    await expect(page.getByLabel('Nome', { exact: true })).toHaveValue('Paola');
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Nome', { exact: true }).fill('Giulia');
    await page.getByRole('button', { name: 'Salva' }).click();
    await expect(notice(page, 'Dati salvati')).toBeVisible();

    const reminders = page.getByRole('switch', { name: 'Promemoria' });
    await expect(reminders).toBeChecked();
    await reminders.click();
    await expect(notice(page, 'Promemoria disattivati')).toBeVisible();
    await expect(reminders).not.toBeChecked();

    await page.getByRole('button', { name: 'Crea il link del calendario' }).click();
    const link = page.getByLabel('Link del calendario');
    await expect(link).toHaveValue(/\/api\/calendario\/[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('button', { name: 'Copia' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rigenera' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const feed = await page.request.get(new URL(await link.inputValue()).pathname);
    expect(feed.status()).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');

    // What was saved is what the server gives back.
    await page.reload();
    await expect(page.getByLabel('Nome', { exact: true })).toHaveValue('Giulia');
    await expect(page.getByRole('switch', { name: 'Promemoria' })).not.toBeChecked();
    await expect(page.getByText('Il link del calendario è attivo.', { exact: false })).toBeVisible();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Benvenuto, Giulia Profilo');
  });

  test('is behind the login', async ({ page }) => {
    await page.goto('/profilo');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expect(page).toHaveURL('/profilo');
  });
});
