import { createAccount } from './database';
import { expect, notice, test } from './fixtures';

/**
 * On a phone the toasts stand at the top of the screen, and a dialog opens in the middle of it:
 * after login, the welcome toast covered the top of a dialog opened at once (issue 31). No
 * toast may overlap an open dialog.
 */

test.use({ viewport: { width: 375, height: 812 } });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('at 375 px the welcome toast does not cover a dialog opened at once', async ({ page }) => {
  const email = `toast-${unique()}@example.it`;
  const password = 'Benvenuto-Dialogo-2026';
  await createAccount({ nome: 'Tosca', cognome: `Avvisi${unique()}`, email, password, ruolo: 'admin' });

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
  const welcome = notice(page, 'Benvenuto!');
  await expect(welcome).toBeVisible();
  // The toast closes by itself after 5 s, and a loaded machine may take that long to open /admin:
  // the window losing focus pauses it (Radix's toast viewport), so the test sees the layout, not a race.
  await page.evaluate(() => window.dispatchEvent(new Event('blur')));

  // At once: the desk's `Nuova prenotazione` (/admin), while the welcome toast still shows.
  await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuova prenotazione per un utente' });
  await expect(dialog).toBeVisible();
  await expect(welcome).toBeVisible();

  const toastBox = (await welcome.boundingBox())!;
  const dialogBox = (await dialog.boundingBox())!;
  const intersect =
    toastBox.x < dialogBox.x + dialogBox.width &&
    dialogBox.x < toastBox.x + toastBox.width &&
    toastBox.y < dialogBox.y + dialogBox.height &&
    dialogBox.y < toastBox.y + toastBox.height;
  expect(intersect, `toast ${JSON.stringify(toastBox)} over dialog ${JSON.stringify(dialogBox)}`).toBe(false);
  // The dialog is whole on the screen, below the toast.
  expect(dialogBox.y).toBeGreaterThanOrEqual(toastBox.y + toastBox.height);
  expect(dialogBox.y + dialogBox.height).toBeLessThanOrEqual(812);
});
