import type { Page } from '@playwright/test';
import { tFor } from '../../src/shared/i18n/all.js';
import type { Lingua } from '../../src/shared/i18n/index.js';
import type { MessageKey } from '../../src/shared/i18n/index.js';
import { createAccount, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, expectStarted, notice, test } from './fixtures';
import { providerSignsIn } from './oidc';

/*
 * Sign in with the college's account (issue 49) at a phone's width, through the e2e server's
 * local OpenID provider (tests/e2e/server.mjs): an account that exists is linked and lands on
 * its dashboard; a new resident goes through the completion form; a refusal comes back to
 * /login and says why; /profilo shows the linked account and unlinks it. axe on every new
 * screen, in Italian and in English. Each test has people of its own.
 */

test.use({ viewport: { width: 375, height: 812 } });

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'collegio-di-prova-1';

const say = (lingua: Lingua, key: MessageKey, values?: Record<string, unknown>) =>
  (tFor(lingua) as (key: string, values?: Record<string, unknown>) => string)(key, values);

/** A resident code of the test's own, in the resident list. */
async function residentCode(nome: string, cognome: string): Promise<string> {
  const sigla = `OIDC${unique()}`.toUpperCase().slice(0, 32);
  await withE2eDatabase((db) => db.query(`insert into residenti (sigla, nome, cognome) values ($1, $2, $3)`, [sigla, nome, cognome]));
  return sigla;
}

async function openLogin(page: Page, lingua: Lingua, path = '/login') {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', lingua);
  await expectStarted(page);
}

const collegeLink = (page: Page, lingua: Lingua) => page.getByRole('link', { name: say(lingua, 'collegeLogin.label') });

for (const lingua of ['it', 'en'] as const) {
  test.describe(`the college account (${lingua})`, () => {
    test.use({ locale: lingua === 'it' ? 'it-IT' : 'en-GB' });

    test('an account that exists logs in through the provider, is linked, and unlinks it from /profilo', async ({ page }) => {
      const id = unique();
      const email = `collegio-${id}@bicielis.test`;
      const userId = await createAccount({ nome: 'Carla', cognome: 'Collegata', email, password: PASSWORD });
      // The account's language wins over the browser's once logged in.
      await withE2eDatabase((db) => db.query(`update users set lingua = $2 where id = $1`, [userId, lingua]));
      await providerSignsIn(`sub-${id}`, { email, email_verified: true, given_name: 'Carla', family_name: 'Collegata' });

      await openLogin(page, lingua);
      const link = collegeLink(page, lingua);
      await expect(link).toHaveAttribute('href', '/api/auth/oidc/login');
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, `/login with the college account (${lingua})`);
      await link.click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.locator('#root[data-started]')).toBeVisible();

      // /profilo → Account del collegio: the email and since when; the account has a password, so it unlinks.
      await page.goto('/profilo');
      const section = page.getByRole('region', { name: say(lingua, 'collegeProfile.title') });
      await expect(section).toBeVisible();
      await expect(section).toContainText(email);
      await expectNoSeriousA11yViolations(page);
      await section.getByRole('button', { name: say(lingua, 'collegeProfile.unlink') }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toContainText(say(lingua, 'collegeProfile.unlinkTitle'));
      await expectNoSeriousA11yViolations(page);
      await dialog.getByRole('button', { name: say(lingua, 'collegeProfile.unlink') }).click();
      await expect(notice(page, say(lingua, 'collegeProfile.unlinked'))).toBeVisible();
      await expect(section).not.toContainText(email);
      await expect(section).toContainText(say(lingua, 'collegeProfile.defaultLabel'));
      const { rows } = await withE2eDatabase((db) =>
        db.query(`select 1 from identita_esterne i join users u on u.id = i.user_id where u.email = $1`, [email]),
      );
      expect(rows).toHaveLength(0);
    });

    test('a new resident completes the account: the resident path first, the sigla checked, the privacy notice', async ({ page }) => {
      const id = unique();
      const email = `nuovo-${id}@elis.org`;
      const sigla = await residentCode('Nina', 'Nuova');
      await providerSignsIn(`sub-${id}`, { email, email_verified: true, given_name: 'Nina', family_name: 'Nuova' });

      await openLogin(page, lingua);
      await collegeLink(page, lingua).click();
      await expect(page).toHaveURL(/\/accesso\/completa$/);
      await expect(page.getByRole('heading', { name: say(lingua, 'collegeCompletion.title') })).toBeVisible();
      await expect(page.getByLabel(say(lingua, 'collegeCompletion.email'))).toHaveValue(email);
      await expect(page.getByLabel(say(lingua, 'registrationPage.nome'), { exact: true })).toHaveValue('Nina');
      await expect(page.getByLabel(say(lingua, 'registrationPage.cognome'), { exact: true })).toHaveValue('Nuova');
      const radios = page.getByRole('radio');
      // An email at RESIDENT_EMAIL_DOMAIN: the resident path is first, and chosen.
      await expect(radios.first()).toHaveAccessibleName(say(lingua, 'collegeCompletion.resident'));
      await expect(radios.first()).toBeChecked();
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, `/accesso/completa (${lingua})`);

      // Sent at once: each missing thing is said at its field.
      await page.getByRole('button', { name: say(lingua, 'collegeCompletion.submit') }).click();
      await expect(page.getByText(say(lingua, 'collegeCompletion.siglaRequired'))).toBeVisible();
      await expect(page.getByText(say(lingua, 'collegeCompletion.privacyRequired'))).toBeVisible();
      await expect(page.getByLabel(say(lingua, 'collegeCompletion.sigla'))).toBeFocused();
      await expectNoSeriousA11yViolations(page);

      await page.getByLabel(say(lingua, 'collegeCompletion.sigla')).fill(sigla.toLowerCase());
      await expect(page.getByText(say(lingua, 'registrationPage.residentBadge'))).toBeVisible();
      await page.getByRole('checkbox').click();
      await page.getByRole('button', { name: say(lingua, 'collegeCompletion.submit') }).click();
      await expect(notice(page, say(lingua, 'collegeCompletion.successTitle'))).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard$/);
      const me = await (await page.request.get('/api/current-user')).json();
      expect(me).toMatchObject({ email, isResidente: true, siglaResidente: sigla });

      // No password: the college account is the way in, so /profilo says to set a password before unlinking.
      await page.goto('/profilo');
      const section = page.getByRole('region', { name: say(lingua, 'collegeProfile.title') });
      await expect(section).toContainText(email);
      await expect(section).toContainText(say(lingua, 'collegeProfile.needsPassword'));
      await expect(section.getByRole('link', { name: say(lingua, 'collegeProfile.setPassword') })).toHaveAttribute('href', '/recupera-password');
      await expect(section.getByRole('button', { name: say(lingua, 'collegeProfile.unlink') })).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);

      // The pending completion is used up: the form now says so, and links the login.
      await page.goto('/accesso/completa');
      await expect(page.getByRole('alert')).toContainText(say(lingua, 'collegeCompletion.expired'));
      await expect(page.getByRole('link', { name: say(lingua, 'collegeCompletion.backToLogin') })).toHaveAttribute('href', '/login');
      await expectNoSeriousA11yViolations(page);
    });

    test('an email the provider has not verified is refused, and /login says why', async ({ page }) => {
      const id = unique();
      await providerSignsIn(`sub-${id}`, { email: `dubbio-${id}@elis.org`, email_verified: false, given_name: 'Dora' });
      await openLogin(page, lingua);
      await collegeLink(page, lingua).click();
      await expect(page).toHaveURL(/\/login\?accesso=non-verificata$/);
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(say(lingua, 'collegeLogin.refusedTitle'));
      await expect(alert).toContainText(say(lingua, 'collegeLogin.unverified'));
      await expectNoSeriousA11yViolations(page);
      // The password login is still there.
      await expect(page.getByLabel(say(lingua, 'loginPage.password'), { exact: true })).toBeVisible();
    });
  });
}

test('each refusal of the callback has its own sentence on /login; an unknown code shows none', async ({ page }) => {
  for (const [code, key] of [
    ['disattivato', 'collegeLogin.disabled'],
    ['scaduto', 'collegeLogin.expired'],
    ['errore', 'collegeLogin.failed'],
  ] as const) {
    await openLogin(page, 'it', `/login?accesso=${code}`);
    await expect(page.getByRole('alert')).toContainText(say('it', key));
  }
  await openLogin(page, 'it', '/login?accesso=altro');
  await expect(collegeLink(page, 'it')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
