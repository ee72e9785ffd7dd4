import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from '../app';
import { loadPrivacy } from '../screens';

/** A Suspense boundary not finished in this render: a lazy screen met for the first time. */
const UNFINISHED_BOUNDARY = '<!--$!-->';

function renderOnce(path: string): string {
  return renderToString(
    <StrictMode>
      <Router ssrPath={path}>
        <App />
      </Router>
    </StrictMode>,
  );
}

/**
 * The HTML of the app's first render at `path`, made at build time (vite.config.ts,
 * `prerenderPlugin`): what the screen shows while the session is being read — the login
 * form at /login, the loading state elsewhere (routes.tsx `firstScreen`) — and the privacy
 * notice at /privacy, whose lazily loaded screen is loaded first and rendered again until
 * it is in (as entry-server.tsx does). The browser paints it before any script has arrived;
 * boot/main.tsx then hydrates it.
 */
export async function render(path: string): Promise<string> {
  await loadPrivacy();
  for (let attempt = 1; ; attempt++) {
    const html = renderOnce(path);
    if (!html.includes(UNFINISHED_BOUNDARY) || attempt >= 4) return html;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
