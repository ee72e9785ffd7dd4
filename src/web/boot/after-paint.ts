/**
 * The one script of a page whose HTML is already its screen: a page the server renders for its
 * user (/dashboard, /admin: decision 027), and the login (decision 074). The app's code (the
 * entry and the chunks of the screen, listed in `#bicielis-scripts` by the build: vite.config.ts)
 * is asked for once the screen has been painted, not alongside the HTML. On a slow link the
 * page's own bytes then have the connection to themselves until the person sees their screen;
 * the code arrives right after, and the buttons take taps once it has hydrated (lib/started.ts).
 *
 * Built on its own (no imports), as a small module of the page: module scripts run once the
 * document is parsed, after the header that the first paint waits for (`rel=expect`). The pages
 * the server renders have early-controls.ts before it, in the same file (vite.config.ts).
 */
const SCRIPTS_ELEMENT_ID = 'bicielis-scripts';

function listedScripts(): string[] {
  try {
    const list: unknown = JSON.parse(document.getElementById(SCRIPTS_ELEMENT_ID)?.textContent ?? '[]');
    return Array.isArray(list) ? list.filter((url): url is string => typeof url === 'string' && url.startsWith('/assets/')) : [];
  } catch {
    return [];
  }
}

let asked = false;

/**
 * The screen's chunks as modulepreloads, one per task, and the entry (each once).
 *
 * One per task: a `<link rel=modulepreload>` costs the task that adds it a few ms while its fetch
 * starts, more on a page a service worker controls (3–4 ms each on the first-tap bench's 4×
 * slower CPU). The 20–25 of /dashboard and /admin added in one task held a repeat open's first
 * tap 100–200 ms (issue 51, a trace of the first-tap bench); one per task, a tap that comes
 * meanwhile is handled between two of them.
 *
 * The entry last, after the chunks: the page's first taps work without it (decision 039's early
 * fields, /admin's early tab), and its hydration, asked for first, fell inside Lighthouse's
 * blocking-time window (−3 to −4 points in two A/B sets, decision 034). First only when the page
 * opens at the rack before a pick-up (`data-at-rack="ritiro"`, decision 060): `Ritirata` is React's,
 * and the person waits for the app (0.75 s later with it last). On a ride the code and
 * `Riconsegnata` work before the app (below, decision 067): its hydration would only hold their tap.
 */
function askForTheApp(): void {
  if (asked) return;
  asked = true;
  const [entry, ...chunks] = listedScripts();
  const appFirst = document.querySelector('[data-at-rack="ritiro"]') !== null;
  const addEntry = () => {
    if (!entry) return;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  if (appFirst) addEntry();
  // A message to itself: the next task, without the 4 ms a chain of timeouts is held to.
  const channel = new MessageChannel();
  const next = () => {
    const href = chunks.shift();
    if (href === undefined) {
      channel.port1.close();
      if (!appFirst) addEntry();
      return;
    }
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
    channel.port2.postMessage(null);
  };
  channel.port1.onmessage = next;
  next();
}

if (document.visibilityState === 'hidden') {
  // A page opened behind another paints nothing now (and its animation frames wait): at once.
  askForTheApp();
} else {
  // The frame that paints the screen runs this callback first; the task after it comes once
  // that frame is on the screen.
  requestAnimationFrame(() => setTimeout(askForTheApp, 0));
  // Should that frame not come (a tab hidden meanwhile): when the page is hidden, at the latest.
  document.addEventListener('visibilitychange', askForTheApp, { once: true });
}

export {};
