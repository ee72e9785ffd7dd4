import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, holdRequests, listedScripts, loginViaForm, watchFirstPaint, notice, test } from './fixtures';

const account = (ruolo: 'admin' | 'user') => DEMO_ACCOUNTS.find((a) => a.ruolo === ruolo)!;

test.describe('foundation', () => {
  test('/ shows the session spinner, then the login screen to an anonymous visitor', async ({ page }) => {
    // Hold the session call so the loading state can be seen, then let it through.
    const release = await holdRequests(page, '**/api/current-user');

    await page.goto('/');
    const spinner = page.getByRole('status').filter({ hasText: 'Caricamento BiciElis...' });
    await expect(spinner).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    release();
    await expect(spinner).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'BiciElis' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Password dimenticata?' })).toHaveAttribute('href', '/recupera-password');
    await expect(page.getByRole('link', { name: 'Registrati' })).toHaveAttribute('href', '/registrazione');
    await expect(page).toHaveURL('/');
    await expectNoSeriousA11yViolations(page);
  });

  test('the login screen is in the HTML: painted before any script, then brought to life', async ({ browser, page }) => {
    // Without JavaScript: the form is there to see, its button waits.
    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
    const still = await noScript.newPage();
    await still.goto('/login');
    await expect(still.getByRole('heading', { level: 2, name: 'Accedi' })).toBeVisible();
    await expect(still.getByLabel('Email')).toBeVisible();
    await expect(still.getByRole('button', { name: 'Accedi', exact: true })).toBeDisabled();
    await noScript.close();

    // With it, hold the session call: the pre-rendered form is adopted (no new paint, no
    // hydration error — the fixture fails on any console error) and works before the
    // session is known; what was typed before that stays.
    const release = await holdRequests(page, '**/api/current-user');
    await page.goto('/login');
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'login');
    await page.getByLabel('Email').fill('nessuno@example.org');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeEnabled();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveValue('nessuno@example.org');
    release();
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.locator('#login-password-error')).toHaveText('Inserisci email e password');
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
  });

  test('the login asks for the app’s code once its form has been painted (decision 074), and the form then works', async ({ page, request }) => {
    // As served: one script, the login's small after-paint module (none of the rendered pages'
    // early controls); the entry and the texts' chunk listed for it as data, no modulepreload.
    const served = await (await request.get('/login')).text();
    expect(served.match(/<script type="module"[^>]*>/g)).toEqual([expect.stringMatching(/src="\/assets\/after-paint-login-[\w-]+\.js"/)]);
    expect(served).not.toContain('rel="modulepreload"');
    const listed = listedScripts(served);
    expect(listed[0]).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    expect(listed.some((url) => /\/assets\/common\.it-[\w-]+\.js$/.test(url))).toBe(true);

    const painted = await watchFirstPaint(page, 'login-email');
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeEnabled();
    const timing = await painted();
    expect(timing.paintedAt).not.toBeNull();
    expect(timing.scripts.length).toBeGreaterThanOrEqual(listed.length);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paintedAt!);
    await loginViaForm(page, account('user'));
    await expect(page).toHaveURL('/dashboard');
  });

  test('pages that need a login show the login screen in place', async ({ page }) => {
    for (const path of ['/dashboard', '/doc', '/payment/1', '/admin']) {
      await page.goto(path);
      await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
      await expect(page).toHaveURL(path);
    }
    await page.goto('/dashboard-admin');
    await expect(page).toHaveURL('/admin');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await page.goto('/dashboard-esterno/ELIS001');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
  });

  test('an unknown path shows the 404 page with a link home', async ({ page }) => {
    await page.goto('/pagina-che-non-esiste');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Torna alla home' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
  });

  test('a failed login shows the server message in a toast', async ({ page }) => {
    await page.route('**/api/login', (route) =>
      route.fulfill({ status: 401, json: { message: 'Email o password non corretti' } }),
    );
    await page.goto('/login');
    await page.getByLabel('Email').fill('nessuno@example.org');
    await page.getByLabel('Password', { exact: true }).fill('sbagliata');
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();

    const errorToast = notice(page, 'Errore di accesso');
    await expect(errorToast).toContainText('Email o password non corretti');
    await expectNoSeriousA11yViolations(page);
  });

  test('a successful login greets the user and goes to /dashboard, or /admin for admins', async ({ page }) => {
    await loginViaForm(page, account('user'));
    await expect(notice(page, 'Benvenuto!')).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/admin');
    await expect(page).toHaveURL('/dashboard');

    await page.context().clearCookies();
    await page.goto('/login');
    await loginViaForm(page, account('admin'));
    await expect(page).toHaveURL('/admin');
  });

  test.describe('the service worker', () => {
    // The project blocks service workers (playwright.config.ts): this check needs its own.
    test.use({ serviceWorkers: 'allow' });

    test('the web manifest is Italian and the service worker never caches the API', async ({ page, request }) => {
      const manifest = await (await request.get('/manifest.webmanifest')).json();
      expect(manifest).toMatchObject({ name: 'BiciElis', short_name: 'BiciElis', lang: 'it' });
      expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
        expect.arrayContaining(['192x192', '512x512']),
      );

      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
      const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
      expect(scriptUrl).toMatch(/\/sw\.js$/);

      await page.reload();
      await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
      const cached = await page.evaluate(async () => {
        await fetch('/api/health', { credentials: 'include' });
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
        }
        return urls;
      });
      expect(cached.length).toBeGreaterThan(0);
      expect(cached.filter((url) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);
    });
  });
});
