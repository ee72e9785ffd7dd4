/**
 * How the web app starts: the whole sequence, in order (issue 31). Each step names the file
 * of this folder that does it and the decision that explains why.
 *
 * 0. The HTML. Every page arrives already painted, before any script:
 *    - pre-rendered at build (prerender.tsx, decision 019): `login.html` the login form,
 *      `privacy.html` the notice, `index.html`, `dashboard.html` and `admin.html` the loading
 *      state; `#root` says which in `data-prerendered` (lib/guards.ts `firstScreen`);
 *    - rendered on the server for its user (entry-server.tsx, decision 027): `/dashboard` and
 *      `/admin` with the person's data, `data-prerendered="server"`, and the state the render
 *      started from in `#bicielis-state` (server-state.ts);
 *    - on a repeat open, the device's copy of that page, served by the service worker
 *      (decision 028): the server-rendered page the device kept, marked `#bicielis-copia`.
 * 1. The code after the first paint (after-paint.ts, decision 034): a server-rendered page's one
 *    script asks for this entry and its screen's chunks once the screen has been painted. The
 *    other pages ask for them with the HTML.
 * 2. This file: the state the page brings, and what can start before React (below).
 * 3. Hydration: React adopts the HTML instead of painting it again (below).
 * 4. `data-started` on `#root`: set by the screen itself once it has hydrated (started.ts); until
 *    then a server-rendered page's buttons look disabled and take no tap (styles.css).
 * 5. The service worker and tailwind-merge, once the page has loaded (below; decision 048).
 */
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { App } from '../app';
import { refreshSession } from '../lib/session';
import { DEVICE_COPY_ELEMENT_ID } from '../lib/offline-names';
import { CLASS_LISTS_ELEMENT_ID } from '../../shared/server-page';
import { adoptClassLists, loadClassMerge, whenProvisionalChanged } from '../lib/utils';
import { loadDomains } from '../lib/i18n';
import { firstScreen } from '../lib/guards';
import { preloadScreenFor } from '../screens';
import { adoptServerState, readServerState } from './server-state';
import '../styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root mancante in index.html');
const path = window.location.pathname;
const loadScreen = () => preloadScreenFor(path);

// 2. A page the server rendered for its user (/dashboard, /admin: issue 22) brings its state.
const serverState = readServerState();
// A repeat open the service worker painted from the device's copy of that page (decision 028):
// the page asks the server for itself again, at once (device-copy.ts).
const deviceCopy =
  serverState && document.getElementById(DEVICE_COPY_ELEMENT_ID)
    ? import('./device-copy').then(
        (m) => m.adoptDeviceCopy(serverState),
        () => document.getElementById(DEVICE_COPY_ELEMENT_ID)?.remove(),
      )
    : undefined;

// The texts every screen shares, in the page's language (`<html lang>`, lib/i18n.ts): the page
// preloads their chunk with the entry. A chunk that cannot come (a broken deployment) does not
// keep the page from starting.
const commonTexts = loadDomains('common').catch(() => undefined);

// Any other page: the session is asked for and the chunk of the screen being opened starts
// downloading before React renders anything.
let screenChunk: Promise<unknown> | undefined;
if (!serverState) {
  void refreshSession();
  screenChunk = loadScreen();
}

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The class lists the pre-rendered screens merged (decision 048): hydrating needs no
// tailwind-merge, which comes after the page has loaded (step 5).
try {
  adoptClassLists(JSON.parse(document.getElementById(CLASS_LISTS_ELEMENT_ID)?.textContent ?? 'null'));
} catch {
  // A page without them (an old copy): lists are merged once tailwind-merge is in.
}
let root: Root | undefined;
// A list given out before tailwind-merge came, which it changes: the app renders again (a new
// element, so that every screen below renders and asks for its classes anew).
whenProvisionalChanged(() =>
  root?.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

// 3. Hydration. The served HTML holds this screen (step 0): React adopts it.
if (serverState) {
  // Its session, data and screen first: hydrating then renders what the server did, at once,
  // as a transition: in slices between which the browser handles input and paints.
  void Promise.all([adoptServerState(serverState, loadScreen), deviceCopy, commonTexts]).then(() => {
    // 4. The screen's taps are live once it has hydrated (started.ts, styles.css).
    startTransition(() => {
      root = hydrateRoot(container, app);
    });
  });
} else if (container.dataset.prerendered === 'privacy' && firstScreen(path) === 'privacy') {
  // The privacy notice is a chunk of its own (the page preloads it): hydrated once it is in, so
  // the notice renders as it is (screens.tsx `PrivacyScreen`). Hydrated while its chunk was on
  // the way, the session's answer reached its still dehydrated boundary and React replaced the
  // notice with the loading screen for a moment (issue 31). A chunk that fails: hydrated all
  // the same, and the notice loads as it renders.
  const hydrate = () => {
    root = hydrateRoot(container, app);
  };
  void Promise.all([screenChunk, commonTexts]).then(hydrate, hydrate);
} else if (container.dataset.prerendered === firstScreen(path)) {
  void commonTexts.then(() => {
    root = hydrateRoot(container, app);
  });
} else {
  // A page pre-rendered for another first screen (the service worker's offline copy of
  // index.html opened at /login) is replaced.
  void commonTexts.then(() => {
    container.replaceChildren();
    root = createRoot(container);
    root.render(app);
  });
}

// 5. The service worker (offline use) and the announcement of a new version, once the page has
// loaded: nothing of them is in the first download (pwa/service-worker.tsx, issue 22). A page
// the server rendered asks for this code after its first paint (after-paint.ts), usually after
// its `load`. tailwind-merge comes then too (decision 048).
const afterLoad = () => {
  loadClassMerge().catch(() => undefined);
  void import('../pwa/service-worker').then((m) => m.startServiceWorker());
};
if (document.readyState === 'complete') afterLoad();
else window.addEventListener('load', afterLoad, { once: true });
