/**
 * A first tap that works (issue 33): the time from the navigation's start until a tap on the
 * page's first button has shown what it opens, tried as a person on a phone would, first open
 * and repeat open, on Debian's Chromium through Playwright against the built app (its own
 * process, the demo data).
 *
 * - `/dashboard` as the demo resident (free to book): a tap on `Nuova prenotazione` until the
 *   booking form's `Data` field is shown (the label `Data` in the section
 *   `Prenota una bicicletta`, and the field it names, laid out and visible);
 * - `/admin` as the demo admin: a tap on the tab `Biciclette` until its panel is rendered (the
 *   region `Biciclette` of bikes-tab.tsx, which exists only in that tab's panel, laid out and
 *   visible; its rows are data asked of the server after, not part of the tab change);
 * - `/bici/{numero}` (issue 51: bike 07, the page its QR code opens) as the demo resident: a tap on
 *   `Segnala un problema` until the report's first field (the label `Che cosa non va`, and the
 *   field it names) is shown;
 * - `/officina` (issue 51: the workshop's screen) as the demo workshop's staff member: a tap on the
 *   first open ticket until its page shows the report (`section[aria-labelledby=ticket-segnalazione]`,
 *   the ticket's data included: what the person tapped for). Both pages are rendered by the
 *   server (decision 070): a tap before the app has started follows the card's link, and the
 *   ticket's page is a new document; the time is still taken from the list's navigation.
 * `/bici/{numero}` is rendered by the server (decision 068): the service worker keeps no copy, so
 * its repeat open is the server's page, through the worker, with the app's code from the precache.
 * `/officina`'s repeat open is painted from the device's copy, as `/dashboard`'s and `/admin`'s.
 *
 * The profile is Lighthouse's mobile one with the numbers the issue states (Lighthouse 12's
 * `mobileSlow4G` as its simulated throttling reads them: 150 ms RTT, 1.6 Mbit/s × 0.9 down,
 * 750 kbit/s × 0.9 up, CPU 4× slower), applied for real through CDP (`Network.emulateNetworkConditions`
 * with 150 ms latency and `Emulation.setCPUThrottlingRate` 4), as lighthouse.ts's
 * `bookingsOnScreen` does. Not the 562.5 ms per request of Lighthouse's DevTools throttling that
 * opens.ts uses. A phone's screen: 375 × 812 CSS px, device scale factor 1.75 (Lighthouse's
 * mobile emulation), mobile viewport, touch.
 *
 * One open:
 * 1. `page.goto(url, { waitUntil: 'commit' })`; a watcher installed before the page's own scripts
 *    (`addInitScript`) notes, as `performance.now()` of the animation frame that paints it,
 *    when the button is on screen (in the document, visible, inside the viewport: the tab of
 *    `/admin` lies below the fold on a phone, so the watcher scrolls it into view, as a
 *    person scrolls to it) and when the target is shown.
 * 2. From the moment the button is painted (and the page's first contentful paint is past),
 *    every 100 ms a real tap (`page.touchscreen.tap`, CDP touch events) at the button's centre,
 *    read again before each tap, until the tap has been taken: the button gone (the form
 *    replaced it) or the tab selected. A tap that lands before the page has hydrated does
 *    nothing, as for a person (styles.css, started.ts). A tap sent while the page's main
 *    thread is busy waits for it, as a person's does.
 * 3. The time is the frame in which the target is shown, from the document's time origin (the
 *    navigation's start).
 *
 * A first open is a new browser context: no service worker, nothing cached. A repeat open is a
 * context that opened the page twice before, unthrottled (the service worker installed, in
 * control, the device's copy of the page kept), then left it for about:blank; the service
 * worker's own requests are throttled too (CDP on its target), as in opens.ts. Each run checks
 * whether a service worker answered its navigation (the navigation timing's `workerStart`): a
 * run that is not the open it should be throws. (On a first open the worker registers after
 * the paint and may take the page before the tap is taken, as on a real first visit.)
 *
 * `npm run bench -- first-tap` (benchFirstTap): FIRST_TAP_RUNS runs of each (default 10),
 * medians against the targets: ≤ 1.5 s on a first open, ≤ 0.8 s on a repeat open.
 * BENCH_PORT chooses the server's port (else a free one); CHROME_PATH the browser.
 */
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { ROOT } from '../helpers/server-process.js';
import { startBuiltApp } from './built-app.js';
import { throttlePage, throttleServiceWorker, type NetworkProfile } from './throttle.js';
import { buttonsLiveAt, recordButtonsLive } from './buttons-live.js';
import { lockRackBike, measureRackTap, RACK_RIDER, rackTapLines, rackTapPasses } from './first-tap-rack.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Lighthouse 12's mobile profile (mobileSlow4G, its simulated numbers), applied for real. */
export const MOBILE_NETWORK: NetworkProfile = {
  offline: false,
  latency: 150,
  downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
  uploadThroughput: ((750 * 1024) / 8) * 0.9,
};
export const CPU_SLOWDOWN = 4;
export const FIRST_TAP_PROFILE = `150 ms RTT, 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, CPU ${CPU_SLOWDOWN}× (CDP), 375×812 touch`;

/** The targets (ms). */
export const FIRST_TAP_TARGETS = { first: 1500, repeat: 800 } as const;

/** A tap is repeated this often (ms) from the moment the button is painted. */
export const TAP_EVERY_MS = 100;
/** An open that has not shown its target by then is a failure of the bench, not a number. */
export const OPEN_TIMEOUT_MS = 60_000;

export type FirstTapPageName = 'dashboard' | 'admin' | 'bici' | 'officina';

export interface TapRun {
  /** ms from the navigation's start to the frame that shows the target: the measure. */
  ms: number;
  /** ms to the frame that painted the button (not before the first contentful paint): the taps start here. */
  painted: number;
  /** ms until the page took taps (`data-started` on #root, once hydrated: buttons-live.ts); NaN if never seen. */
  live: number;
  /** ms at which the tap that was taken was made (its pointerdown's input time); NaN if none was seen. */
  tapped: number;
  /** ms at which the page's HTML had arrived whole (the navigation's responseEnd). */
  htmlEnd: number;
  /** The HTML's bytes on the wire (encodedBodySize: compressed, if it was; 0 from a service worker's own copy). */
  htmlBytes: number;
  /** ms at which the document was parsed (DOMContentLoaded): the page's module scripts, after-paint.ts's tap handling, run from here. */
  parsed: number;
  /** Taps sent until one was taken. */
  taps: number;
}

export interface FirstTapPage {
  /** Median of the first opens (ms). */
  first: number;
  /** Median of the repeat opens (ms). */
  repeat: number;
  /** Every run, in order. */
  runs: { first: TapRun[]; repeat: TapRun[] };
}

export type FirstTapResult<K extends FirstTapPageName = FirstTapPageName> = Record<K, FirstTapPage>;

/** Who opens each page: the resident the dashboard and a bike's page, the admin /admin, the workshop's staff member their screen. */
const OPENED_BY: Record<FirstTapPageName, keyof FirstTapCookies> = { dashboard: 'resident', admin: 'admin', bici: 'resident', officina: 'officina' };

export interface FirstTapCookies {
  resident: string;
  admin: string;
  /** The workshop's staff member (issue 48): needed for `officina` only. */
  officina?: string;
}

const PATHS: Record<FirstTapPageName, string> = { dashboard: '/dashboard', admin: '/admin', bici: '/bici/07', officina: '/officina' };
/** The pages the server renders for their user, whose copy the service worker keeps for a repeat open (sw.ts `PERSONAL_PAGES`). */
const KEPT_COPY: ReadonlySet<FirstTapPageName> = new Set(['dashboard', 'admin', 'officina']);

/** What one document saw of an open: the watcher's notes, its paint and its navigation's timing (ms from its own origin). */
interface DocumentSnapshot {
  /** performance.timeOrigin (ms since the epoch): where the document's times start. */
  origin: number;
  watch: TapWatch;
  fcp: number;
  /** Whether a service worker answered the document's navigation. */
  fromWorker: boolean;
  nav: { responseEnd: number; encodedBodySize: number; domContentLoadedEventStart: number };
}

/** What the watcher keeps in the page (window.firstTap). */
interface TapWatch {
  paintedAt: number | null;
  /** The input time of the first touch that reached the button (before hydration a tap does not). */
  tappedAt: number | null;
  shownAt: number | null;
}

/**
 * Runs in the page before its scripts (`addInitScript`): notes when the button is painted and
 * when the target is shown, each as the timestamp of the animation frame that paints it.
 * Checked at every change of the document, scroll, click and toggle (a popover shown natively
 * changes no element) and, until the button is painted, every 50 ms (a stylesheet that arrives moves things without a mutation). Self-contained: Playwright sends
 * its source to the page.
 */
function watchFirstTap(kind: FirstTapPageName): void {
  const w = window as unknown as { firstTap: TapWatch; firstTapButton: () => HTMLElement | null };
  const state: TapWatch = { paintedAt: null, tappedAt: null, shownAt: null };
  w.firstTap = state;

  const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const button = (): HTMLElement | null => {
    if (kind === 'dashboard' || kind === 'bici') {
      const label = kind === 'dashboard' ? 'Nuova prenotazione' : 'Segnala un problema';
      const found = [...document.querySelectorAll('button')].find((b) => text(b) === label);
      return found && !found.disabled ? found : null;
    }
    // The workshop's first open ticket: one big link to its page (ticket-list.tsx).
    if (kind === 'officina') return location.pathname === '/officina' ? document.querySelector<HTMLElement>('main a[href^="/officina/"]') : null;
    return [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => text(t) === 'Biciclette') ?? null;
  };
  const target = (): Element | null => {
    if (kind === 'dashboard') {
      const section = document.querySelector('section[aria-labelledby="nuova-prenotazione-title"]');
      const label = [...(section?.querySelectorAll('label') ?? [])].find((l) => text(l) === 'Data');
      return label?.htmlFor ? document.getElementById(label.htmlFor) : null;
    }
    if (kind === 'bici') {
      // The report's first field (report-problem.tsx), which replaces the button.
      const label = [...document.querySelectorAll('label')].find((l) => text(l) === 'Che cosa non va');
      return label?.htmlFor ? document.getElementById(label.htmlFor) : null;
    }
    // The ticket's page with the report itself (ticket-page.tsx `Facts`): its data come with the tap.
    if (kind === 'officina') return document.querySelector('section[aria-labelledby="ticket-segnalazione"]');
    return document.querySelector('[role="tabpanel"][data-state="active"] [role="region"][aria-label="Biciclette"]');
  };
  const visible = (el: Element) => {
    if (!el.isConnected || !el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const inView = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  };
  w.firstTapButton = button;
  // The tap that was taken: the first pointer down on the button itself. Until the page has
  // hydrated its buttons take no pointer events (styles.css), so a touch there reaches their parent.
  addEventListener(
    'pointerdown',
    (event) => {
      if (state.tappedAt === null && event.target instanceof Node && button()?.contains(event.target)) state.tappedAt = event.timeStamp;
    },
    { capture: true },
  );

  // A tap that follows a link before the app has started (the workshop's list, decision 070) opens
  // the next page as a new document: what this one saw goes with the tab (sessionStorage), keyed
  // by this document's time origin, for the bench to read from the next one.
  addEventListener('pagehide', () => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const snapshot: DocumentSnapshot = {
      origin: performance.timeOrigin,
      watch: { ...state },
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      fromWorker: (nav?.workerStart ?? 0) > 0,
      nav: { responseEnd: nav?.responseEnd ?? Number.NaN, encodedBodySize: nav?.encodedBodySize ?? 0, domContentLoadedEventStart: nav?.domContentLoadedEventStart ?? Number.NaN },
    };
    sessionStorage.setItem('firstTapPrevious', JSON.stringify(snapshot));
  });

  let scheduled = false;
  const probe = (frame: number) => {
    scheduled = false;
    if (state.paintedAt === null) {
      const b = button();
      // A person scrolls to a button below the fold (there, `content-visibility: auto` may
      // skip it: not visible until it comes near the screen); the frame after the scroll paints it.
      if (b && !inView(b)) b.scrollIntoView({ block: 'center', behavior: 'instant' });
      else if (b && visible(b)) {
        state.paintedAt = frame;
        // From here the target's coming is a change of the document: no more polling.
        clearInterval(timer);
      }
    }
    if (state.shownAt === null) {
      const t = target();
      if (t && visible(t)) state.shownAt = frame;
    }
    if (state.paintedAt !== null && state.shownAt !== null) stop();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(probe);
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  // What changes the screen without changing the document: a scroll, and a control's native
  // action (a popover shown by its invoker: no mutation). A click is seen before its default
  // action runs, so the frame probed after it is the one that paints that action.
  const natives = ['scroll', 'click', 'toggle'] as const;
  for (const type of natives) addEventListener(type, schedule, { passive: true, capture: true });
  const timer = setInterval(schedule, 50);
  function stop() {
    observer.disconnect();
    for (const type of natives) removeEventListener(type, schedule, { capture: true });
    clearInterval(timer);
  }
}

/**
 * In the page, before a tap: the target's time if it is shown, else where to tap, if the button
 * is there and has not taken a tap yet (on /dashboard it goes once the form opens; on /admin
 * the tab is selected). A button out of view is scrolled back to first.
 */
function readTap(kind: FirstTapPageName): { origin: number; shownAt: number | null; tapAt: { x: number; y: number } | null } {
  const w = window as unknown as { firstTap: TapWatch; firstTapButton: () => HTMLElement | null };
  const origin = performance.timeOrigin;
  const { shownAt } = w.firstTap;
  if (shownAt !== null) return { origin, shownAt, tapAt: null };
  const b = w.firstTapButton();
  if (!b || (kind === 'admin' && b.getAttribute('aria-selected') === 'true')) return { origin, shownAt, tapAt: null };
  let r = b.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return { origin, shownAt, tapAt: null };
  if (r.top < 0 || r.bottom > innerHeight) {
    b.scrollIntoView({ block: 'center', behavior: 'instant' });
    r = b.getBoundingClientRect();
  }
  return { origin, shownAt, tapAt: { x: r.left + r.width / 2, y: r.top + r.height / 2 } };
}

export async function newContext(browser: Browser, base: string, cookie: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
  });
  const at = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base }]);
  return context;
}

/** The open itself, on a page already throttled and watched: the taps, every 100 ms from the paint. */
async function tapUntilShown(page: Page, kind: FirstTapPageName, url: string, repeat: boolean): Promise<TapRun> {
  await page.goto(url, { waitUntil: 'commit' });
  const deadline = Date.now() + OPEN_TIMEOUT_MS;
  await page.waitForFunction(
    () =>
      typeof (window as unknown as { firstTap?: TapWatch }).firstTap?.paintedAt === 'number' &&
      performance.getEntriesByName('first-contentful-paint').length > 0,
    null,
    { timeout: OPEN_TIMEOUT_MS, polling: 10 },
  );
  let taps = 0;
  const start = Date.now();
  // The document the open began in: a tap on a link before the app has started opens the target
  // in a new document (the workshop's list, decision 070), whose times start at its own origin.
  let origin: number | undefined;
  let shownMs: number;
  for (let tick = 0; ; tick++) {
    let state: Awaited<ReturnType<typeof readTap>>;
    try {
      state = await page.evaluate(readTap, kind);
    } catch (err) {
      // The document went while it was read (a navigation): read the next one.
      if (!/context was destroyed|navigat|Target closed|firstTap/i.test(String(err)) || Date.now() > deadline) throw err;
      await sleep(10);
      continue;
    }
    origin ??= state.origin;
    if (state.shownAt !== null) {
      shownMs = state.shownAt + (state.origin - origin);
      break;
    }
    if (Date.now() > deadline) throw new Error(`${url}: nessun effetto del tocco entro ${OPEN_TIMEOUT_MS / 1000} s (${taps} tocchi)`);
    if (state.tapAt) {
      await page.touchscreen.tap(state.tapAt.x, state.tapAt.y);
      taps++;
    }
    // The next 100 ms mark from the first tap (marks a busy page made us miss are skipped).
    tick = Math.max(tick, Math.floor((Date.now() - start) / TAP_EVERY_MS));
    await sleep(Math.max(0, start + (tick + 1) * TAP_EVERY_MS - Date.now()));
  }
  const here = await page.evaluate((): DocumentSnapshot & { previous: string | null } => ({
    origin: performance.timeOrigin,
    watch: (window as unknown as { firstTap: TapWatch }).firstTap,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    // Whether a service worker answered the navigation (a first open's worker may install and
    // claim the page while the open goes on: that does not make it a repeat open).
    fromWorker: ((performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.workerStart ?? 0) > 0,
    nav: (({ responseEnd, encodedBodySize, domContentLoadedEventStart }) => ({ responseEnd, encodedBodySize, domContentLoadedEventStart }))(
      performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming,
    ),
    previous: sessionStorage.getItem('firstTapPrevious'),
  }));
  // The open's own document: this one, or the one the tap left (its snapshot, taken as it went).
  const before = here.previous === null ? undefined : (JSON.parse(here.previous) as DocumentSnapshot);
  const m = here.origin === origin ? here : before?.origin === origin ? before : undefined;
  if (!m) throw new Error(`${url}: il documento in cui è iniziata l'apertura non si ritrova`);
  if (repeat !== m.fromWorker) throw new Error(`${url}: apertura ${repeat ? 'ripetuta senza' : 'prima con'} service worker`);
  const live = (await page.evaluate(buttonsLiveAt)) ?? Number.NaN;
  return {
    ms: shownMs,
    painted: Math.max(m.watch.paintedAt!, m.fcp),
    live,
    tapped: m.watch.tappedAt ?? Number.NaN,
    taps,
    htmlEnd: m.nav.responseEnd,
    htmlBytes: m.nav.encodedBodySize,
    parsed: m.nav.domContentLoadedEventStart,
  };
}

/**
 * With FIRST_TAP_TRACE=1: a Chromium performance trace of the open, and where its main thread's
 * time went until the target was shown (top-level tasks' work by kind, the scripts evaluated and
 * compiled by file), printed after the run: the profile the issue asks for before any change.
 */
async function traced(browser: Browser, page: Page, label: string, open: () => Promise<TapRun>): Promise<TapRun> {
  if (process.env.FIRST_TAP_TRACE !== '1') return open();
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
  let run: TapRun | undefined;
  try {
    run = await open();
  } finally {
    const buffer = await browser.stopTracing();
    if (process.env.FIRST_TAP_TRACE_DIR) writeFileSync(path.join(process.env.FIRST_TAP_TRACE_DIR, `${label.replace(/\W+/g, '-')}-${Date.now()}.json`), buffer);
    if (run) console.log(`${label} (${ms(run.ms)}): ${traceBreakdown(JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }, run.ms)}`);
  }
  return run;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; frame?: string; isMainFrame?: boolean; documentLoaderURL?: string }; name?: string };
}

/** The renderer main thread's work from the navigation's start to `untilMs`, by kind and by script. */
function traceBreakdown(trace: { traceEvents: TraceEvent[] }, untilMs: number): string {
  const events = trace.traceEvents;
  // The page's navigation (a first open may start in one renderer and commit in another).
  const navigation = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'));
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === navigation?.pid);
  const start = navigation?.ts;
  if (!main || start === undefined) return 'no main thread in the trace';
  const end = start + untilMs * 1000;
  const on = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts >= start && e.ts < end && e.dur !== undefined);
  const byName = new Map<string, number>();
  const byScript = new Map<string, number>();
  let busy = 0;
  for (const e of on) {
    if (e.name === 'RunTask') busy += e.dur!;
    if (['ParseHTML', 'EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'Layout', 'UpdateLayoutTree', 'Paint', 'MajorGC', 'MinorGC', 'v8.compile', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'v8.parseOnBackground', 'ParseAuthorStyleSheet'].includes(e.name))
      byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur!);
    const url = e.args?.data?.url;
    if (url && ['EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'v8.compile', 'FunctionCall'].includes(e.name)) {
      const file = url.replace(/^.*\//, '').replace(/-[A-Za-z0-9_-]{8}\.js$/, '.js');
      byScript.set(file, (byScript.get(file) ?? 0) + e.dur!);
    }
  }
  const list = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${k} ${Math.round(v / 1000)}`).join(', ');
  return `main thread busy ${Math.round(busy / 1000)} ms; ${list(byName, 10)}; scripts (ms, nested) ${list(byScript, 10)}`;
}

async function watch(page: Page, kind: FirstTapPageName): Promise<void> {
  // Sent as source with a local `__name`: tsx compiles this file with esbuild's keepNames,
  // which wraps the watcher's inner functions in `__name(…)`, a helper the page does not have.
  await page.addInitScript({ content: `(() => { const __name = (f) => f; (${watchFirstTap.toString()})(${JSON.stringify(kind)}); })();` });
  await page.addInitScript(recordButtonsLive);
}

async function firstOpen(browser: Browser, base: string, cookie: string, kind: FirstTapPageName): Promise<TapRun> {
  const context = await newContext(browser, base, cookie);
  try {
    const page = await context.newPage();
    await watch(page, kind);
    await throttlePage(context, page, MOBILE_NETWORK, CPU_SLOWDOWN);
    return await traced(browser, page, `${kind} first`, () => tapUntilShown(page, kind, `${base}${PATHS[kind]}`, false));
  } finally {
    await context.close();
  }
}

async function repeatOpen(browser: Browser, base: string, cookie: string, kind: FirstTapPageName): Promise<TapRun> {
  const context = await newContext(browser, base, cookie);
  let worker: CDPSession | undefined;
  try {
    const page = await context.newPage();
    const url = `${base}${PATHS[kind]}`;
    // The visits before, unthrottled: the worker installs (precaching the app) and takes the
    // page, the page's copy is kept on the device, the second visit goes through the worker.
    await page.goto(url);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    if (KEPT_COPY.has(kind))
      await page.waitForFunction(
        async (pathname) => {
          const cache = await caches.open('bicielis-pagine');
          return (await cache.keys()).some((r) => new URL(r.url).pathname === pathname);
        },
        PATHS[kind],
        { polling: 100 },
      );
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById('root')?.hasAttribute('data-started') === true && !document.getElementById('bicielis-copia'));
    await page.goto('about:blank');

    await watch(page, kind);
    await throttlePage(context, page, MOBILE_NETWORK, CPU_SLOWDOWN);
    worker = await throttleServiceWorker(browser, base, MOBILE_NETWORK);
    return await traced(browser, page, `${kind} repeat`, () => tapUntilShown(page, kind, url, true));
  } finally {
    await worker?.detach().catch(() => undefined);
    await context.close();
  }
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * `runs` first opens and `runs` repeat opens (alternating) of `/dashboard` as the resident and
 * of `/admin` as the admin, against the app at `base`; `cookies` are session cookies
 * (`name=value`, as built-app.ts's `sessionOf` gives them).
 */
export async function measureFirstTaps<K extends FirstTapPageName = 'dashboard' | 'admin'>(
  base: string,
  cookies: FirstTapCookies,
  runs = 10,
  pages: readonly K[] = ['dashboard', 'admin'] as readonly FirstTapPageName[] as readonly K[],
): Promise<FirstTapResult<K>> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--lang=it-IT'],
  });
  try {
    const measurePage = async (kind: FirstTapPageName, cookie: string): Promise<FirstTapPage> => {
      const first: TapRun[] = [];
      const repeat: TapRun[] = [];
      for (let i = 0; i < runs; i++) {
        first.push(await firstOpen(browser, base, cookie, kind));
        repeat.push(await repeatOpen(browser, base, cookie, kind));
      }
      return { first: median(first.map((r) => r.ms)), repeat: median(repeat.map((r) => r.ms)), runs: { first, repeat } };
    };
    const result = {} as FirstTapResult<K>;
    for (const kind of pages) {
      const cookie = cookies[OPENED_BY[kind]];
      if (!cookie) throw new Error(`first-tap: nessuna sessione per ${kind}`);
      result[kind] = await measurePage(kind, cookie);
    }
    return result;
  } finally {
    await browser.close();
  }
}

const ms = (n: number) => (Number.isNaN(n) ? '—' : `${Math.round(n).toLocaleString('en-US')} ms`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Whether a page's medians meet the targets. */
export const firstTapPasses = (p: FirstTapPage): boolean => p.first <= FIRST_TAP_TARGETS.first && p.repeat <= FIRST_TAP_TARGETS.repeat;

/** The bench's pages: the address as shown, and the tap measured. */
const FIRST_TAP_ROWS: Record<FirstTapPageName, { name: string; what: string }> = {
  dashboard: { name: '/dashboard', what: '`Nuova prenotazione` → the form\'s `Data` field' },
  admin: { name: '/admin', what: 'tab `Biciclette` → its panel' },
  bici: { name: '/bici/{numero}', what: '`Segnala un problema` → the report\'s `Che cosa non va` field' },
  officina: { name: '/officina', what: 'the first open ticket → its page with the report' },
};

/** `npm run bench -- first-tap`: the built app, the demo's resident and admin, the table and every run. */
export async function benchFirstTap(): Promise<boolean> {
  if (!existsSync(path.join(ROOT, 'dist', 'web', 'dashboard.html'))) throw new Error('dist/web manca: npm run build');
  const runs = Number(process.env.FIRST_TAP_RUNS ?? 10);
  const app = await startBuiltApp('first-tap', process.env.BENCH_PORT);
  try {
    const cookies = {
      resident: await app.sessionOf('residente@bicielis.demo', 'residente-demo-2026'),
      admin: await app.sessionOf('admin@bicielis.demo', 'admin-demo-2026'),
      officina: await app.sessionOf('officina@bicielis.demo', 'officina-demo-2026'),
    };
    const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    // FIRST_TAP_PAGES=admin,bici: some of the pages only.
    const only = process.env.FIRST_TAP_PAGES?.split(',');
    const pages = (Object.keys(FIRST_TAP_ROWS) as FirstTapPageName[]).filter((kind) => !only || only.includes(kind));
    const result = await measureFirstTaps(app.base, cookies, runs, pages);
    const rows = pages.map((kind) => ({ ...FIRST_TAP_ROWS[kind], page: result[kind] }));
    console.log(`\n## First tap that works (issue 33), ${FIRST_TAP_PROFILE}, ${CHROMIUM}, median of ${runs}`);
    console.log(`Machine: ${os.cpus().length} cores, load average before the runs ${load}; a tap every ${TAP_EVERY_MS} ms from the button's paint.\n`);
    console.log('| page | first open median | repeat open median | target | result |');
    console.log('|---|--:|--:|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.name} | ${ms(r.page.first)} | ${ms(r.page.repeat)} | ≤ ${ms(FIRST_TAP_TARGETS.first)} / ≤ ${ms(FIRST_TAP_TARGETS.repeat)} | ${firstTapPasses(r.page) ? 'PASS' : 'FAIL'} |`,
      );
    console.log('');
    for (const r of rows) {
      for (const open of ['first', 'repeat'] as const) {
        const list = r.page.runs[open];
        console.log(`${r.name} ${open} opens (${r.what}): ${list.map((t) => ms(t.ms)).join(', ')}`);
        console.log(
          `      button painted at ${list.map((t) => ms(t.painted)).join(', ')}; taps live (hydrated) at ${list.map((t) => ms(t.live)).join(', ')}; ` +
            `the tap taken at ${list.map((t) => ms(t.tapped)).join(', ')}; taps sent ${list.map((t) => t.taps).join(', ')}`,
        );
        // Where a slow open comes from: the HTML's last byte (and its size on the wire), then its parse.
        console.log(
          `      HTML in at ${list.map((t) => ms(t.htmlEnd)).join(', ')} (${list.map((t) => kb(t.htmlBytes)).join(', ')} on the wire); ` +
            `parsed at ${list.map((t) => ms(t.parsed)).join(', ')}`,
        );
      }
    }
    // At the rack (issue 51, decision 060): a block of its own, first-tap-rack.ts.
    await lockRackBike(app.base, cookies.admin);
    const rack = await measureRackTap(app.base, await app.sessionOf(RACK_RIDER.email, RACK_RIDER.password), runs, CHROMIUM);
    console.log(`\n### At the rack (issue 51), load average before ${load}, after ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    console.log('| page | first open median | repeat open median | target | result |');
    console.log('|---|--:|--:|---|---|');
    for (const line of rackTapLines(rack)) console.log(line);
    const pass = rows.every((r) => firstTapPasses(r.page)) && rackTapPasses(rack);
    console.log(`${pass ? 'PASS' : 'FAIL'}  first tap shows its target ≤ ${ms(FIRST_TAP_TARGETS.first)} on a first open, ≤ ${ms(FIRST_TAP_TARGETS.repeat)} on a repeat open (medians)`);
    return pass;
  } finally {
    await app.close();
  }
}
