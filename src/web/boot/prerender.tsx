import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from '../app';
import { loadPrivacy } from '../screens';
import { loadClassMerge, recordClassLists, type ClassLists } from '../lib/utils';
import { loadEveryLingua, renderingIn, type Lingua } from '../lib/i18n';

/** A Suspense boundary not finished in this render: a lazy screen met for the first time. */
const UNFINISHED_BOUNDARY = '<!--$!-->';

function renderOnce(path: string, lingua: Lingua): string {
  renderingIn(lingua);
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
 * form at /login, the loading state elsewhere (lib/guards.ts `firstScreen`) — and the privacy
 * notice at /privacy, whose lazily loaded screen is loaded first and rendered again until
 * it is in (as entry-server.tsx does). Once per language: the page of each (issue 36). The browser paints it before any script has arrived;
 * boot/main.tsx then hydrates it. With it, the class lists the render merged: the page carries
 * them (`#bicielis-classi`), so that hydrating it needs no tailwind-merge (decision 048).
 */
export async function render(path: string, lingua: Lingua): Promise<{ html: string; classLists: ClassLists }> {
  await Promise.all([loadPrivacy(), loadClassMerge(), loadEveryLingua()]);
  for (let attempt = 1; ; attempt++) {
    const { result: html, classLists } = recordClassLists(() => renderOnce(path, lingua));
    if (!html.includes(UNFINISHED_BOUNDARY) || attempt >= 4) return { html, classLists };
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
