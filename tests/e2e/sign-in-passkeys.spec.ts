import type { Page } from '@playwright/test';
import { createAccount, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/**
 * Issue 49's passkeys on a phone's width, with Chromium's virtual authenticator (DevTools'
 * WebAuthn domain): one made from the profile, then the login with it by the button, by the
 * email field's autofill, and as an admin's second step; removal, and the last way in kept.
 *
 * Chromium's virtual authenticator answers a conditional-mediation request (the email field's
 * autofill) at once, as a person picking the passkey among the field's suggestions would: the
 * autofill test checks that the request is a conditional one and that it logs in by itself. The
 * other logins hold the autofill's options request, so that only what the test does logs in.
 */
test.use({ viewport: { width: 375, height: 812 } });

const PASSWORD = 'Passkey-Accesso-49';
const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** A platform authenticator with user verification (a phone's fingerprint), for this page only. */
async function addAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** A person of this test's own, with a password, in `lingua`. */
async function person(prefix: string, { ruolo = 'user', lingua = 'it' }: { ruolo?: 'user' | 'admin'; lingua?: 'it' | 'en' } = {}) {
  const email = `${prefix}-${unique()}@example.it`;
  const id = await createAccount({ nome: 'Pia', cognome: 'Chiave', email, password: PASSWORD, ruolo });
  if (lingua !== 'it') await withE2eDatabase((db) => db.query(`update users set lingua = $2 where id = $1`, [id, lingua]));
  return { id, email, password: PASSWORD };
}

/**
 * Holds the login's first passkey options request (the email field's autofill) until the
 * returned function is called: the virtual authenticator would otherwise answer it at once.
 */
async function holdAutofill(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let first = true;
  await page.route('**/api/auth/passkey/opzioni', async (route) => {
    if (!first) return route.continue();
    first = false;
    await held;
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** Logged in with the password, makes a passkey from /profilo; leaves the person logged out. */
async function registerFromProfile(page: Page, account: { email: string; password: string }, home = /\/dashboard$/): Promise<void> {
  const release = await holdAutofill(page);
  await loginViaForm(page, account);
  await expect(page).toHaveURL(home);
  release();
  await page.goto('/profilo');
  const section = page.getByRole('region', { name: 'Passkey' });
  await expect(section.getByText('Non hai ancora nessuna passkey.')).toBeVisible();
  await section.getByRole('button', { name: 'Aggiungi una passkey' }).click();
  await expect(notice(page, 'Passkey aggiunta')).toBeVisible();
  await expect(section.getByRole('list', { name: 'Le tue passkey' }).getByRole('listitem')).toHaveCount(1);
  await page.unroute('**/api/auth/passkey/opzioni');
}

async function logOut(page: Page): Promise<void> {
  await page.context().clearCookies();
}

test('a person makes a passkey on the profile, then logs in with the button', async ({ page }) => {
  const account = await person('pk-button');
  await addAuthenticator(page);
  await registerFromProfile(page, account);
  const section = page.getByRole('region', { name: 'Passkey' });
  const item = section.getByRole('listitem');
  await expect(item).toContainText('Chrome su');
  await expect(item).toContainText(/Creata il \d{1,2} [a-z]+ \d{4}/);
  await expect(item).toContainText('Mai usata');
  // Not an admin: no second-factor switch.
  await expect(section.getByRole('switch')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the profile with a passkey');

  await logOut(page);
  const release = await holdAutofill(page);
  await page.goto('/login');
  const button = page.getByRole('button', { name: 'Accedi con una passkey' });
  await expect(button).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await button.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(notice(page, 'Benvenuto!')).toBeVisible();
  release();
  expect((await page.context().cookies()).map((c) => c.name)).toContain('bicielis_session');

  // The login is the passkey's last use.
  await page.goto('/profilo');
  await expect(page.getByRole('region', { name: 'Passkey' }).getByRole('listitem')).toContainText(/Ultimo uso: \d{1,2} [a-z]+ \d{4}/);
});

test("the email field's autofill: a conditional request, which logs in when a passkey is picked", async ({ page }) => {
  const account = await person('pk-autofill');
  await addAuthenticator(page);
  await registerFromProfile(page, account);
  await logOut(page);

  // What the page asks of the browser: the mediation of each navigator.credentials.get.
  await page.addInitScript(() => {
    const asked: string[] = [];
    (window as unknown as { passkeyRequests: string[] }).passkeyRequests = asked;
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      asked.push(String(options?.mediation ?? 'optional'));
      return get(options);
    };
  });
  // The request's options held until the field is checked: the virtual authenticator answers at
  // once, and the page would leave /login before the check could read it.
  const release = await holdAutofill(page);
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  release();
  // No click: the virtual authenticator picks the passkey the field offers.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(notice(page, 'Benvenuto!')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { passkeyRequests: string[] }).passkeyRequests)).toEqual(['conditional']);
});

test('sending the password ends the autofill request, and the password logs in', async ({ page }) => {
  const account = await person('pk-password');
  await addAuthenticator(page);
  await registerFromProfile(page, account);
  await logOut(page);
  // The autofill's options come only once the password has been sent: its ceremony must not begin.
  const release = await holdAutofill(page);
  await page.addInitScript(() => {
    const asked: string[] = [];
    (window as unknown as { passkeyRequests: string[] }).passkeyRequests = asked;
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      asked.push(String(options?.mediation ?? 'optional'));
      return get(options);
    };
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Accedi con una passkey' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  const login = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
  await login;
  release();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => (window as unknown as { passkeyRequests: string[] }).passkeyRequests)).toEqual([]);
});

test('an admin: a passkey as the second factor after the password', async ({ page }) => {
  const admin = await person('pk-admin', { ruolo: 'admin' });
  await addAuthenticator(page);
  await registerFromProfile(page, admin, /\/admin$/);
  const section = page.getByRole('region', { name: 'Passkey' });
  const toggle = section.getByRole('switch', { name: 'Usa una passkey come secondo fattore' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(notice(page, 'Passkey come secondo fattore attivata')).toBeVisible();
  await expect(toggle).toBeChecked();
  await expectNoSeriousA11yViolations(page);

  await logOut(page);
  const release = await holdAutofill(page);
  await loginViaForm(page, admin);
  await expect(page).toHaveURL(/\/verifica-accesso$/);
  release();
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('bicielis_session');
  const usePasskey = page.getByRole('button', { name: 'Usa una passkey' });
  await expect(usePasskey).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the code step with a passkey');
  await usePasskey.click();
  await expect(page).toHaveURL(/\/admin$/);
  expect((await page.context().cookies()).map((c) => c.name)).toContain('bicielis_session');
});

test('removing a passkey after a confirmation, and the last way in kept', async ({ page }) => {
  const account = await person('pk-remove');
  await addAuthenticator(page);
  await registerFromProfile(page, account);
  const section = page.getByRole('region', { name: 'Passkey' });

  // Without a password, the passkey is the last way in: the database keeps it, the page says why.
  const { rows } = await withE2eDatabase((db) => db.query<{ hash: string }>('select password_hash as hash from users where id = $1', [account.id]));
  await withE2eDatabase((db) => db.query('update users set password_hash = null where id = $1', [account.id]));
  await page.getByRole('region', { name: 'Passkey' }).getByRole('button', { name: /^Rimuovi la passkey / }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: 'Rimuovere la passkey?' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Rimuovi' }).click();
  await expect(notice(page, 'È il tuo ultimo modo per accedere')).toBeVisible();
  await expect(section.getByRole('listitem')).toHaveCount(1);

  // With a password again, it goes.
  await withE2eDatabase((db) => db.query('update users set password_hash = $2 where id = $1', [account.id, rows[0]!.hash]));
  await section.getByRole('button', { name: /^Rimuovi la passkey / }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Rimuovi' }).click();
  await expect(notice(page, 'Passkey rimossa')).toBeVisible();
  await expect(section.getByText('Non hai ancora nessuna passkey.')).toBeVisible();
});

test('in English: the profile, the login and the code step', async ({ page, context }) => {
  const admin = await person('pk-english', { ruolo: 'admin', lingua: 'en' });
  await addAuthenticator(page);
  const release = await holdAutofill(page);
  const res = await page.request.post('/api/login', { data: { email: admin.email, password: admin.password } });
  expect(res.ok()).toBe(true);
  release();
  await page.goto('/profilo');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText("You don't have any passkeys yet.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')).toContainText(/Created on \d{1,2} [A-Z][a-z]+ \d{4}/);
  await section.getByRole('switch', { name: 'Use a passkey as the second factor' }).click();
  await expect(notice(page, 'Passkey as the second factor turned on')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoSidewaysScroll(page, 'the profile in English');

  await logOut(page);
  await context.addCookies([{ name: 'lingua', value: 'en', url: page.url() }]);
  const hold = await holdAutofill(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Log in with a passkey' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  const pending = await page.request.post('/api/login', { data: { email: admin.email, password: admin.password } });
  expect(pending.status()).toBe(403);
  await page.goto('/verifica-accesso');
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  hold();
});
