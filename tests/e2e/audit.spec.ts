import { readFile } from 'node:fs/promises';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { createAccount } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, expectStarted, loginViaForm, notice, test } from './fixtures';

/**
 * Issue 23, the audit log on screen, on a 375 px phone: an admin changes a user, opens
 * `Registro attività`, filters by action and day, reads the entry's before and after, and
 * downloads the CSV. Its own project (playwright.config.ts): after the other admin specs,
 * whose changes would fill the same log.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const tag = () => Math.random().toString(36).slice(2, 8);

test('Registro attività: an admin change, filtered by action, its before and after, the CSV; no axe violation', async ({ page }, testInfo) => {
  const t = tag();
  const email = `registro.${t}@example.it`;
  // A user of this test's own, so the change touches nobody else.
  const userId = await createAccount({ nome: 'Giulia', cognome: `Registro${t}`, email, password: 'Password-Registro-1' });

  await page.setViewportSize({ width: 375, height: 812 });
  await loginViaForm(page, admin);
  await expect(page).toHaveURL('/admin');
  // A first change of another kind on the same user, for the filter to leave out.
  expect((await page.request.post(`/api/admin/users/${userId}/revoca-sospensione`)).ok()).toBe(true);
  await page.goto('/admin?tab=utenti');
  await expectStarted(page);

  // The change, through the Utenti tab.
  await page.getByLabel('Cerca utenti').fill(email);
  const users = page.getByRole('region', { name: 'Utenti' });
  // Wait for this user's own row (the first rows shown may be the list before the search).
  await users.getByRole('button', { name: `Modifica Giulia Registro${t}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Nome', { exact: true }).fill('Giuliana');
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(notice(page, 'Utente modificato')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The log: its own tab, in the address.
  const tab = page.getByRole('tab', { name: 'Registro attività' });
  await tab.click();
  await expect(page).toHaveURL('/admin?tab=registro');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const log = page.getByRole('region', { name: 'Registro attività' });
  // Each entry names the person as /admin does (issue 31): by the name they had then.
  const entries = log.getByRole('listitem').filter({ hasText: `Registro${t}` });
  // Newest first: the edit, then the suspension lifted.
  await expect(entries.getByRole('heading')).toHaveText(['Utente modificato', 'Sospensione revocata']);

  await page.getByLabel('Azione', { exact: true }).selectOption({ label: 'Utente modificato' });
  const today = zonedToday(new Date(), 'Europe/Rome');
  await page.getByLabel('Dal giorno').fill(today);
  await expect(log).toHaveAttribute('aria-busy', 'false');
  // Only that action is listed.
  await expect(log.getByRole('heading', { level: 3 }).filter({ hasNotText: 'Utente modificato' })).toHaveCount(0);
  await expect(entries).toHaveCount(1);
  await expect(entries.getByRole('heading', { name: 'Utente modificato' })).toBeVisible();
  await expect(entries).toContainText(admin.email);
  await expect(entries.locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

  // Before and after, as fields, one keyboard press away.
  const toggle = entries.getByRole('button', { name: `Prima e dopo: Utente modificato, Giuliana Registro${t}` });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const changes = entries.getByRole('table', { name: 'Campi modificati: valore prima e dopo' });
  await expect(changes.getByRole('row')).toHaveCount(2);
  const nome = changes.getByRole('row', { name: /^Nome/ });
  await expect(nome.getByRole('cell').nth(0)).toHaveText('Giulia');
  await expect(nome.getByRole('cell').nth(1)).toHaveText('→ Giuliana');

  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: testInfo.outputPath('registro-attivita-375.png'), fullPage: true });

  // The CSV: the same filters, the server's file name, an Italian header, the entry with its before and after.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Scarica CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^registro_attivita_\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(notice(page, 'Download completato')).toBeVisible();
  const csv = await readFile((await file.path())!, 'utf8');
  const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(lines[0]).toBe('"ID";"Data e ora";"Amministratore";"Azione";"Codice azione";"Oggetto";"ID oggetto";"Prima";"Dopo"');
  const rows = lines.slice(1);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.includes(';"Utente modificato";"user.update";"Utente";'))).toBe(true);
  const ours = rows.find((r) => r.includes(`;"${userId}";`) && r.includes('""nome"":""Giuliana""'));
  expect(ours).toContain('""nome"":""Giulia""');
  expect(ours).toContain(`"${admin.email}"`);

  // A day with nothing yet: the empty state; the filters cleared, the entry is back.
  // eslint-disable-next-line test-days/no-day-offset -- a filter's day, not a booking: the log has nothing after today
  await page.getByLabel('Dal giorno').fill(addDays(today, 1));
  await expect(log).toContainText('Nessuna attività trovata con questi filtri');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Azzera filtri' }).click();
  await expect(page.getByLabel('Azione', { exact: true })).toHaveValue('');
  await expect(entries).toHaveCount(2);
});
