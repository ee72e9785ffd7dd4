import { ensureSede, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectStarted, expectNoSidewaysScroll, loginViaForm, test } from './fixtures';

/*
 * Issue 47, the rack's board per sede, at a phone's width: the admin chooses `Residenza Nord` in
 * /admin → Biciclette, makes its link, and the board it opens shows that sede's bikes and names
 * it, never a bike of the other sede; in Italian and in English, each scanned by axe.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

test.describe('the rack’s board of one sede', () => {
  test('made for Residenza Nord in /admin, it shows only Nord’s bikes, named, in both languages', async ({ page, browser, baseURL }) => {
    test.slow();
    const nord = await ensureSede('Residenza Nord', { prefix: 'RN', count: 2 });
    // A bike of the first sede, the test's own, which Nord's board must not show.
    const other = `C${unique()}`.slice(0, 10);
    await withE2eDatabase((db) =>
      db.query(`insert into biciclette (numero, modello, sede_id) values ($1, 'City Bike', (select min(id) from sedi where archiviata_at is null))`, [other]),
    );

    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    await page.goto('/admin?tab=biciclette');
    await expectStarted(page);
    const section = page.getByRole('region', { name: 'Schermo della rastrelliera' });
    await expect(section).toBeVisible();
    await section.getByRole('combobox', { name: 'Sede' }).selectOption({ label: 'Residenza Nord' });
    const replace = section.getByRole('button', { name: 'Nuovo link' });
    const make = section.getByRole('button', { name: 'Crea il link' });
    await expect(replace.or(make)).toBeVisible();
    if (await replace.isVisible()) {
      // Nord's link made by an earlier run on this server: replacing it asks first.
      await replace.click();
      await page.getByRole('alertdialog', { name: 'Sostituire il link attuale?' }).getByRole('button', { name: 'Crea un nuovo link' }).click();
    } else {
      await make.click();
    }
    const linkField = section.getByRole('textbox', { name: 'Link dello schermo (mostrato solo ora)' });
    await expect(linkField).toHaveValue(/\/rastrelliera\/[A-Za-z0-9_-]{43}$/);
    const url = new URL(await linkField.inputValue());
    await expectNoSeriousA11yViolations(page);
    await expectNoSidewaysScroll(page, '/admin → Biciclette with the Sede choice at 375 px');

    for (const [locale, heading] of [
      ['it-IT', 'Biciclette'],
      ['en-GB', 'Bikes'],
    ] as const) {
      const phone = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, locale, timezoneId: 'Europe/Rome' });
      const board = await phone.newPage();
      await board.goto(url.pathname);
      await expect(board.getByRole('heading', { level: 1 })).toContainText(heading);
      await expect(board.getByRole('heading', { level: 1 })).toContainText('Residenza Nord');
      const list = board.getByRole('list');
      for (const numero of nord.numeri) await expect(list.getByText(`${locale === 'it-IT' ? 'Bici' : 'Bike'} ${numero}`, { exact: true })).toBeVisible();
      await expect(board.getByText(other)).toHaveCount(0);
      await expectNoSeriousA11yViolations(board);
      await expectNoSidewaysScroll(board, `Nord’s board at 375 px (${locale})`);
      await phone.close();
    }
  });
});
