import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, holdRequests, loginViaForm, notice, test } from './fixtures';
import { temporaryPasswordFor } from './outbox';

/**
 * The account screens of issue 3, used as a person would: registration (resident and
 * external), login and logout, password recovery through the emailed temporary password,
 * and the forced change of it. Every account is new, with an email unique to the run.
 */

/** A demo resident (src/server/seed/seed.ts) that no demo account uses. */
const RESIDENT = { sigla: 'ELIS007', nome: 'Andrea', cognome: 'Colombo' } as const;
const EXTERNAL_BADGE = 'Utente esterno (2,50 € a prenotazione)';
const RESIDENT_BADGE = 'Residente (accesso gratuito)';

function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}


/** The registration form's fields, by their visible labels. */
function registrationForm(page: Page) {
  return {
    nome: page.getByLabel('Nome', { exact: true }),
    cognome: page.getByLabel('Cognome', { exact: true }),
    email: page.getByLabel('Email', { exact: true }),
    sigla: page.getByLabel('Sigla residente (facoltativa)'),
    password: page.getByLabel('Password', { exact: true }),
    conferma: page.getByLabel('Conferma password', { exact: true }),
    submit: page.getByRole('button', { name: 'Registrati' }),
  };
}

async function logOutFromDashboard(page: Page) {
  await page.getByRole('button', { name: 'Esci' }).click();
  await expect(notice(page, 'Arrivederci!')).toBeVisible();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
}

async function registerThroughApi(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/register', {
    data: { nome: 'Rita', cognome: 'Recupero', email, password, siglaResidente: null },
  });
  expect(res.status()).toBe(201);
}

/** Counts the calls to one API path, to prove a form did not send anything. */
function countRequests(page: Page, pathname: string): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === pathname) counter.count += 1;
  });
  return counter;
}

test.describe('accounts', () => {
  test('a resident registers with a sigla, logs out and logs in again', async ({ page }) => {
    const email = uniqueEmail('residente');
    const password = 'bici-residente-1';
    // On a phone, where the form is longer than the screen.
    await page.setViewportSize({ width: 375, height: 812 });

    await page.goto('/login');
    await page.getByRole('link', { name: 'Registrati' }).click();
    await expect(page).toHaveURL('/registrazione');
    await expect(page.getByRole('heading', { level: 2, name: 'Crea un account' })).toBeVisible();
    const form = registrationForm(page);
    await expect(page.getByText(EXTERNAL_BADGE)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Lower case on purpose: the code is compared as the server stores it.
    await form.sigla.fill(RESIDENT.sigla.toLowerCase());
    await expect(page.getByText(RESIDENT_BADGE)).toBeVisible();
    await expect(form.nome).toHaveValue(RESIDENT.nome);
    await expect(form.cognome).toHaveValue(RESIDENT.cognome);
    await expect(notice(page, 'Sigla riconosciuta')).toContainText('Nome e cognome compilati automaticamente');
    await expect(page.getByText('Sigla non valida o non attiva nel sistema ELIS')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await form.email.fill(email);
    await form.password.fill(password);
    await form.conferma.fill(password);
    await form.submit.click();

    await expect(notice(page, 'Registrazione completata!')).toContainText('email');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${RESIDENT.nome} ${RESIDENT.cognome}` })).toBeVisible();
    // The dashboard opens at its top, not where the long form was scrolled to.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const me = await (await page.request.get('/api/current-user')).json();
    expect(me).toMatchObject({ email, isResidente: true, siglaResidente: RESIDENT.sigla, ruolo: 'user' });

    await logOutFromDashboard(page);
    expect((await page.request.get('/api/current-user')).status()).toBe(401);

    await loginViaForm(page, { email, password });
    await expect(notice(page, 'Benvenuto!')).toContainText(`Ciao ${RESIDENT.nome}`);
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${RESIDENT.nome}` })).toBeVisible();
  });

  test('an external user registers without a sigla; the form checks its fields first', async ({ page }) => {
    const email = uniqueEmail('esterno');
    const registrations = countRequests(page, '/api/register');

    await page.goto('/registrazione');
    const form = registrationForm(page);

    // Nothing typed: every required field says so, the first one takes the focus, no call.
    await form.submit.click();
    await expect(form.nome).toBeFocused();
    await expect(form.nome).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Compila tutti i campi obbligatori')).toHaveCount(5);
    const nomeError = await form.nome.getAttribute('aria-describedby');
    expect(nomeError).toBeTruthy();
    await expect(page.locator(`[id="${nomeError}"]`)).toHaveText('Compila tutti i campi obbligatori');
    await expectNoSeriousA11yViolations(page);

    await form.nome.fill('Laura');
    await form.cognome.fill('Esterni');
    await form.email.fill(email);
    await form.password.fill('abc');
    await form.conferma.fill('abd');
    await form.submit.click();
    await expect(page.getByText('La password deve essere di almeno 6 caratteri')).toBeVisible();
    await expect(page.getByText('Le password inserite non coincidono')).toBeVisible();
    // The form moves the focus to the first wrong field; filling the sigla before it has would
    // type the sigla into that field (seen on a loaded machine).
    await expect(form.password).toBeFocused();
    expect(registrations.count).toBe(0);

    // An unknown code: the message, and the badge stays "external"; emptying it clears both.
    await form.sigla.fill('NONESISTE99');
    await expect(page.getByText('Sigla non valida o non attiva nel sistema ELIS')).toBeVisible();
    await expect(form.sigla).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(EXTERNAL_BADGE)).toBeVisible();
    await form.sigla.fill('');
    await expect(page.getByText('Sigla non valida o non attiva nel sistema ELIS')).toHaveCount(0);
    await expect(page.getByText(EXTERNAL_BADGE)).toBeVisible();

    await form.password.fill('esterno-sicura');
    await form.conferma.fill('esterno-sicura');
    const sent = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/register');
    await form.submit.click();
    expect((await sent).postDataJSON()).toEqual({
      nome: 'Laura',
      cognome: 'Esterni',
      email,
      password: 'esterno-sicura',
      siglaResidente: null,
      // The demo has two sedi (issue 47): the picker starts on the first.
      sedeId: expect.any(Number),
    });
    await expect(notice(page, 'Registrazione completata!')).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
    const me = await (await page.request.get('/api/current-user')).json();
    expect(me).toMatchObject({ email, isResidente: false, siglaResidente: null });

    // A user who is not an admin cannot open the admin area.
    await page.goto('/admin');
    await expect(page).toHaveURL('/dashboard');

    // The same email again is refused by the server; the toast says why and nothing typed is lost.
    await logOutFromDashboard(page);
    await page.goto('/registrazione');
    await form.nome.fill('Laura');
    await form.cognome.fill('Esterni');
    await form.email.fill(email);
    await form.password.fill('esterno-sicura');
    await form.conferma.fill('esterno-sicura');
    await form.submit.click();
    await expect(notice(page, 'Errore di registrazione')).toContainText('Email già registrata');
    await expect(form.email).toBeFocused();
    await expect(form.email).toHaveAttribute('aria-invalid', 'true');
    await expect(form.nome).toHaveValue('Laura');
    await expect(form.password).toHaveValue('esterno-sicura');
    await expect(page).toHaveURL('/registrazione');
  });

  test('a forgotten password: temporary password by email, forced change, login with the new one', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('recupero');
    await registerThroughApi(request, email, 'password-originale');

    await page.goto('/login');
    await page.getByRole('link', { name: 'Password dimenticata?' }).click();
    await expect(page).toHaveURL('/recupera-password');
    await expect(page.getByText('Riceverai via email una password temporanea')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const field = page.getByLabel('Email');
    await expect(field).toHaveAttribute('type', 'email');
    await expect(field).toHaveAttribute('required', '');
    await page.getByRole('button', { name: 'Invia password temporanea' }).click();
    await expect(page.getByText('Inserisci la tua email')).toBeVisible();
    await expect(field).toBeFocused();

    await field.fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Invia password temporanea' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Email Inviata' })).toBeFocused();
    await expect(
      page.getByText("Se l'email esiste nel nostro sistema, riceverai una nuova password temporanea"),
    ).toBeVisible();
    await expect(page.getByText('controlla anche la cartella spam')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const temporary = await temporaryPasswordFor(email);
    await page.getByRole('link', { name: 'Torna al login' }).click();
    await expect(page).toHaveURL('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(temporary);
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();

    await expect(notice(page, 'Cambio password richiesto')).toContainText('Devi impostare una nuova password.');
    await expect(page).toHaveURL('/cambio-password');
    await expect(page.getByText('password temporanea')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const nuova = page.getByLabel('Nuova password', { exact: true });
    const conferma = page.getByLabel('Conferma nuova password', { exact: true });
    const submit = page.getByRole('button', { name: 'Aggiorna password' });
    await expect(nuova).toHaveAttribute('autocomplete', 'new-password');
    await submit.click();
    await expect(page.getByText('Compila tutti i campi', { exact: true })).toHaveCount(2);
    await expect(nuova).toBeFocused();
    await nuova.fill('corta');
    await conferma.fill('corta');
    await submit.click();
    await expect(page.getByText('La password deve essere di almeno 6 caratteri')).toBeVisible();
    await nuova.fill('nuova-password-1');
    await conferma.fill('nuova-password-2');
    await submit.click();
    await expect(page.getByText('Le password non corrispondono')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await conferma.fill('nuova-password-1');
    await submit.click();
    await expect(notice(page, 'Password aggiornata!')).toBeVisible();
    await expect(page).toHaveURL('/login');
    expect(await page.evaluate(() => localStorage.getItem('bicielis.passwordChangeUserId'))).toBeNull();

    await loginViaForm(page, { email, password: 'nuova-password-1' });
    await expect(notice(page, 'Benvenuto!')).toContainText('Ciao Rita');
    await expect(page).toHaveURL('/dashboard');
  });

  test('the change-password screen without a user id sends back to the login', async ({ page }) => {
    await page.goto('/cambio-password');
    await expect(notice(page, 'Sessione scaduta, riprova ad accedere')).toBeVisible();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('a password change the server refuses shows its message and keeps what was typed', async ({ page }) => {
    // A user id, but no password-change permission from a login with a temporary password.
    await page.goto('/cambio-password?userId=1');
    await page.getByLabel('Nuova password', { exact: true }).fill('tentativo-1');
    await page.getByLabel('Conferma nuova password', { exact: true }).fill('tentativo-1');
    await page.getByRole('button', { name: 'Aggiorna password' }).click();
    await expect(notice(page, 'Errore')).toContainText('Sessione scaduta, riprova ad accedere');
    await expect(page).toHaveURL('/cambio-password?userId=1');
    await expect(page.getByLabel('Nuova password', { exact: true })).toHaveValue('tentativo-1');
    await expect(page.getByLabel('Nuova password', { exact: true })).toBeFocused();
  });

  test("recovery shows the server's refusal in the form, and the email stays", async ({ page }) => {
    await page.route('**/api/reset-password', (route) =>
      route.fulfill({ status: 429, json: { message: 'Troppi tentativi. Riprova tra 15 minuti.' } }),
    );
    await page.goto('/recupera-password');
    await page.getByLabel('Email').fill('qualcuno@example.org');
    await page.getByRole('button', { name: 'Invia password temporanea' }).click();
    await expect(page.getByRole('alert')).toHaveText('Troppi tentativi. Riprova tra 15 minuti.');
    await expect(page.getByRole('button', { name: 'Invia password temporanea' })).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveValue('qualcuno@example.org');
    await expect(page.getByRole('heading', { level: 2, name: 'Recupera password' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('login: empty fields are refused before any call; it works with the keyboard alone', async ({ page }) => {
    const logins = countRequests(page, '/api/login');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(notice(page, 'Campi obbligatori')).toContainText('Inserisci email e password');
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('autocomplete', 'current-password');
    expect(logins.count).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // Keyboard only, from a fresh page: the title has the focus, Tab reaches the fields.
    const user = DEMO_ACCOUNTS.find((a) => a.email.startsWith('esterno'))!;
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Accedi' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await page.keyboard.type(user.password);

    // While the answer is on its way the button is disabled and says so.
    const release = await holdRequests(page, '**/api/login');
    await page.keyboard.press('Enter');
    const pending = page.getByRole('button', { name: 'Accedi Accesso in corso...' });
    await expect(pending).toBeDisabled();
    await expect(page.locator('form[aria-busy="true"]')).toHaveCount(1);
    release();

    await expect(notice(page, 'Benvenuto!')).toContainText(`Ciao ${user.nome}`);
    await expect(page).toHaveURL('/dashboard');
    expect(logins.count).toBe(1);
  });

  test('an anonymous visit to /dashboard shows the login; logging in there opens the dashboard', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 2, name: 'Accedi' })).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
    await expectNoSeriousA11yViolations(page);

    const resident = DEMO_ACCOUNTS.find((a) => a.sigla !== null)!;
    await page.getByLabel('Email').fill(resident.email);
    await page.getByLabel('Password', { exact: true }).fill(resident.password);
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${resident.nome}` })).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
  });
});

test.describe('accounts on a phone (375 × 812)', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  async function shoot(page: Page, testInfo: TestInfo, name: string) {
    await expectNoSidewaysScroll(page, name);
    const path = testInfo.outputPath(`${name}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(name, { path, contentType: 'image/png' });
  }

  test('every account screen fits the width of a phone', async ({ page }, testInfo) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await shoot(page, testInfo, 'phone-login');

    await page.goto('/registrazione');
    await registrationForm(page).submit.click();
    await registrationForm(page).sigla.fill('NONESISTE99');
    await expect(page.getByText('Sigla non valida o non attiva nel sistema ELIS')).toBeVisible();
    await shoot(page, testInfo, 'phone-registration-errors');

    await page.goto('/registrazione');
    await registrationForm(page).sigla.fill(RESIDENT.sigla);
    await expect(page.getByText(RESIDENT_BADGE)).toBeVisible();
    await expect(registrationForm(page).nome).toHaveValue(RESIDENT.nome);
    await shoot(page, testInfo, 'phone-registration-resident');
    await expectNoSeriousA11yViolations(page);

    await page.goto('/recupera-password');
    await expect(page.getByRole('button', { name: 'Invia password temporanea' })).toBeVisible();
    await shoot(page, testInfo, 'phone-recovery');
    await page.getByLabel('Email').fill(uniqueEmail('nessuno'));
    await page.getByRole('button', { name: 'Invia password temporanea' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Email Inviata' })).toBeVisible();
    await shoot(page, testInfo, 'phone-recovery-sent');

    await page.goto('/cambio-password?userId=999999');
    await expect(page.getByRole('button', { name: 'Aggiorna password' })).toBeVisible();
    await page.getByRole('button', { name: 'Aggiorna password' }).click();
    await expect(page.getByText('Compila tutti i campi', { exact: true }).first()).toBeVisible();
    await shoot(page, testInfo, 'phone-change-password');
    await expectNoSeriousA11yViolations(page);
  });
});
