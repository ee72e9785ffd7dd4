import type { Page } from '@playwright/test';
import { createAccount, ensureSede, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectStarted, expectNoSidewaysScroll, notice, test } from './fixtures';

/**
 * Issue 47, /admin → Sedi on a 375 px phone, with two sedi: an admin adds a sede, renames it,
 * is refused the archive of a sede that still has bikes (in their language), archives the empty
 * one; a list filtered by sede; axe on the screen in Italian and in English.
 */

const PASSWORD = 'Password-Sedi-Admin-1';
const tag = () => Math.random().toString(36).slice(2, 8);

/** An admin of this spec's own, in `lingua`, logged in on `page`. */
async function loginAdmin(page: Page, lingua: 'it' | 'en'): Promise<void> {
  const email = `sedi-admin-${lingua}-${tag()}@bicielis.test`;
  const id = await createAccount({ nome: 'Sedi', cognome: 'Admin', email, password: PASSWORD, ruolo: 'admin' });
  await withE2eDatabase((db) => db.query('update users set lingua = $2 where id = $1', [id, lingua]));
  const res = await page.request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
});

test('Sedi: add, rename, an archive refused while bikes remain, an empty sede archived; no axe violation', async ({ page }) => {
  const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 2 });
  const t = tag();
  await loginAdmin(page, 'it');

  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Altre sezioni' }).getByRole('link', { name: 'Sedi' }).click();
  await expect(page).toHaveURL('/admin/sedi');
  await expect(page.getByRole('heading', { level: 1, name: 'Sedi' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Elenco delle sedi' });
  await expect(list.getByRole('heading', { name: 'Residenza Nord' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, '/admin/sedi');

  // A new sede.
  await page.getByRole('button', { name: 'Aggiungi una sede' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Nome').fill(`Residenza Prova ${t}`);
  await dialog.getByLabel('Indirizzo').fill('Via dei Prati 3');
  await dialog.getByLabel('Dove si trova la rastrelliera (facoltativo)').fill('Cortile interno, accanto alla portineria');
  await dialog.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(notice(page, 'Sede aggiunta')).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Residenza Prova ${t}` }) });
  await expect(card).toContainText('Via dei Prati 3');
  await expect(card).toContainText('Cortile interno, accanto alla portineria');
  await expect(card).toContainText('0 biciclette');

  // Renamed.
  await page.getByRole('button', { name: `Modifica la sede Residenza Prova ${t}` }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Nome').fill(`Residenza Prova ${t} Est`);
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(notice(page, 'Sede salvata')).toBeVisible();
  await expect(list.getByRole('heading', { name: `Residenza Prova ${t} Est` })).toBeVisible();

  // The north sede still has its bikes: the archive is refused, in Italian, and it stays open.
  await page.getByRole('button', { name: 'Archivia la sede Residenza Nord' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archivia' }).click();
  await expect(notice(page, 'La sede ha ancora biciclette o prenotazioni future: spostale prima di archiviarla')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Archivia la sede Residenza Nord' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The empty one is archived (the install keeps the sedi it had open).
  await page.getByRole('button', { name: `Archivia la sede Residenza Prova ${t} Est` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archivia' }).click();
  await expect(notice(page, 'Sede archiviata')).toBeVisible();
  const archived = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Residenza Prova ${t} Est` }) });
  await expect(archived).toContainText('Archiviata');
  await expect(page.getByRole('button', { name: `Riattiva la sede Residenza Prova ${t} Est` })).toBeVisible();
  expect(nord.id).toBeGreaterThan(0);
});

test('a list filtered by sede: the bikes of Residenza Nord only', async ({ page }) => {
  const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 2 });
  const { rows } = await withE2eDatabase((db) =>
    db.query<{ numero: string; sede_id: number }>('select numero, sede_id from biciclette order by numero'),
  );
  const nordBikes = rows.filter((r) => r.sede_id === nord.id).map((r) => r.numero);
  await loginAdmin(page, 'it');
  await page.goto('/admin?tab=biciclette');
  await expectStarted(page);
  const bikes = page.getByRole('region', { name: 'Biciclette' });
  // Every sede's bikes first, each named with its sede.
  await expect(bikes.locator('tbody tr')).toHaveCount(rows.length);
  // The list's filter, above it (the rack's board, further down, has a `Sede` of its own).
  await page.getByRole('tabpanel').getByRole('combobox', { name: 'Sede' }).first().selectOption({ label: 'Residenza Nord' });
  await expect(bikes.locator('tbody tr')).toHaveCount(nordBikes.length);
  // The first cell: the bike's number, then its sede's badge.
  await expect(bikes.locator('tbody tr td:first-child')).toHaveText(nordBikes.map((n) => `${n}Residenza Nord`));
  await expectNoSidewaysScroll(page, '/admin?tab=biciclette with a sede chosen');
});

test('Sedi in English: the screen, a refusal in English; no axe violation', async ({ page }) => {
  await ensureSede('Residenza Nord', { prefix: 'N', count: 2 });
  await loginAdmin(page, 'en');
  await page.goto('/admin/sedi');
  await expect(page.getByRole('heading', { level: 1, name: 'Locations' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'List of locations' }).getByRole('heading', { name: 'Residenza Nord' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Archive the location Residenza Nord' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archive' }).click();
  await expect(notice(page, 'The location still has bikes or future bookings: move them before archiving it')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
