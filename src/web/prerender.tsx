import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from './app';

/**
 * The HTML of the app's first render at `path`, made at build time (vite.config.ts,
 * `prerenderPlugin`): what the screen shows while the session is being read — the login
 * form at /login, the loading state elsewhere (routes.tsx `firstScreen`). The browser paints
 * it before any script has arrived; main.tsx then hydrates it.
 */
export function render(path: string): string {
  return renderToString(
    <StrictMode>
      <Router ssrPath={path}>
        <App />
      </Router>
    </StrictMode>,
  );
}
