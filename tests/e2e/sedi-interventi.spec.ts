import { expect as baseExpect, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, test } from './fixtures';
import { waitForEmail } from './outbox';

/*
 * Repair tickets (`Interventi`, issue 48) at a phone's width: a resident reports a problem with a
 * photo from a bike's page (`Segnala un problema`); a mechanic (`Officina` at the bike's sede)
 * sees it on the workshop's screen, takes it (`Prendo io`), adds a note with a photo and marks it
 * `Riparata`; the resident is told by email. Every new screen passes axe in Italian and English.
 * Each test uses a bike and people of its own.
 */

test.use({ viewport: { width: 375, height: 812 } });

const PASSWORD = 'officina-prova-48';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A small real image (the server re-encodes every photo, so it must be one). */
const photo = async (name: string, background: string) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 48, height: 32, channels: 3, background } }).png().toBuffer(),
});

/** A bike of the test's own at the first sede: its id and sede. */
async function addBike(numero: string): Promise<{ id: number; sedeId: number }> {
  const { rows } = await withE2eDatabase((db) =>
    db.query<{ id: number; sede_id: number }>(
      `insert into biciclette (numero, modello, sede_id) values ($1, 'Officina Test', (select min(id) from sedi)) returning id, sede_id`,
      [numero],
    ),
  );
  return { id: rows[0]!.id, sedeId: rows[0]!.sede_id };
}

/** A person of the test's own, in `lingua`, logged in in a phone-sized context of their own. */
async function person(browser: Browser, nome: string, lingua: 'it' | 'en', incarico?: { sedeId: number; ruolo: 'officina' | 'portineria' }) {
  const email = `interventi-${unique()}@bicielis.test`;
  const id = await createAccount({ nome, cognome: 'Prova', email, password: PASSWORD, residente: true });
  await withE2eDatabase(async (db) => {
    await db.query(`update users set lingua = $2 where id = $1`, [id, lingua]);
    if (incarico) await db.query(`insert into incarichi (user_id, sede_id, ruolo) values ($1, $2, $3)`, [id, incarico.sedeId, incarico.ruolo]);
  });
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    locale: lingua === 'en' ? 'en-GB' : 'it-IT',
    timezoneId: 'Europe/Rome',
  });
  const res = await context.request.post('/api/login', { data: { email, password: PASSWORD } });
  baseExpect(res.status()).toBe(200);
  const page = await context.newPage();
  return { id, email, page, done: () => context.close() };
}

/** `Segnala un problema` on the bike's page, filled in and sent, with one photo. */
async function report(page: Page, bike: string, texts: { open: string; category: string; categoria: string; details: string; send: string; sent: RegExp }, text: string) {
  await page.goto(`/bici/${bike}`);
  await page.getByRole('button', { name: texts.open }).click();
  await page.getByLabel(texts.category).selectOption({ label: texts.categoria });
  await page.getByLabel(texts.details).fill(text);
  await page.getByTestId(/-foto-input$/).setInputFiles(await photo('freno.png', '#c0392b'));
  await expect(page.getByRole('img', { name: /^(Foto|Photo) 1$/ })).toBeVisible();
  // The preview is drawn (the policy lets the page show a photo of the device's own, blob:).
  await expect.poll(() => page.getByRole('img', { name: /^(Foto|Photo) 1$/ }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the report form');
  await page.getByRole('button', { name: texts.send }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.sent })).toBeVisible();
}

test.describe('repair tickets, from the report to Riparata', () => {
  test('a resident reports with a photo; the mechanic takes it, notes it with a photo and repairs it; the resident is told', async ({ browser }) => {
    test.slow();
    const bike = `R${unique()}`.slice(0, 10);
    const { sedeId } = await addBike(bike);
    const resident = await person(browser, 'Rita', 'it');
    const mechanic = await person(browser, 'Marco', 'it', { sedeId, ruolo: 'officina' });
    try {
      const text = `Il freno posteriore non frena ${unique()}`;
      await report(
        resident.page,
        bike,
        { open: 'Segnala un problema', category: 'Che cosa non va', categoria: 'Freni', details: 'Descrizione', send: 'Invia la segnalazione', sent: /è arrivata all'officina/ },
        text,
      );

      // Over the limits the form says so before anything is sent.
      await resident.page.getByRole('button', { name: 'Segnala un problema' }).click();
      await resident.page.getByTestId(/-foto-input$/).setInputFiles([
        await photo('a.png', '#111111'),
        await photo('b.png', '#222222'),
        await photo('c.png', '#333333'),
        await photo('d.png', '#444444'),
      ]);
      await expect(resident.page.getByRole('alert').filter({ hasText: 'Al massimo 3 foto' })).toBeVisible();
      await resident.page.getByRole('button', { name: 'Togli la foto 4' }).click();
      await expect(resident.page.getByRole('alert').filter({ hasText: 'Al massimo 3 foto' })).toHaveCount(0);
      await resident.page.getByRole('button', { name: 'Annulla' }).click();

      // The workshop's home: the ticket, newest first, with its thumbnail.
      const page = mechanic.page;
      await page.goto('/dashboard');
      await page.getByRole('link', { name: 'Interventi' }).click();
      await expect(page).toHaveURL('/officina');
      await expect(page.getByRole('heading', { level: 1, name: 'Officina' })).toBeVisible();
      const card = page.getByRole('link', { name: `Bici n. ${bike}: Freni, Aperto` });
      await expect(card).toBeVisible();
      await expect(card.locator('img')).toHaveJSProperty('complete', true);
      await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, '/officina');

      // One tap opens it, the second takes it.
      await card.click();
      await expect(page).toHaveURL(/\/officina\/\d+$/);
      await expect(page.getByRole('heading', { level: 1, name: `Bici n. ${bike}` })).toBeVisible();
      await expect(page.getByText(text)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Apri la foto 1 a tutto schermo' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, 'the ticket');
      const take = page.getByRole('button', { name: 'Prendo io' });
      const box = await take.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(48);
      await take.click();
      await expect(page.getByText('In lavorazione', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Prendo io' })).toHaveCount(0);

      // A note with a photo and the minutes.
      await page.getByLabel('Che cosa hai fatto').fill('Pastiglie sostituite');
      await page.getByLabel('Minuti di lavoro').fill('25');
      await page.getByTestId(/-foto-input$/).setInputFiles(await photo('pastiglie.png', '#27ae60'));
      await page.getByRole('button', { name: 'Salva la nota' }).click();
      const notes = page.getByRole('region', { name: 'Note' });
      await expect(notes.getByText('Pastiglie sostituite')).toBeVisible();
      await expect(notes.getByRole('link', { name: 'Apri la foto 1 a tutto schermo' })).toBeVisible();
      await expect(page.getByText('25 min', { exact: true })).toBeVisible();
      await expect(page.getByLabel('Che cosa hai fatto')).toHaveValue('');

      // Riparata, asked for twice.
      await page.getByRole('button', { name: 'Riparata' }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toContainText(`La bici n. ${bike} è riparata?`);
      await expectNoSeriousA11yViolations(page);
      await dialog.getByRole('button', { name: 'Riparata' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('region', { name: 'Freni' }).getByText('Riparata', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Prendo io' })).toHaveCount(0);

      // Closed, it leaves the workshop's home; the resident is told.
      await page.getByRole('link', { name: 'Tutti gli interventi' }).click();
      await expect(page.getByRole('link', { name: new RegExp(`^Bici n. ${bike}:`) })).toHaveCount(0);
      const email = await waitForEmail(resident.email, (e) => e.text.includes('Grazie per la segnalazione'));
      expect(email.text).toMatch(new RegExp(`La bici n\\. ${bike}\\b.* è stata riparata\\. Grazie per la segnalazione`));
    } finally {
      await resident.done();
      await mechanic.done();
    }
  });

  test('before the app has come: the workshop’s list and a ticket’s page are the server’s, and a tap on a card opens the ticket (decision 070)', async ({ browser }) => {
    const bike = `P${unique()}`.slice(0, 10);
    const { id: biciId, sedeId } = await addBike(bike);
    const mechanic = await person(browser, 'Paolo', 'it', { sedeId, ruolo: 'officina' });
    try {
      const text = `La sella è storta ${unique()}`;
      await withE2eDatabase((db) =>
        db.query(`insert into interventi (bici_id, sede_id, segnalato_da, origine, categoria, descrizione) values ($1, $2, $3, 'segnalazione', 'telaio', $4)`, [
          biciId,
          sedeId,
          mechanic.id,
          text,
        ]),
      );
      const page = mechanic.page;
      // Hydrating the server's HTML says nothing in the console (a mismatch would).
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      // The app's code is held back, on this page and the next: what shows is the server's HTML.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/officina');
      const root = page.locator('#root');
      await expect(root).toHaveAttribute('data-prerendered', 'server');
      await expect(page.getByRole('heading', { level: 1, name: 'Officina' })).toBeVisible();
      const card = page.getByRole('link', { name: `Bici n. ${bike}: Telaio, Aperto` });
      await expect(card).toBeVisible();
      await expect(root).not.toHaveAttribute('data-started');

      await card.click();
      await expect(page).toHaveURL(/\/officina\/\d+$/);
      await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'server');
      await expect(page.getByRole('heading', { level: 1, name: `Bici n. ${bike}` })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Telaio' }).getByText(text)).toBeVisible();
      await expect(page.locator('#root')).not.toHaveAttribute('data-started');

      // The app comes and takes the page over where it is: its buttons work.
      release();
      await expect(page.locator('#root')).toHaveAttribute('data-started');
      await page.getByRole('button', { name: 'Prendo io' }).click();
      await expect(page.getByText('In lavorazione', { exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      // Back to the list, hydrated this time: the app's own navigation, the list as the server rendered it.
      await page.goto('/officina');
      await expect(page.locator('#root')).toHaveAttribute('data-started');
      await expect(page.getByRole('link', { name: `Bici n. ${bike}: Telaio, In lavorazione` })).toBeVisible();
      expect(errors).toEqual([]);
    } finally {
      await mechanic.done();
    }
  });

  test('in English: the report form, the workshop and a ticket pass axe; a person with no role gets the unknown page', async ({ browser }) => {
    test.slow();
    const bike = `E${unique()}`.slice(0, 10);
    const { sedeId } = await addBike(bike);
    const resident = await person(browser, 'Ruth', 'en');
    const mechanic = await person(browser, 'Mike', 'en', { sedeId, ruolo: 'officina' });
    try {
      await report(
        resident.page,
        bike,
        { open: 'Report a problem', category: 'What is wrong', categoria: 'Lights', details: 'Description', send: 'Send the report', sent: /has reached the workshop/ },
        'The front light is dead',
      );
      await resident.page.goto('/officina');
      await expect(resident.page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
      await expect(resident.page.getByRole('link', { name: 'Repairs' })).toHaveCount(0);

      const page = mechanic.page;
      await page.goto('/officina');
      await expect(page.getByRole('heading', { level: 1, name: 'Workshop' })).toBeVisible();
      const card = page.getByRole('link', { name: `Bike no. ${bike}: Lights, Open` });
      await expect(card).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await card.click();
      await expect(page.getByRole('button', { name: "I'll take it" })).toBeVisible();
      await expect(page.getByRole('switch', { name: /Not usable/ })).not.toBeChecked();
      await expectNoSeriousA11yViolations(page);
      await page.getByRole('button', { name: 'Not repairable' }).click();
      await expect(page.getByRole('alertdialog')).toContainText(`Is bike no. ${bike} beyond repair?`);
      await expectNoSeriousA11yViolations(page);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Back' }).click();
      await expect(page.getByText('Open', { exact: true })).toBeVisible();
    } finally {
      await resident.done();
      await mechanic.done();
    }
  });
});
