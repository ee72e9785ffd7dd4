import { expect, test } from './fixtures';

/**
 * The API's reference page (issue 24, decision 031): Swagger UI, every file from this server,
 * under the site's strict CSP. A CSP violation is a console error (the fixture fails on any);
 * the violations and any request to another origin are also collected here to be named.
 */
test.describe('the API reference /api/docs', () => {
  test('shows every module and operation of the document, loading nothing from elsewhere, with no CSP violation', async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(request.url());
    });
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });

    const openapi = await (await page.request.get('/api/openapi.json')).json();
    const operations = Object.values(openapi.paths as Record<string, Record<string, unknown>>).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBeGreaterThan(80);

    await page.goto('/api/docs');
    await expect(page.getByRole('heading', { name: /BiciElis API/ })).toBeVisible();
    // The modules, and the booking route under its own with its summary.
    await expect(page.locator('.opblock-tag', { hasText: 'Biciclette e prenotazioni' })).toBeVisible();
    const booking = page.locator('.opblock-post', { has: page.locator('.opblock-summary-path[data-path="/api/prenotazioni"]') });
    await expect(booking.getByText('Prenotazione di una bicicletta')).toBeVisible();
    await expect(page.locator('.opblock')).toHaveCount(operations);

    // Opening it shows the body from the zod schema and the Italian error answers.
    await booking.locator('.opblock-summary-control').click();
    await expect(booking.locator('.response[data-code="409"]')).toContainText('Hai già una prenotazione attiva');
    await expect(booking.locator('.response[data-code="401"]')).toContainText('Non autenticato');

    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
