/**
 * The time until the own bookings are on screen (issue 22), first open and repeat open, on
 * Lighthouse's mobile profile applied for real through CDP: slow 4G as Lighthouse's DevTools
 * throttling applies it (562.5 ms per request, 1.47 Mbps down, 675 kbps up) and the CPU 4×
 * slower. Debian's Chromium through Playwright, the built server in a process of its own, the
 * demo data; the resident of the demo (`residente@bicielis.demo`) has bookings.
 *
 * - first open: a new browser context (no service worker, nothing cached) opens /dashboard;
 * - repeat open: a context that opened /dashboard twice before (the service worker installed
 *   and in control, the device's copy of the page kept), having left it for a blank page,
 *   opens it again. The service worker's own requests are throttled too (CDP on its target),
 *   so that a worker that asked the network would pay for it.
 *
 * The time is from the navigation's start (the document's time origin) until the first booking
 * is on screen: the animation frame after its card is in the document, or the first contentful
 * paint when that comes later (a card that came with the HTML shows with the first paint); for a
 * repeat open also until the page holds the server's fresh answer (the line `Aggiornamento in
 * corso…` gone); and until the buttons take taps (`data-started`, once hydrated). The worker's CPU is not slowed (CDP has no CPU throttling for a worker): its
 * part of a repeat open (reading the copy and the device's user) is a few milliseconds. RUNS of each (OPENS_RUNS, default 5): medians and every run.
 * BENCH_PORT chooses the server's port (else a free one).
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startBuiltApp } from './built-app.js';
import { throttlePage, throttleServiceWorker, type NetworkProfile } from './throttle.js';
import { buttonsLiveAt, recordButtonsLive } from './buttons-live.js';

const RUNS = Number(process.env.OPENS_RUNS ?? 5);
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Lighthouse 12's mobile preset (constants.throttling.mobileSlow4G), as its DevTools throttling applies it. */
const SLOW_4G: NetworkProfile = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;

interface Open {
  /**
   * ms from the navigation's start until the first booking is on screen: the frame after its
   * card entered the document, or the first contentful paint if later (a card in the HTML is on
   * screen only once the browser paints at all).
   */
  shown: number;
  /** The frame after the first booking's card entered the document (ms). */
  inDocument: number;
  /** First contentful paint (ms). */
  fcp: number;
  /** Repeat open: ms until the page holds the server's answer (the refresh line gone); NaN for a first open. */
  fresh: number;
  /** ms until the buttons take taps: `data-started` on #root, set once the screen has hydrated (lib/started.ts). */
  live: number;
}

/** Records, in every document of the page, when the first booking's card and the refreshed state are painted. */
async function watchBookings(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { shownAt: number | null; freshAt: number | null };
    w.shownAt = null;
    w.freshAt = null;
    const watch = new MutationObserver(() => {
      if (w.shownAt === null && [...document.querySelectorAll('#root li h3')].some((h) => /^Bici /.test(h.textContent ?? ''))) {
        w.shownAt = -1;
        requestAnimationFrame((t) => {
          w.shownAt = t;
        });
      }
      if (w.freshAt === null && w.shownAt !== null && document.readyState !== 'loading' && !document.getElementById('bicielis-copia')) {
        w.freshAt = -1;
        requestAnimationFrame((t) => {
          w.freshAt = t;
        });
      }
      if (w.shownAt !== null && w.freshAt !== null) watch.disconnect();
    });
    watch.observe(document, { childList: true, subtree: true });
  });
  await page.addInitScript(recordButtonsLive);
}

async function measure(page: Page, repeat: boolean): Promise<Open> {
  await page.waitForFunction(() => ((window as unknown as { shownAt: number | null }).shownAt ?? -1) >= 0, null, { timeout: 60_000 });
  if (repeat) await page.waitForFunction(() => ((window as unknown as { freshAt: number | null }).freshAt ?? -1) >= 0, null, { timeout: 60_000 });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 60_000 });
  const live = (await (await page.waitForFunction(buttonsLiveAt, null, { timeout: 60_000 })).jsonValue()) as number;
  const m = await page.evaluate(() => ({
    shown: (window as unknown as { shownAt: number }).shownAt,
    fresh: (window as unknown as { freshAt: number }).freshAt,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    fromWorker: navigator.serviceWorker.controller !== null,
  }));
  if (repeat !== m.fromWorker) throw new Error(`apertura ${repeat ? 'ripetuta senza' : 'prima con'} service worker`);
  return { shown: Math.max(m.shown, m.fcp), inDocument: m.shown, fcp: m.fcp, fresh: repeat ? Math.max(m.fresh, m.fcp) : Number.NaN, live };
}

async function newContext(browser: Browser, base: string, cookie: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  return context;
}

async function firstOpen(browser: Browser, base: string, cookie: string): Promise<Open> {
  const context = await newContext(browser, base, cookie);
  try {
    const page = await context.newPage();
    await watchBookings(page);
    await throttlePage(context, page, SLOW_4G, CPU_SLOWDOWN);
    await page.goto(`${base}/dashboard`, { waitUntil: 'commit' });
    return await measure(page, false);
  } finally {
    await context.close();
  }
}

async function repeatOpen(browser: Browser, base: string, cookie: string): Promise<Open> {
  const context = await newContext(browser, base, cookie);
  try {
    const page = await context.newPage();
    // The visits before: the worker installs and takes the page, the second visit goes through it.
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { level: 3, name: /^Bici / }).first().waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.waitForFunction(async () => {
      const cache = await caches.open('bicielis-pagine');
      return (await cache.keys()).length > 0;
    }, null, { polling: 100 });
    await page.goto(`${base}/dashboard`);
    await page.getByRole('heading', { level: 3, name: /^Bici / }).first().waitFor();
    await page.waitForFunction(() => !document.getElementById('bicielis-copia'));
    await page.goto('about:blank');

    await watchBookings(page);
    await throttlePage(context, page, SLOW_4G, CPU_SLOWDOWN);
    await throttleServiceWorker(browser, base, SLOW_4G);
    await page.goto(`${base}/dashboard`, { waitUntil: 'commit' });
    return await measure(page, true);
  } finally {
    await context.close();
  }
}

const ms = (n: number) => (Number.isNaN(n) ? '—' : `${Math.round(n)} ms`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function benchOpens(): Promise<boolean> {
  const app = await startBuiltApp('opens', process.env.BENCH_PORT);
  try {
    const { base, sessionOf } = app;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--lang=it-IT'],
    });
    try {
      const cookie = await sessionOf('residente@bicielis.demo', 'residente-demo-2026');

      const first: Open[] = [];
      const repeat: Open[] = [];
      for (let i = 0; i < RUNS; i++) {
        first.push(await firstOpen(browser, base, cookie));
        repeat.push(await repeatOpen(browser, base, cookie));
      }
      console.log(`\n## Own bookings on screen, /dashboard, slow 4G + CPU ${CPU_SLOWDOWN}× (CDP), ${CHROMIUM}, median of ${RUNS}`);
      console.log('open      bookings shown   in document   FCP       fresh state   buttons live   runs (bookings shown)');
      const line = (name: string, opens: Open[]) =>
        console.log(
          [
            name.padEnd(8),
            ms(median(opens.map((o) => o.shown))).padStart(15),
            ms(median(opens.map((o) => o.inDocument))).padStart(13),
            ms(median(opens.map((o) => o.fcp))).padStart(9),
            ms(median(opens.map((o) => o.fresh))).padStart(13),
            ms(median(opens.map((o) => o.live))).padStart(14),
            `  ${opens.map((o) => ms(o.shown)).join(', ')}`,
          ].join(' '),
        );
      line('first', first);
      line('repeat', repeat);
      console.log(`      repeat opens, fresh state: ${repeat.map((o) => ms(o.fresh)).join(', ')}`);
      console.log(`      buttons live, first opens: ${first.map((o) => ms(o.live)).join(', ')}; repeat opens: ${repeat.map((o) => ms(o.live)).join(', ')}`);
      const pass = median(repeat.map((o) => o.shown)) < median(first.map((o) => o.shown));
      console.log(`${pass ? 'PASS' : 'FAIL'}  a repeat open shows the own bookings sooner than a first open`);
      return pass;
    } finally {
      await browser.close();
    }
  } finally {
    await app.close();
  }
}
