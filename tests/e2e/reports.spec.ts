import fs from 'node:fs/promises';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/**
 * /doc. The e2e server starts on a fresh database: its start-up catch-up (decision 016)
 * makes the reports of the last 7 days whose 23:00 has passed, so an admin has a list.
 */
const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const user = DEMO_ACCOUNTS.find((a) => a.ruolo === 'user')!;

test('an admin sees the reports and downloads a PDF under its file name', async ({ page }) => {
  // The start-up catch-up renders a week of PDFs while this runs: on a busy machine that
  // alone can take most of a minute.
  test.slow();
  await loginViaForm(page, admin);
  await page.waitForURL('**/admin');
  // The admin dashboard links to the reports.
  await page.getByRole('link', { name: 'Report giornalieri' }).click();
  await expect(page).toHaveURL(/\/doc$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Report di sistema' })).toBeVisible();
  await expect(page.getByText(/alle 23:00 \(ora italiana\)/)).toBeVisible();
  const list = page.getByRole('list', { name: 'Report disponibili' });
  // The catch-up runs right after start-up and makes the reports one after the other: wait
  // for the state the test needs (at least 6 of the last 7 days), reloading until it is there,
  // rather than reading a count once while the catch-up may still be running.
  const items = list.getByRole('listitem');
  await expect(async () => {
    await page.reload();
    await expect(items.first()).toBeVisible({ timeout: 5_000 });
    expect(await items.count()).toBeGreaterThanOrEqual(6);
  }).toPass({ timeout: 75_000, intervals: [500, 1_000, 2_000] });
  const first = items.first();
  await expect(first.getByRole('heading', { level: 2 })).toHaveText(/^Report_BiciElis_\d{4}-\d{2}-\d{2}\.pdf$/);
  await expect(first.getByText('Email non inviata')).toBeVisible();
  await expect(first.getByText(/^\d{2} (gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre) \d{4}$/)).toBeVisible();
  await expect(first.getByText(/^\d+(,\d+)? KB$/)).toBeVisible();
  const fileName = (await first.getByRole('heading', { level: 2 }).textContent())!;
  await expectNoSeriousA11yViolations(page);

  const downloadPromise = page.waitForEvent('download');
  await first.getByRole('button', { name: /Scarica PDF/ }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(fileName);
  const file = await download.path();
  const bytes = await fs.readFile(file);
  expect(bytes.length).toBeGreaterThan(1000);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  await expect(notice(page, 'Download completato')).toBeVisible();
  // And back to the admin dashboard.
  await page.getByRole('link', { name: 'Amministrazione' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
});

test('a user sees that reports are reserved to administrators (375 px)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await loginViaForm(page, user);
  await page.waitForURL('**/dashboard');
  await page.goto('/doc');
  await expect(page.getByRole('heading', { level: 1, name: 'Report di sistema' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Accesso riservato agli amministratori');
  await expect(page.getByText('Scarica PDF')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
});

test('anonymous visitors of /doc get the login screen', async ({ page }) => {
  await page.goto('/doc');
  await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
});
