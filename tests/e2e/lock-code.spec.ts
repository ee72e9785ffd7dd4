import { expect as baseExpect, type APIRequestContext } from '@playwright/test';
import { createAccount, seedActiveBooking, windowFromNow, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, loginViaForm, notice, test } from './fixtures';

/** A bike's number cell: the number, then its sede's badge when the demo has several (issue 47). */
const bikeCell = (numero: string) => new RegExp(`^${numero}(\\s|$)`);

/*
 * The lock's code at the rack (issue 34, decision 044), as a person on a phone sees it: the
 * admin gives a bike a combination lock; its rider reads the code on the booking's card once the
 * pick-up window opens, picks the bike up, and at the return is told the new code to close the
 * lock with, which the admins then see as the lock's code. Each test adds its own bike and people.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const PASSWORD = 'bici-giro-1';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function registerResident(request: APIRequestContext, nome: string): Promise<string> {
  const email = `lucchetto-${unique()}@bicielis.test`;
  await createAccount({ nome, cognome: 'Lucchetto', email, password: PASSWORD, residente: true });
  const res = await request.post('/api/login', { data: { email, password: PASSWORD } });
  baseExpect(res.status()).toBe(200);
  return email;
}

async function addBike(numero: string): Promise<void> {
  await withE2eDatabase((db) => db.query(`insert into biciclette (numero, modello) values ($1, 'Lock Test')`, [numero]));
}

/** An `attiva` booking of `email` on bike `numero` starting `minutes` from now, for an hour (Rome). */
const seedBooking = (email: string, numero: string, minutes: number) => seedActiveBooking(email, numero, windowFromNow(minutes), 'Giro col lucchetto');

test.describe('the lock code', () => {
  test('the admin sets a combination lock; the rider reads its code in the window and closes the lock with a new one at the return', async ({
    page,
    browser,
  }) => {
    test.slow();
    const bike = `K${unique()}`.slice(0, 12);
    await addBike(bike);

    // The admin gives the bike a combination lock, at 375 px.
    await page.setViewportSize({ width: 375, height: 812 });
    await loginViaForm(page, admin);
    await page.getByRole('tab', { name: 'Biciclette' }).click();
    await page.getByRole('button', { name: `Lucchetto della bici ${bike}` }).click();
    const dialog = page.getByRole('dialog', { name: `Lucchetto della bici ${bike}` });
    await dialog.getByLabel('Tipo di lucchetto').selectOption({ label: 'A combinazione' });
    await dialog.getByLabel('Codice attuale (4 cifre)').fill('482');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await expect(dialog.getByText('Il codice deve essere di 4 cifre')).toBeVisible();
    await expect(dialog.getByLabel('Codice attuale (4 cifre)')).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByLabel('Codice attuale (4 cifre)').fill('4821');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await expect(notice(page, 'Lucchetto aggiornato')).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: bikeCell(bike) }) });
    await expect(row).toContainText('A combinazione');
    await expect(row).toContainText('4821');

    // The rider, on a phone: the code on the card, once the pick-up window is open.
    const rider = await browser.newContext({ viewport: { width: 375, height: 812 } });
    try {
      const riderPage = await rider.newPage();
      const email = await registerResident(riderPage.request, 'Rita');
      await seedBooking(email, bike, 5);
      await riderPage.goto('/dashboard');
      const item = riderPage
        .getByRole('region', { name: 'Le tue prenotazioni attive' })
        .getByRole('listitem')
        .filter({ has: riderPage.getByRole('heading', { level: 3, name: `Bici ${bike} · Lock Test` }) });
      await expect(item.getByText('Codice del lucchetto: 4821')).toBeVisible();
      await expectNoSeriousA11yViolations(riderPage);
      // Never in the list of bookings itself.
      const list = await (await riderPage.request.get('/api/prenotazioni/user')).text();
      expect(list).not.toContain('4821');

      await item.getByRole('button', { name: 'Ritirata' }).click();
      await expect(notice(riderPage, 'Buon viaggio!')).toBeVisible();
      await expect(item.getByText('Codice del lucchetto: 4821')).toBeVisible();

      await item.getByRole('button', { name: 'Riconsegnata' }).click();
      const back = riderPage.getByRole('dialog', { name: 'Riconsegna della bicicletta' });
      await back.getByRole('button', { name: 'Conferma riconsegna' }).click();
      const done = riderPage.getByRole('dialog', { name: 'Bicicletta riconsegnata' });
      const message = done.getByText(/^Chiudi il lucchetto con il nuovo codice \d{4}$/);
      await expect(message).toBeVisible();
      const newCode = /(\d{4})$/.exec((await message.textContent()) ?? '')![1]!;
      expect(newCode).not.toBe('4821');
      await expectNoSeriousA11yViolations(riderPage);
      await done.getByRole('button', { name: 'Fatto' }).click();
      await expect(done).toBeHidden();

      // The lock now has the new code: the admins see it.
      await page.reload();
      await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: bikeCell(bike) }) })).toContainText(newCode);
    } finally {
      await rider.close();
    }
  });

  test('before the pick-up window the card says from when the code will be visible', async ({ page }) => {
    const bike = `W${unique()}`.slice(0, 12);
    await addBike(bike);
    await withE2eDatabase((db) =>
      db.query(`insert into lucchetti (bici_id, tipo, codice) select id, 'combinazione', '5173' from biciclette where numero = $1`, [bike]),
    );
    await page.setViewportSize({ width: 375, height: 812 });
    const email = await registerResident(page.request, 'Walter');
    await seedBooking(email, bike, 60);
    await page.goto('/dashboard');
    const item = page
      .getByRole('region', { name: 'Le tue prenotazioni attive' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 3, name: `Bici ${bike} · Lock Test` }) });
    await expect(item.getByText(/^Il codice del lucchetto sarà visibile dalle \d\d:\d\d$/)).toBeVisible();
    await expect(item).not.toContainText('5173');
    // Nor does the server tell it before the window.
    const bookings = (await (await page.request.get('/api/prenotazioni/user')).json()) as { id: number; biciNumero: string }[];
    const id = bookings.find((b) => b.biciNumero === bike)!.id;
    const early = await page.request.get(`/api/prenotazioni/${id}/codice`);
    expect(early.status()).toBe(409);
    expect(((await early.json()) as { message: string }).message).toMatch(/^Il codice sarà visibile dalle \d\d:\d\d$/);
  });
});
