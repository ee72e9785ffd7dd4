import { totpCode, TOTP_PERIOD_SECONDS } from '../../src/server/modules/two-factor/totp.js';
import { createAccount } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, test } from './fixtures';

/**
 * Issue 23 on a phone's width: an admin of its own (never the demo admin, whom other specs
 * log in as) turns on the second factor from the profile and logs in with a code computed
 * here from the key the page shows as text; the privacy notice, logged out.
 */
test.use({ viewport: { width: 375, height: 812 } });

test('an admin enrols a second factor from the profile and then logs in with a code', async ({ page, context }) => {
  const account = { email: `admin-2fa-${Date.now()}@example.it`, password: 'Admin-Due-Fattori-23' };
  await createAccount({ nome: 'Ada', cognome: 'Verifica', email: account.email, password: account.password, ruolo: 'admin' });

  await loginViaForm(page, account);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/profilo');
  const section = page.getByRole('region', { name: 'Verifica in due passaggi' });
  await section.getByRole('button', { name: 'Attiva la verifica in due passaggi' }).click();
  await expect(section.getByRole('img', { name: "Codice QR per l'app di autenticazione" })).toBeVisible();
  const key = (await section.getByTestId('chiave-totp').textContent())!.trim();
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the enrolment');

  // A wrong code first: refused in words, nothing turned on.
  await section.getByLabel('Codice di verifica').fill('000000');
  await section.getByRole('button', { name: 'Conferma' }).click();
  await expect(section.getByText('Codice di verifica non valido')).toBeVisible();
  await section.getByLabel('Codice di verifica').fill(totpCode(key, new Date()));
  await section.getByRole('button', { name: 'Conferma' }).click();
  const codes = section.getByRole('list', { name: 'Codici di recupero' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(codes.first()).toHaveText(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  await expectNoSeriousA11yViolations(page);
  await section.getByRole('button', { name: 'Ho salvato i codici' }).click();
  await expect(section.getByText('Codici di recupero ancora validi: 10')).toBeVisible();

  // Logged out, the password alone opens only the code step.
  await context.clearCookies();
  await loginViaForm(page, account);
  await expect(page).toHaveURL(/\/verifica-accesso$/);
  await expect(page.getByRole('heading', { name: 'Codice di verifica' })).toBeVisible();
  expect((await context.cookies()).map((c) => c.name)).not.toContain('bicielis_session');
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the code step');
  // The enrolment used this time step's code: the next step's code (accepted too) is fresh.
  await page.getByLabel('Codice di verifica').fill(totpCode(key, new Date(Date.now() + TOTP_PERIOD_SECONDS * 1000)));
  await page.getByRole('button', { name: 'Verifica' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  expect((await context.cookies()).map((c) => c.name)).toContain('bicielis_session');
});

test('the privacy notice: public, linked from every page, with the controller and the technical cookies', async ({ page }) => {
  await page.goto('/login');
  const link = page.getByRole('link', { name: 'Informativa sulla privacy' });
  await expect(link).toBeVisible();
  await page.goto('/registrazione');
  await expect(page.getByRole('link', { name: 'Informativa sulla privacy' })).toBeVisible();
  await page.getByRole('link', { name: 'Informativa sulla privacy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Informativa sulla privacy' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText('Il titolare del trattamento è Collegio ELIS');
  await expect(main).toContainText('cookie tecnici');
  await expect(main).toContainText('Stripe');
  await expect(main).toContainText('24 mesi, salvo diversa regola del collegio');
  await expect(main).toContainText('Scarica i miei dati');
  await expect(main).toContainText('Elimina il mio account');
  await expect(main).not.toContainText('__BICIELIS_PRIVACY');
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, '/privacy');

  // The notice is in the HTML itself, before any script: pre-rendered and filled in by the server.
  const html = await (await page.request.get('/privacy')).text();
  expect(html).toContain('data-prerendered="privacy"');
  expect(html).toContain('Collegio ELIS');
  expect(html).not.toContain('__BICIELIS_PRIVACY');
});
