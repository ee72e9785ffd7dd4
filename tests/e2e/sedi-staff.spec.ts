import type { Browser, Page } from '@playwright/test';
import { createAccount, ensureSede, openDay, seedActiveBooking, windowFromNow, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, expectStarted, loginViaForm, notice, test } from './fixtures';

/**
 * Issue 48, staff in /admin on a 375 px phone, with two sedi: an admin gives a person `Portineria`
 * at Residenza Nord in the user's dialog; that person's /admin has only the desk's tabs, and only
 * Nord's bookings and bikes (never one of the first sede); the desk books for a person at Nord and
 * hands a bike over and takes it back. axe on every new screen, in Italian and in English.
 */

const PASSWORD = 'Password-Sedi-Staff-1';
const tag = () => Math.random().toString(36).slice(2, 8);

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
});

/** An account of this spec's own, in `lingua`; its id. */
async function account(who: { nome: string; cognome: string; email: string; ruolo?: 'admin' | 'user'; residente?: boolean }, lingua: 'it' | 'en' = 'it') {
  const id = await createAccount({ ...who, password: PASSWORD });
  await withE2eDatabase((db) => db.query('update users set lingua = $2 where id = $1', [id, lingua]));
  return id;
}

/** The install's first sede (the demo's `Residenza Centrale`) and its bikes' numbers. */
async function firstSede(): Promise<{ id: number; numeri: string[] }> {
  return withE2eDatabase(async (db) => {
    const id = (await db.query<{ id: number }>('select id from sedi order by id limit 1')).rows[0]!.id;
    const numeri = (await db.query<{ numero: string }>('select numero from biciclette where sede_id = $1 order by numero', [id])).rows.map((r) => r.numero);
    return { id, numeri };
  });
}

/** A porter of `sedeId`, given the role straight in the database (the dialog is the first test's). */
async function porter(sedeId: number, lingua: 'it' | 'en') {
  const email = `sedi-staff-${lingua}-${tag()}@bicielis.test`;
  const cognome = `Portiera${tag()}`;
  const id = await account({ nome: 'Paola', cognome, email }, lingua);
  await withE2eDatabase((db) => db.query(`insert into incarichi (user_id, sede_id, ruolo) values ($1, $2, 'portineria')`, [id, sedeId]));
  return { id, email, password: PASSWORD, name: `Paola ${cognome}` };
}

async function inEnglish(browser: Browser, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-GB', timezoneId: 'Europe/Rome' });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

test('an admin gives Portineria at Residenza Nord; the porter sees only their tabs and Nord', async ({ page }) => {
  // Two people's screens, five axe scans.
  test.slow();
  const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 3 });
  const first = await firstSede();
  const t = tag();
  const adminEmail = `sedi-staff-admin-${t}@bicielis.test`;
  await account({ nome: 'Sedi', cognome: 'Staff', email: adminEmail, ruolo: 'admin' });
  const staffEmail = `sedi-staff-porter-${t}@bicielis.test`;
  await account({ nome: 'Piero', cognome: `Portiere${t}`, email: staffEmail });
  // A booking at each sede, of people of this spec (one active booking each).
  const riders = [`sedi-staff-rider-n-${t}@bicielis.test`, `sedi-staff-rider-c-${t}@bicielis.test`];
  for (const email of riders) await account({ nome: 'Rita', cognome: `Rider${t}`, email, residente: true });
  const atNord = await seedActiveBooking(riders[0]!, nord.numeri.at(-1)!, windowFromNow(24 * 60 + 120), 'Nord');
  const atFirst = await seedActiveBooking(riders[1]!, first.numeri.at(-1)!, windowFromNow(24 * 60 + 240), 'Centro');

  // The admin's dialog: `Incarichi`, a row added, Residenza Nord and Portineria chosen.
  await loginViaForm(page, { email: adminEmail, password: PASSWORD });
  await expect(page).toHaveURL('/admin');
  await page.goto('/admin?tab=utenti');
  await expectStarted(page);
  await page.getByRole('searchbox', { name: 'Cerca utenti' }).fill(staffEmail);
  await page.getByRole('button', { name: `Modifica Piero Portiere${t}` }).click();
  const dialog = page.getByRole('dialog');
  const incarichi = dialog.getByRole('group', { name: 'Incarichi' });
  await expect(incarichi).toContainText('Nessun incarico.');
  await incarichi.getByRole('button', { name: 'Aggiungi un incarico' }).click();
  await incarichi.getByLabel("Sede dell'incarico 1", { exact: true }).selectOption({ label: 'Residenza Nord' });
  await incarichi.getByLabel("Ruolo dell'incarico 1", { exact: true }).selectOption({ label: 'Portineria' });
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the user dialog');
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(notice(page, 'Utente modificato')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Utenti' }).getByText('Portineria · Residenza Nord')).toBeVisible();
  const saved = await withE2eDatabase(async (db) => (await db.query('select i.sede_id, i.ruolo from incarichi i join users u on u.id = i.user_id where u.email = $1', [staffEmail])).rows);
  expect(saved).toEqual([{ sede_id: nord.id, ruolo: 'portineria' }]);

  // The porter: the dashboard's link says `Portineria`; /admin has the desk's tabs only.
  await page.context().clearCookies();
  await loginViaForm(page, { email: staffEmail, password: PASSWORD });
  await expect(page).toHaveURL('/dashboard');
  await page.getByRole('link', { name: 'Portineria' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Portineria' })).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Sezioni' });
  await expect(tabs.getByRole('tab')).toHaveText(['Prenotazioni', 'Biciclette', 'Chiusure']);
  const other = page.getByRole('navigation', { name: 'Altre sezioni' });
  await expect(other.getByRole('link', { name: 'Sedi' })).toHaveCount(0);
  await expect(other.getByRole('link', { name: 'Statistiche' })).toBeVisible();

  // Nord's booking, never the first sede's.
  const bookings = page.getByRole('region', { name: 'Prenotazioni' });
  await expect(bookings.getByRole('button', { name: `Dettagli della prenotazione ${atNord}` })).toBeVisible();
  await expect(bookings.getByRole('button', { name: `Dettagli della prenotazione ${atFirst}` })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, "the porter's /admin");

  // Nord's bikes, never one of the first sede.
  await tabs.getByRole('tab', { name: 'Biciclette' }).click();
  const bikes = page.getByRole('region', { name: 'Biciclette' });
  await expect(bikes.getByRole('button', { name: new RegExp(`^Modifica la bici ${nord.numeri[0]}$`) })).toBeVisible();
  // Every bike shown stands at Nord. Asked of the database after the list was drawn: a spec beside
  // this one moves bikes of the first sede to Nord (sedi-moves), so a list of the first sede's
  // bikes read before would name one that is Nord's by now.
  const shown = (await bikes.getByRole('button', { name: /^Modifica la bici / }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map(
    (label) => label.replace(/^Modifica la bici /, ''),
  );
  expect(shown).toContain(nord.numeri[0]);
  const elsewhere = await withE2eDatabase(
    async (db) => (await db.query<{ numero: string }>('select numero from biciclette where numero = any($1) and sede_id <> $2', [shown, nord.id])).rows,
  );
  expect(elsewhere, 'bikes of another sede in the porter’s list').toEqual([]);
  expect(first.numeri.length).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);

  // The closures' part, of Nord only.
  await tabs.getByRole('tab', { name: 'Chiusure' }).click();
  await expect(page.getByRole('tabpanel')).not.toContainText('Tutte le sedi');
  await expectNoSeriousA11yViolations(page);

  await withE2eDatabase((db) => db.query(`update prenotazioni set stato = 'cancellata' where id = any($1)`, [[atNord, atFirst]]));
});

test("the desk books for a person at Nord", async ({ page }) => {
  const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 3 });
  const nordIds = await withE2eDatabase(async (db) => (await db.query<{ id: number }>('select id from biciclette where sede_id = $1', [nord.id])).rows.map((r) => String(r.id)));
  const desk = await porter(nord.id, 'it');
  const t = tag();
  const email = `sedi-staff-walkin-${t}@bicielis.test`;
  await account({ nome: 'Walter', cognome: `Banco${t}`, email, residente: true });
  const date = await openDay();

  await loginViaForm(page, { email: desk.email, password: desk.password });
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuova prenotazione per un utente' });
  await dialog.getByRole('searchbox', { name: 'Cerca utente' }).fill(email);
  await dialog.getByRole('radio', { name: /Walter Banco/ }).check();
  await dialog.getByLabel('Data', { exact: true }).fill(date);
  await dialog.getByLabel('Ora di inizio').fill('15:00');
  await dialog.getByLabel('Ora di fine').fill('16:00');
  const offered = dialog.getByRole('radio', { name: /^Bici / });
  await expect(offered.first()).toBeVisible();
  expect((await offered.evaluateAll((els) => els.map((e) => e.getAttribute('value') ?? ''))).every((v) => nordIds.includes(v))).toBe(true);
  await offered.first().check();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: "Prenota per l'utente" }).click();
  await expect(notice(page, 'Prenotazione creata')).toBeVisible();
  const made = await withE2eDatabase(
    async (db) =>
      (await db.query<{ id: number; sede_id: number }>(`select p.id, p.sede_id from prenotazioni p join users u on u.id = p.user_id where u.email = $1 and p.stato = 'attiva'`, [email])).rows,
  );
  expect(made.map((r) => r.sede_id)).toEqual([nord.id]);
  await withE2eDatabase((db) => db.query(`update prenotazioni set stato = 'cancellata' where id = $1`, [made[0]!.id]));
});

test('the desk hands a bike over and takes it back, on the person\'s behalf', async ({ page }) => {
  const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 3 });
  const desk = await porter(nord.id, 'it');
  const t = tag();
  const email = `sedi-staff-ride-${t}@bicielis.test`;
  await account({ nome: 'Walter', cognome: `Banco${t}`, email, residente: true });
  const numero = nord.numeri[1]!;
  const ride = await seedActiveBooking(email, numero, windowFromNow(1), 'Banco');

  await loginViaForm(page, { email: desk.email, password: desk.password });
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/admin');
  await expectStarted(page);
  await page.getByRole('searchbox', { name: 'Cerca prenotazioni' }).fill(`Banco${t}`);
  await page.getByRole('button', { name: `Consegna la bici della prenotazione ${ride}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Consegnare la bici ${numero} a Walter Banco${t}?`);
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Consegna la bici' }).click();
  await expect(notice(page, 'Bici consegnata')).toBeVisible();
  await page.getByRole('button', { name: `Ritira la bici della prenotazione ${ride}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Conferma la riconsegna' }).click();
  await expect(notice(page, 'Bici riconsegnata')).toBeVisible();
  const after = await withE2eDatabase(async (db) => (await db.query<{ stato: string }>('select stato from prenotazioni where id = $1', [ride])).rows[0]);
  expect(after?.stato).toBe('completata');
});

test('in English: the Incarichi editor and the porter\'s /admin pass axe', async ({ browser }) => {
  // Two people's screens in their own contexts, three axe scans.
  test.slow();
  const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 3 });
  const t = tag();
  const adminEmail = `sedi-staff-admin-en-${t}@bicielis.test`;
  await account({ nome: 'Sedi', cognome: 'Staff', email: adminEmail, ruolo: 'admin' }, 'en');
  const desk = await porter(nord.id, 'en');

  await inEnglish(browser, async (page) => {
    expect((await page.request.post('/api/login', { data: { email: adminEmail, password: PASSWORD } })).status()).toBe(200);
    await page.goto('/admin?tab=utenti');
    await expectStarted(page);
    await page.getByRole('searchbox', { name: 'Search users' }).fill(desk.email);
    await page.getByRole('button', { name: `Edit ${desk.name}` }).click();
    const incarichi = page.getByRole('dialog').getByRole('group', { name: 'Staff roles' });
    await expect(incarichi.getByLabel('Location of role 1', { exact: true })).toHaveValue(String(nord.id));
    await expect(incarichi.getByLabel('Role 1', { exact: true })).toHaveValue('portineria');
    await expectNoSeriousA11yViolations(page);
  });

  await inEnglish(browser, async (page) => {
    expect((await page.request.post('/api/login', { data: { email: desk.email, password: desk.password } })).status()).toBe(200);
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Front desk' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Front desk' })).toBeVisible();
    await expect(page.getByRole('tablist').getByRole('tab')).toHaveText(['Bookings', 'Bikes', 'Closures']);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('tab', { name: 'Bikes' }).click();
    await expect(page.getByRole('region', { name: 'Bikes' }).getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
