import type { Page } from '@playwright/test';
import { zonedInstant } from '../../src/shared/time.js';
import { createAccount, ensureSede, openDay, seedActiveBooking, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/*
 * A bike moved to another sede from its edit dialog (issue 47), at a phone's width: the admin
 * picks `Residenza Nord`, is told what becomes of the bike's bookings, and the toast says how
 * many moved within the old sede and how many were cancelled. In Italian and in English.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const tag = () => Math.random().toString(36).slice(2, 7).toUpperCase();
const PASSWORD = 'password-sedi-1';

/** The first sede by id (`Residenza Centrale` in the demo, `Sede principale` elsewhere). */
async function firstSede(page: Page): Promise<number> {
  const sedi = (await (await page.request.get('/api/sedi')).json()) as { id: number; archiviata: boolean }[];
  return sedi.filter((s) => !s.archiviata).sort((a, b) => a.id - b.id)[0]!.id;
}

/** A new bike at the first sede, made through the API as the add dialog does. */
async function newBike(page: Page, sedeId: number): Promise<{ id: number; numero: string }> {
  const numero = `M${tag()}`;
  const res = await page.request.post('/api/admin/biciclette', { data: { numero, modello: 'City Bike', sedeId } });
  expect(res.status(), await res.text()).toBe(201);
  return { id: ((await res.json()) as { id: number }).id, numero };
}

const bikeSede = async (id: number) =>
  withE2eDatabase(async (db) => (await db.query<{ sede_id: number }>('select sede_id from biciclette where id = $1', [id])).rows[0]!.sede_id);

/** Opens the bike's edit dialog in the bikes tab, on a phone. */
async function editDialog(page: Page, numero: string, edit: RegExp) {
  await page.goto('/admin?tab=biciclette');
  const row = page.getByRole('region', { name: /^(Biciclette|Bikes)$/ }).getByRole('row').filter({ hasText: numero }).first();
  await row.getByRole('button', { name: edit }).click();
  return page.getByRole('dialog');
}

test.describe('a bike moved to another sede', () => {
  test.describe.configure({ timeout: 60_000 });

  test('in Italian: the dialog names the sede, says what becomes of the bookings, and the toast counts them', async ({ page }) => {
    const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 2 });
    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    const first = await firstSede(page);
    const bike = await newBike(page, first);
    // A booking of the bike on an open day: it stays at the first sede, moved to a free bike there or cancelled.
    const day = await openDay();
    const rider = `sedi-moves-${tag().toLowerCase()}@bicielis.test`;
    await createAccount({ nome: 'Sara', cognome: 'Spostata', email: rider, password: PASSWORD, residente: true });
    const startAt = zonedInstant(day, '10:00', 'Europe/Rome')!;
    const endAt = zonedInstant(day, '11:00', 'Europe/Rome')!;
    const booking = await seedActiveBooking(rider, bike.numero, { startAt, endAt, date: day, start: '10:00', end: '11:00' }, 'Centro');

    const dialog = await editDialog(page, bike.numero, new RegExp(`^Modifica la bici ${bike.numero}$`));
    await expect(dialog.getByRole('button', { name: 'Salva' })).toBeDisabled();
    await dialog.getByLabel('Sede').selectOption({ label: 'Residenza Nord' });
    await expect(dialog).toContainText('Le sue prenotazioni non ancora ritirate restano a');
    await expectNoSeriousA11yViolations(page);
    await expectNoSidewaysScroll(page, 'the edit dialog');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    const toast = notice(page, `Bici ${bike.numero} spostata a Residenza Nord`);
    await expect(toast).toContainText(/(1 prenotazione spostata, nessuna annullata|Nessuna prenotazione spostata, 1 annullata)\./);
    expect(await bikeSede(bike.id)).toBe(nord.id);
    const left = await withE2eDatabase(
      async (db) => (await db.query<{ sede_id: number; bici_id: number }>('select sede_id, bici_id from prenotazioni where id = $1', [booking])).rows[0]!,
    );
    expect(left.sede_id).toBe(first);
    expect(left.bici_id === bike.id).toBe(false);
  });

  test('in English: the same dialog and toast', async ({ page }) => {
    await ensureSede('Residenza Nord', { prefix: 'N', count: 2 });
    const email = `sedi-moves-admin-${tag().toLowerCase()}@bicielis.test`;
    const id = await createAccount({ nome: 'Sedi', cognome: 'Admin', email, password: PASSWORD, ruolo: 'admin', residente: false });
    await withE2eDatabase((db) => db.query(`update users set lingua = 'en' where id = $1`, [id]));
    const res = await page.request.post('/api/login', { data: { email, password: PASSWORD } });
    expect(res.status(), await res.text()).toBe(200);
    const bike = await newBike(page, await firstSede(page));

    const dialog = await editDialog(page, bike.numero, new RegExp(`^Edit bike ${bike.numero}$`));
    await dialog.getByLabel('Location').selectOption({ label: 'Residenza Nord' });
    await expect(dialog).toContainText('Its bookings not yet picked up stay at');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(notice(page, `Bike ${bike.numero} moved to Residenza Nord`)).toContainText('No bookings moved, none cancelled.');
  });

  test("the desk books at the sede it chooses: only that sede's bikes", async ({ page }) => {
    const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 2 });
    const nordIds = await withE2eDatabase(async (db) => (await db.query<{ id: number }>('select id from biciclette where sede_id = $1', [nord.id])).rows.map((r) => String(r.id)));
    const date = await openDay();
    const email = `sedi-desk-${tag().toLowerCase()}@bicielis.test`;
    await createAccount({ nome: 'Dario', cognome: `Banco${tag()}`, email, password: PASSWORD, residente: true });
    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuova prenotazione per un utente' });
    await dialog.getByRole('searchbox', { name: 'Cerca utente' }).fill(email);
    await dialog.getByRole('radio', { name: /Dario Banco/ }).check();
    await dialog.getByLabel('Sede').selectOption({ label: 'Residenza Nord' });
    await dialog.getByLabel('Data', { exact: true }).fill(date);
    await dialog.getByLabel('Ora di inizio').fill('15:00');
    await dialog.getByLabel('Ora di fine').fill('16:00');
    const bikes = dialog.getByRole('radio', { name: /^Bici / });
    await expect(bikes.first()).toBeVisible();
    const offered = await bikes.evaluateAll((els) => els.map((e) => e.getAttribute('value') ?? ''));
    expect(offered.every((v) => nordIds.includes(v))).toBe(true);
    await bikes.first().check();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: "Prenota per l'utente" }).click();
    await expect(notice(page, 'Prenotazione creata')).toBeVisible();
    const made = await withE2eDatabase(
      async (db) =>
        (await db.query<{ id: number; sede_id: number }>(`select p.id, p.sede_id from prenotazioni p join users u on u.id = p.user_id where u.email = $1 and p.stato = 'attiva'`, [email])).rows,
    );
    expect(made.map((r) => r.sede_id)).toEqual([nord.id]);
    await page.request.delete(`/api/admin/prenotazioni/${made[0]!.id}`);
  });
});
