import type { Lingua } from '../../shared/i18n/index.js';

/**
 * The built HTML page to send for an address of the web app (vite.config.ts `PRERENDERED`):
 * each holds the first screen pre-rendered, and the dashboard's and the admin area's also
 * preload their screen's chunks. Any other address gets index.html (the loading state).
 */
const PAGES: Record<string, string> = {
  '/login': 'login.html',
  '/dashboard': 'dashboard.html',
  '/admin': 'admin.html',
  '/privacy': 'privacy.html',
};

export const DEFAULT_PAGE = 'index.html';

/** The addresses that have a page of their own (each is a route of the app: app.ts). */
export const PAGE_ADDRESSES: readonly string[] = Object.keys(PAGES);

/**
 * The built file of `file` in `lingua` (issue 36): the build writes each page once per language,
 * `login.html` in Italian and `login.en.html` in English (vite.config.ts).
 */
export function inLinguaFile(file: string, lingua: Lingua): string {
  return lingua === 'it' ? file : file.replace(/\.html$/, `.${lingua}.html`);
}

/** The page file for `pathname` ('/dashboard/' as '/dashboard'); `exists` says which files the build has. */
export function pageFor(pathname: string, exists: (file: string) => boolean): string {
  const page = PAGES[pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname];
  return page && exists(page) ? page : DEFAULT_PAGE;
}
