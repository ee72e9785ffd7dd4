import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { refreshSession } from './lib/session';
import { firstScreen } from './routes';
import { preloadScreenFor } from './screens';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root mancante in index.html');

// The session is asked for and the chunk of the screen being opened starts downloading
// before React renders anything.
void refreshSession();
preloadScreenFor(window.location.pathname);

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The served HTML holds this screen pre-rendered (vite.config.ts): React adopts it instead of
// painting it again. A page pre-rendered for another first screen (the service worker's
// offline copy of index.html opened at /login) is replaced.
if (container.dataset.prerendered === firstScreen(window.location.pathname)) {
  hydrateRoot(container, app);
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}

// The service worker (offline use) and the announcement of a new version, once the page has
// loaded: nothing of them is in the first download (pwa/service-worker.tsx, issue 22).
window.addEventListener('load', () => void import('./pwa/service-worker').then((m) => m.startServiceWorker()), { once: true });
