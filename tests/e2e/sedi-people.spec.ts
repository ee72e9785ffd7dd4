import { ensureSede, seedActiveBooking, windowFromNow } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, test } from './fixtures';

/**
 * Issue 47, people, at a phone's width with two sedi: a person registers with a home sede (the
 * picker shows only because there are several), the dashboard's card of a booking names its
 * sede — on the page the server renders and once the app runs —, and the form's picker passes
 * axe in Italian and in English.
 */

test.describe('a home sede at registration', () => {
  test('registers at Residenza Nord; the card of a booking there names the sede', async ({ page }) => {
    const nord = await ensureSede('Residenza Nord', { prefix: 'N', count: 3 });
    const email = `sedi-people-${Date.now()}@test.it`;
    const password = 'sedi-people-2026';

    await page.goto('/registrazione');
    const sede = page.getByLabel('Sede', { exact: true });
    await expect(sede).toBeVisible();
    await expect(page.getByText('La residenza dove prendi di solito la bici')).toBeVisible();
    await expect(sede.locator('option', { hasText: 'Residenza Nord' })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await expectNoSidewaysScroll(page);

    await page.getByLabel('Nome', { exact: true }).fill('Nadia');
    await page.getByLabel('Cognome', { exact: true }).fill('Nord');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await sede.selectOption({ label: 'Residenza Nord' });
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Conferma password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Registrati' }).click();
    await expect(page).toHaveURL('/dashboard');
    const me = await (await page.request.get('/api/current-user')).json();
    expect(me).toMatchObject({ email, sedeId: nord.id });

    // A booking on a bike of Nord: its card says where, as the server renders it and after.
    await seedActiveBooking(email, nord.numeri[0]!, windowFromNow(90), 'Biblioteca');
    const served = await (await page.request.get('/dashboard')).text();
    expect(served.replaceAll('<!-- -->', '')).toContain(`· Residenza Nord`);
    await page.reload();
    const card = page.getByRole('heading', { level: 3, name: new RegExp(`^Bici ${nord.numeri[0]} · .* · Residenza Nord$`) });
    await expect(card).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('the picker in English passes axe', async ({ browser }) => {
    await ensureSede('Residenza Nord', { prefix: 'N', count: 3 });
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-GB', timezoneId: 'Europe/Rome' });
    const page = await context.newPage();
    try {
      await page.goto('/registrazione');
      const sede = page.getByLabel('Location', { exact: true });
      await expect(sede).toBeVisible();
      await expect(page.getByText('The residence where you usually pick up a bike')).toBeVisible();
      await expect(sede.locator('option', { hasText: 'Residenza Nord' })).toHaveCount(1);
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page);
    } finally {
      await context.close();
    }
  });
});
