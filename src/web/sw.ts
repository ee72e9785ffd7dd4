/// <reference lib="webworker" />
/*
 * BiciElis' service worker (issue 22), built by vite-plugin-pwa (`injectManifest`, a classic
 * script: vite.config.ts) into dist/web/sw.js with the list of the build's files.
 *
 * - The app shell (the built pages, scripts, styles, icons) is precached: the app opens with
 *   no network. Every navigation gets the page the server would send for its address
 *   (src/server/pages/pages.ts). `/dashboard`, `/admin` and `/officina`, which carry the user's data, are
 *   kept in a cache of their own (PAGES_CACHE), one copy per address, shown only to the user
 *   it was rendered for and deleted at logout: a repeat open paints its copy at once and the
 *   page refreshes itself behind it (boot/device-copy.ts). Offline both come from their copy,
 *   or from the precached page.
 * - Nothing under `/api/` is ever cached, and `/api/` and `/payment/` never get the app shell
 *   (the payment page needs the server's own answer: its Content-Security-Policy is the only
 *   one that lets Stripe.js in).
 * - The queued ride steps are sent on Background Sync (offline/queue.ts, shared with the page).
 * - A new version waits until the person presses `Aggiorna` (pwa/service-worker.tsx), which
 *   sends SKIP_WAITING: never half-applied.
 * - Web push (decision 022): push-sw.js, imported as before.
 */
import { catalogueI18n } from '../shared/i18n/plural';
import { BIKE_PAGE_FILE, DEFAULT_PAGE, normalisePath, ownPageFile, TICKET_PAGE_FILE } from '../shared/pages';
import { cleanupOutdatedCaches, getCacheKeyForURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching/_types';
import { registerRoute } from 'workbox-routing';
import { LINGUA_COOKIE, linguaFromAcceptLanguage } from '../shared/i18n';
import { readDeviceUser } from './offline/device-user';
import { PAGES_CACHE, SYNC_TAG } from './lib/offline-names';
import { copyKey, copyOwner, markAsDeviceCopy } from './offline/page-copy';
import { flushQueue } from './offline/queue';
import { isLingua, LINGUA_PREDEFINITA, translator, type Lingua, type Translate } from '../shared/i18n';
import { setSharedTranslator } from '../shared/i18n/current';
import { messages as commonEn } from '../shared/i18n/compiled/common.en';
import { messages as commonIt } from '../shared/i18n/compiled/common.it';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** A Background Sync event (not in TypeScript's lib). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

self.importScripts('push-sw.js');

/**
 * The texts the worker writes itself (issue 36): the device copy's line, a refusal that came
 * without the server's words. The app's `common` texts, in both languages (the page's language
 * is the copy's `<html lang>`; the queue's, the device user's).
 */
const TEXTS: Record<Lingua, Translate> = {
  it: translator(catalogueI18n({ locale: 'it', messages: { it: commonIt } })),
  en: translator(catalogueI18n({ locale: 'en', messages: { en: commonEn } })),
};
const textsIn = (lingua: Lingua): Translate => TEXTS[lingua];

// The built files by their own names only: the navigations (`/dashboard` for dashboard.html…)
// are routed below.
precacheAndRoute(self.__WB_MANIFEST, { cleanURLs: false, directoryIndex: '' });
cleanupOutdatedCaches();
// The first install takes the open pages at once, so they work offline without a reload; an
// update waits for the person's consent (SKIP_WAITING below), then takes them too.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING') void self.skipWaiting();
});

// ---------------------------------------------------------------------------------------
// Navigations

/** Pages that may carry the user's data once the server renders them: their copies in PAGES_CACHE. */
const PERSONAL_PAGES = new Set(['/dashboard', '/admin', '/officina']);
/**
 * Of those, the pages a repeat open paints from the device's copy at once (decision 028): the
 * page then asks the server behind it (boot/device-copy.ts). `/admin` too since issue 33
 * (decision 047): on a phone its first tap waited a round trip and a render for the server's page.
 * `/officina` too since decision 070: the workshop's list, on a phone at the bench.
 */
const PAINTED_FROM_DEVICE = new Set(['/dashboard', '/admin', '/officina']);
/**
 * Also network first: the privacy notice, whose controller the server fills in (issue 23). It
 * names no user, so no copy of it is kept: offline it is the precached page.
 */
const SERVER_FILLED_PAGES = new Set(['/privacy']);
/** Never the app shell: the API, and the payment page (its CSP is the server's alone). */
const NOT_THE_APP = [/^\/api(\/|$)/, /^\/payment\//];

async function precachedPage(pathname: string): Promise<Response | undefined> {
  // The built page for the address, as the server chooses it (shared/pages.ts).
  const file = ownPageFile(pathname) ?? DEFAULT_PAGE;
  // The page in the reader's language (issue 36), as the server would choose it: the `lingua`
  // cookie (written by the switch, and at login from the account), else the browser's first preference.
  const lingua = await readerLingua();
  return (lingua === 'it' ? undefined : await matchPrecache(file.replace(/\.html$/, `.${lingua}.html`))) ?? matchPrecache(file);
}

async function readerLingua(): Promise<Lingua> {
  try {
    const store = (self as unknown as { cookieStore?: { get(name: string): Promise<{ value?: string } | null> } }).cookieStore;
    const cookie = await store?.get(LINGUA_COOKIE);
    if (isLingua(cookie?.value)) return cookie.value;
  } catch {
    // No cookie store in this browser's workers: the browser's preference decides.
  }
  return linguaFromAcceptLanguage(self.navigator.languages?.[0]);
}

/**
 * Whether every script a kept page loads is in this version's precache: a copy fetched after
 * a deploy (a newer version waiting) would load scripts this version cannot serve offline.
 */
function servableOffline(html: string): boolean {
  // The scripts' and modulepreloads' addresses, and those a page lists for after its first paint (boot/after-paint.ts).
  const scripts = [...html.matchAll(/(?:src=|href=|[[,])"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return scripts.every((url) => getCacheKeyForURL(url) !== undefined);
}

/**
 * The kept copy of a page, marked as the device's (page-copy.ts), when it may be shown: it was
 * rendered for the user the server last confirmed on this device (offline/device-user.ts:
 * logout, a 401 and another user's login forget them, and with them every copy), whose session
 * can still be alive, and this version can serve its scripts. Else nothing.
 */
async function deviceCopy(cache: Cache, key: string): Promise<Response | undefined> {
  const [kept, device] = await Promise.all([cache.match(key), readDeviceUser().catch(() => undefined)]);
  if (!kept || !device) return undefined;
  const html = await kept.text();
  const owner = copyOwner(html);
  if (owner?.userId !== device.user.id || !servableOffline(html)) return undefined;
  return new Response(markAsDeviceCopy(html, owner, new Date(), textsIn), {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** Keeps the server's page as the device's copy, when it is a page rendered for a user (not the anonymous one). */
async function keepCopy(cache: Cache, key: string, response: Response): Promise<void> {
  if (response.status !== 200 || response.type !== 'basic') return;
  const html = await response.text();
  if (copyOwner(html)) await cache.put(key, new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }));
}

/** How long a personal page's request may take before the kept copy is shown (the request goes on, and refreshes it). */
const NETWORK_TIMEOUT_MS = 5_000;

/**
 * `/dashboard` and `/admin` (a repeat open): the device's copy at once, if there is one it may
 * show; the page refreshes itself behind it. Else: the server's answer (kept as the copy when
 * it is a page rendered for a user); with no answer within NETWORK_TIMEOUT_MS, or none at all,
 * the copy if it may be shown, else the precached page.
 */
async function personalPage(event: FetchEvent, url: URL): Promise<Response> {
  const pathname = normalisePath(url.pathname);
  const cache = await caches.open(PAGES_CACHE);
  const key = copyKey(url);
  if (PAINTED_FROM_DEVICE.has(pathname)) {
    const copy = await deviceCopy(cache, key).catch(() => undefined);
    if (copy) return copy;
  }
  const fromNetwork = fetch(event.request);
  // Cloned before the answer goes to the page (this callback is the first on it).
  event.waitUntil(fromNetwork.then((response) => keepCopy(cache, key, response.clone())).catch(() => undefined));
  return networkFirst(fromNetwork, async () => (await deviceCopy(cache, key).catch(() => undefined)) ?? precachedPage(pathname));
}

/** The server's answer; with none within NETWORK_TIMEOUT_MS (the request goes on), or none at all, `fallback`'s. */
async function networkFirst(fromNetwork: Promise<Response>, fallback: () => Promise<Response | undefined>): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<Response | undefined>((resolve) => {
    timer = setTimeout(() => void fallback().then(resolve), NETWORK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([fromNetwork, slow])) ?? (await fromNetwork);
  } catch {
    return (await fallback()) ?? Response.error();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A bike's page (decision 068) and a ticket's (decision 070): the server renders each for its user
 * with its state now, so it comes from the network; no copy is kept (one per bike or ticket, and
 * stale within the minute). With no answer within NETWORK_TIMEOUT_MS, or none at all (offline),
 * the precached page: its screen then asks for its data itself, and says when that needs the
 * connection.
 */
const FRESH_PAGE_FILES: ReadonlySet<string> = new Set([BIKE_PAGE_FILE, TICKET_PAGE_FILE]);
const freshPage = (event: FetchEvent, pathname: string): Promise<Response> => networkFirst(fetch(event.request), () => precachedPage(pathname));

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin && !NOT_THE_APP.some((re) => re.test(url.pathname)),
  async ({ url, event }) => {
    const pathname = normalisePath(url.pathname);
    const fetchEvent = event as FetchEvent;
    if (PERSONAL_PAGES.has(pathname) || SERVER_FILLED_PAGES.has(pathname)) return personalPage(fetchEvent, url);
    if (FRESH_PAGE_FILES.has(ownPageFile(pathname) ?? '')) return freshPage(fetchEvent, pathname);
    return (await precachedPage(pathname)) ?? fetch(fetchEvent.request);
  },
);

// ---------------------------------------------------------------------------------------
// Background Sync: the queued ride steps

async function sendQueue(): Promise<void> {
  const device = await readDeviceUser();
  if (!device) return;
  // What the queue writes (offline/queue.ts), in the user's language.
  const lingua: unknown = device.user.lingua;
  setSharedTranslator(textsIn(isLingua(lingua) ? lingua : LINGUA_PREDEFINITA));
  const result = await flushQueue(device.user.id);
  // Rejecting tells the browser to try again later (it spaces the attempts out).
  if (result.stopped !== null) throw new Error('Azioni ancora in attesa di invio');
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === SYNC_TAG) sync.waitUntil(sendQueue());
});
