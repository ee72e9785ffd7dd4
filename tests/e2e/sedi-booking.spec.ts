import type { Page } from '@playwright/test';
import { createAccount, ensureSede, openDay, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectStarted, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/*
 * A person books where they are (issue 47), at 375 px with two sedi: the booking form opens on
 * the home sede, a `Sede` choice above the date shows the other's bikes, and a bike booked there
 * is the card's. The form with the choice passes axe in Italian and in English.
 */

const PASSWORD = 'sedi-di-prova-1';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

let nord: { id: number; numeri: string[] };

test.beforeAll(async () => {
  nord = await ensureSede('Residenza Nord', { prefix: 'RN', count: 3 });
});

/** A resident of the install's first open sede (its home: the insert's default), in `lingua`. */
async function resident(lingua: 'it' | 'en'): Promise<{ email: string; password: string }> {
  const email = `sedi-booking-${unique()}@bicielis.test`;
  const id = await createAccount({ nome: 'Sede', cognome: 'Prova', email, password: PASSWORD, residente: true });
  await withE2eDatabase((db) => db.query('update users set lingua = $2 where id = $1', [id, lingua]));
  return { email, password: PASSWORD };
}

async function openForm(page: Page, account: { email: string; password: string }, button: string) {
  await loginViaForm(page, account);
  await expect(page).toHaveURL('/dashboard');
  await page.getByRole('button', { name: button }).click();
}

/** The bikes offered, by the numbers their labels show. */
async function offeredNumbers(page: Page, legend: string, word: string): Promise<string[]> {
  const radios = page.getByRole('group', { name: legend }).getByRole('radio');
  await expect(radios.first()).toBeVisible();
  const labels = await radios.evaluateAll((all) => all.map((r) => (r as HTMLInputElement).labels?.[0]?.innerText ?? ''));
  return labels.map((l) => l.split('\n')[0]!.replace(`${word} `, '').trim());
}

test('a resident books a bike at the other sede through the picker, and the card shows it', async ({ page }) => {
  const account = await resident('it');
  const day = await openDay({ windows: [{ orarioInizio: '10:00', orarioFine: '12:00' }] });
  await openForm(page, account, 'Nuova prenotazione');

  // The choice stands above the date, on the home sede.
  const sede = page.getByLabel('Sede', { exact: true });
  const date = page.getByLabel('Data', { exact: true });
  await expect(sede).toBeVisible();
  await expect(sede.locator('option:checked')).toContainText('(la tua)');
  expect((await sede.boundingBox())!.y).toBeLessThan((await date.boundingBox())!.y);

  await date.fill(day);
  await page.getByLabel('Ora di inizio').fill('10:00');
  await page.getByLabel('Ora di fine').fill('12:00');
  const home = await offeredNumbers(page, 'Bicicletta', 'Bici');
  expect(home.some((n) => nord.numeri.includes(n))).toBe(false);

  await sede.selectOption({ label: 'Residenza Nord' });
  await expect(page.getByRole('group', { name: 'Bicicletta' }).getByRole('radio').first()).toBeVisible();
  const there = await offeredNumbers(page, 'Bicicletta', 'Bici');
  expect(there.length).toBeGreaterThan(0);
  for (const n of there) expect(nord.numeri).toContain(n);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the form with the sede picker');

  await page.getByRole('group', { name: 'Bicicletta' }).getByRole('radio').first().check();
  const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/prenotazioni' && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Prenota', exact: true }).click();
  const booking = (await (await created).json()) as { id: number; sedeId: number; biciNumero: string };
  try {
    expect(booking.sedeId).toBe(nord.id);
    await expect(notice(page, 'Prenotazione creata!')).toBeVisible();
    await expect(page.getByText(`Bici ${there[0]} · `).first()).toBeVisible();
    expect(booking.biciNumero).toBe(there[0]);
  } finally {
    expect((await page.request.delete(`/api/prenotazioni/${booking.id}`)).ok()).toBe(true);
  }
});

test('in English the choice is `Location`, and the form with it passes axe', async ({ page }) => {
  const account = await resident('en');
  await openForm(page, account, 'New booking');
  const sede = page.getByLabel('Location', { exact: true });
  await expect(sede).toBeVisible();
  await expect(sede.locator('option:checked')).toContainText('(yours)');
  await sede.selectOption({ label: 'Residenza Nord' });
  await expect(page.getByText('The bikes, the opening hours and the waitlist are those of the chosen location.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the form with the sede picker, in English');
});

test('in Italian, before a window is chosen, the form with the picker passes axe', async ({ page }) => {
  await openForm(page, await resident('it'), 'Nuova prenotazione');
  await expect(page.getByLabel('Sede', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

/** An admin of the e2e server's own, in `lingua` (the demo admin's language stays as it is). */
async function admin(lingua: 'it' | 'en'): Promise<{ email: string; password: string }> {
  const email = `sedi-regole-${unique()}@bicielis.test`;
  const id = await createAccount({ nome: 'Sede', cognome: 'Admin', email, password: PASSWORD, ruolo: 'admin', residente: false });
  await withE2eDatabase((db) => db.query('update users set lingua = $2 where id = $1', [id, lingua]));
  return { email, password: PASSWORD };
}

async function openRules(page: Page, account: { email: string; password: string }) {
  await loginViaForm(page, account);
  await expect(page).toHaveURL('/admin');
  await page.goto('/admin?tab=regole');
  await expectStarted(page);
}

test('/admin → Regole: a sede gets hours of its own and back the service’s; a closure’s sede is chosen; axe', async ({ page }) => {
  await openRules(page, await admin('it'));
  const section = page.getByRole('region', { name: 'Orari di una sede' });
  await expect(section).toBeVisible();
  await section.getByLabel('Sede', { exact: true }).selectOption({ label: 'Residenza Nord' });
  await expect(section.getByText('Questa sede usa gli orari del servizio.')).toBeVisible();
  const hours = async () => ((await (await page.request.get(`/api/admin/sedi/${nord.id}/orari`)).json()) as { orari: unknown }).orari;

  await section.getByLabel('Orari propri').check();
  await expect(section.getByRole('switch')).toHaveCount(8);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'a sede’s own hours');
  try {
    await section.getByRole('button', { name: 'Salva gli orari della sede' }).click();
    await expect(notice(page, 'Orari della sede salvati')).toBeVisible();
    expect(await hours()).toHaveLength(7);
  } finally {
    // The other sedi specs find Nord with the service's hours.
    await section.getByLabel('Orari propri').uncheck();
    await section.getByRole('button', { name: 'Salva gli orari della sede' }).click();
    await expect.poll(hours).toBeNull();
  }

  const closures = page.getByRole('region', { name: 'Chiusure', exact: true });
  const scope = closures.getByLabel('Sede', { exact: true });
  await expect(scope).toHaveValue('');
  await expect(scope.locator('option:checked')).toHaveText('Tutte le sedi');
  await expect(scope.getByRole('option', { name: 'Residenza Nord' })).toHaveCount(1);
});

test('/admin → Regole in English: the sede’s hours and the closure’s sede, with axe', async ({ page }) => {
  await openRules(page, await admin('en'));
  const section = page.getByRole('region', { name: 'Opening hours of a location' });
  await expect(section).toBeVisible();
  await section.getByLabel('Location', { exact: true }).selectOption({ label: 'Residenza Nord' });
  await expect(section.getByText('This location uses the service\'s opening hours.')).toBeVisible();
  await section.getByLabel('Own opening hours').check();
  await expectNoSeriousA11yViolations(page);
  // The new closure's sede: every location, or one (the other tabs' panels hold lists' filters of their own).
  await expect(page.getByRole('tabpanel', { name: 'Rules' }).getByRole('option', { name: 'Every location', exact: true })).toHaveCount(1);
});
