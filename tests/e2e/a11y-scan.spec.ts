import { expect, expectNoSeriousA11yViolations, test } from './fixtures';

// The scan every spec relies on (fixtures.ts) must be able to fail: on the page, in a frame, and
// on a second scan of a document it has already scanned.
const LOW_CONTRAST = '<p style="color:#c8c8c8;background:#ffffff;font-size:14px">Testo quasi invisibile</p>';
const PAGE = (body: string) => `<!doctype html><html lang="it"><head><title>Prova</title></head><body><main><h1>Prova</h1>${body}</main></body></html>`;

test.describe('the accessibility scan', () => {
  test('finds a serious violation on the page, again after the page changed', async ({ page }) => {
    await page.setContent(PAGE('<p>Testo leggibile</p>'));
    await expectNoSeriousA11yViolations(page);
    // axe stays in the document from the first scan: the second still reads the page as it is now.
    await page.evaluate((html) => document.querySelector('main')!.insertAdjacentHTML('beforeend', html), LOW_CONTRAST);
    await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/serious: color-contrast/);
  });

  test('finds one inside a frame', async ({ page }) => {
    await page.setContent(PAGE(`<iframe title="Riquadro" srcdoc='${PAGE(LOW_CONTRAST)}'></iframe>`));
    await expect(page.frameLocator('iframe').getByText('Testo quasi invisibile')).toBeVisible();
    await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/serious: color-contrast/);
  });
});
