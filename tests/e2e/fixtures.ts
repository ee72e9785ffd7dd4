import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';

export { expect };
/** The accounts SEED_DEMO creates in the e2e server's fresh database. */
export { DEMO_ACCOUNTS } from '../../src/server/seed/seed.js';

/**
 * Chromium logs "Failed to load resource" for every non-OK fetch. The app handles 4xx
 * answers of its own API itself (a 401 from /api/current-user means anonymous; a refused
 * login becomes a toast), so those lines are not errors; nor are the API requests a page
 * makes while the browser is offline (issue 22: the app then shows what the device kept).
 * Anything else is: a 5xx, a missing asset, a console.error from the app, an uncaught
 * exception.
 */
function isHandledApiFailure(message: ConsoleMessage): boolean {
  const text = message.text();
  const refused = text.startsWith('Failed to load resource: the server responded with a status of 4');
  const offline = text.startsWith('Failed to load resource: net::ERR_INTERNET_DISCONNECTED');
  if (!refused && !offline) return false;
  const { url } = message.location();
  try {
    return new URL(url).pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

/** Collects console errors and uncaught page errors; `test` below fails on any. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !isHandledApiFailure(message)) {
      errors.push(`console.error: ${message.text()} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/**
 * Fails when axe finds a violation of impact serious or critical on the current page. A page the
 * server rendered is scanned once it has started: until then its buttons are shown at half
 * opacity and take no tap (styles.css, decision 027), which axe reads as too little contrast
 * (it happened on a busy machine, where hydration came after the test's first check).
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  await expectStarted(page);
  const violations = await axeViolations(page);
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} – ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(serious, `axe found serious or critical violations:\n${serious.join('\n')}`).toEqual([]);
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's violations on the page, every rule of its default set. AxeBuilder injects axe's 580 KB
 * into the page on every scan, then again into a blank page it opens to merge the frames'
 * results: half a scan's time on a busy machine, and a third of the suite's (218 scans). The
 * app's pages have one frame, so axe is injected once per document and run in it; a page with
 * frames goes through AxeBuilder, which scans each of them.
 */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (page.frames().length > 1) {
    return (await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()).violations;
  }
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  });
}

/**
 * Waits until a page the server rendered has hydrated (`data-started`, lib/started.ts). A test
 * that picks an option first must wait: Playwright sets a select's value without a pointer, and
 * a choice made before hydration is reset by React to the state it hydrates with.
 */
export async function expectStarted(page: Page): Promise<void> {
  await expect(page.locator('#root[data-prerendered="server"]:not([data-started])')).toHaveCount(0);
}

/**
 * Fails when the page scrolls sideways, naming the elements that stick out past the
 * viewport's right edge (their tag, classes and text), so a failure says what to fix.
 */
export async function expectNoSidewaysScroll(page: Page, what = 'the page'): Promise<void> {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 0.5 && found.length < 8) {
        const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
        found.push(`${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 80)} right=${r.right.toFixed(1)} "${text}"`);
      }
    }
    return { overflow: document.documentElement.scrollWidth - width, culprits: found };
  });
  expect(overflow, `${what} scrolls sideways by ${overflow}px:\n${culprits.join('\n')}`).toBeLessThanOrEqual(0);
}

/**
 * Every spec imports `test` from here: each test fails if the page logged an error.
 * `consoleErrors` is available to read, e.g. to assert on it mid-test.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors = collectConsoleErrors(page);
      await use(errors);
      expect(errors, `errors in the browser console:\n${errors.join('\n')}`).toEqual([]);
    },
    { auto: true },
  ],
});

/** Logs in through the login form, as a person would. */
export async function loginViaForm(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
}

/**
 * A toast with `text` in it, for as long as it is on screen. (Radix also announces it in a
 * separate role="status" region, but only for its first second.)
 */
export function notice(page: Page, text: string) {
  return page.locator('[data-slot="toast"]').filter({ hasText: text });
}

/**
 * Holds every request to `pattern` until the returned function is called, so what a screen
 * shows while waiting can be seen (then they go through).
 */
export async function holdRequests(page: Page, pattern: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The entry and the screen's chunks a server-rendered page lists for boot/after-paint.ts, in its HTML. */
export function listedScripts(html: string): string[] {
  return JSON.parse(/<script type="application\/json" id="bicielis-scripts">([^<]*)<\/script>/.exec(html)![1]!) as string[];
}

/**
 * Notes the page's first paint of the element `id` (the frame after it is in the document) and,
 * after `check`, when the page asked for each of the app's scripts (every `/assets/*.js` but
 * the page's own after-paint module): what decisions 034 and 074 hold, the app asked for after
 * the first paint.
 */
export async function watchFirstPaint(page: Page, id: string): Promise<() => Promise<{ paintedAt: number | null; scripts: number[] }>> {
  await page.addInitScript((watched) => {
    const w = window as unknown as { paintedAt: number | null };
    w.paintedAt = null;
    const watch = new MutationObserver(() => {
      if (!document.getElementById(watched)) return;
      watch.disconnect();
      requestAnimationFrame(() => (w.paintedAt = performance.now()));
    });
    watch.observe(document, { childList: true, subtree: true });
  }, id);
  return () =>
    page.evaluate(() => ({
      paintedAt: (window as unknown as { paintedAt: number | null }).paintedAt,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/[^/]+\.js$/.test(e.name) && !/\/after-paint-/.test(e.name))
        .map((e) => e.startTime),
    }));
}

/** When the page asked for the entry (`listed[0]`) and for each of the screen's chunks (the rest): their resources' start times. */
export async function scriptStarts(page: Page, listed: string[]): Promise<{ entry: number; chunks: number[] }> {
  return page.evaluate((urls) => {
    const startOf = (url: string) => performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === url)?.startTime ?? NaN;
    return { entry: startOf(urls[0]!), chunks: urls.slice(1).map(startOf) };
  }, listed);
}
