import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { adoptServerState, readServerState } from './lib/server-state';
import { DEVICE_COPY_ELEMENT_ID } from './offline/names';
import { refreshSession } from './lib/session';
import { firstScreen } from './routes';
import { preloadScreenFor } from './screens';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root mancante in index.html');

// A page the server rendered for its user (/dashboard, /admin: issue 22) brings its state.
const serverState = readServerState();
// A repeat open the service worker painted from the device's copy of that page (decision 028):
// the page asks the server for itself again, at once (offline/device-copy.ts).
const deviceCopy =
  serverState && document.getElementById(DEVICE_COPY_ELEMENT_ID)
    ? import('./offline/device-copy').then(
        (m) => m.adoptDeviceCopy(serverState),
        () => document.getElementById(DEVICE_COPY_ELEMENT_ID)?.remove(),
      )
    : undefined;

// The session is asked for and the chunk of the screen being opened starts downloading
// before React renders anything.
if (!serverState) {
  void refreshSession();
  void preloadScreenFor(window.location.pathname);
  // React takes the page at once below (styles.css: a server-rendered page's taps wait for this).
  container.dataset.started = '';
}

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The served HTML holds this screen pre-rendered (vite.config.ts): React adopts it instead of
// painting it again. A page pre-rendered for another first screen (the service worker's
// offline copy of index.html opened at /login) is replaced.
if (serverState) {
  // Its session, data and screen first: hydrating then renders what the server did, at once,
  // as a transition: in slices between which the browser handles input and paints.
  void Promise.all([adoptServerState(serverState), deviceCopy]).then(() => {
    // The screen's taps are live once it has hydrated (lib/started.ts, styles.css).
    startTransition(() => void hydrateRoot(container, app));
  });
} else if (container.dataset.prerendered === firstScreen(window.location.pathname)) {
  hydrateRoot(container, app);
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}

// The service worker (offline use) and the announcement of a new version, once the page has
// loaded: nothing of them is in the first download (pwa/service-worker.tsx, issue 22). A page
// the server rendered asks for this code after its first paint (after-paint.ts), usually after
// its `load`.
const startServiceWorker = () => void import('./pwa/service-worker').then((m) => m.startServiceWorker());
if (document.readyState === 'complete') startServiceWorker();
else window.addEventListener('load', startServiceWorker, { once: true });
