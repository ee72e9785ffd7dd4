/**
 * The built HTML page of each address of the web app (vite.config.ts `PRERENDERED`), one list for
 * the server (src/server/pages/pages.ts) and the service worker (src/web/sw.ts): each holds its
 * first screen pre-rendered, and the pages the server renders for a user (/dashboard, /admin,
 * /bici/{numero}: src/server/pages/server-render.ts) list their screen's chunks. Any other address
 * gets index.html (the loading state).
 */
const PAGES: Readonly<Record<string, string>> = {
  '/login': 'login.html',
  '/dashboard': 'dashboard.html',
  '/admin': 'admin.html',
  '/privacy': 'privacy.html',
};

/** A bike's page (issue 34): `/bici/{numero}`, one segment, whatever the number. */
const BIKE_PAGE = /^\/bici\/([^/]+)$/;
export const BIKE_PAGE_FILE = 'bici.html';

/** The page for every other address: the loading state. */
export const DEFAULT_PAGE = 'index.html';

/** '/dashboard/' as '/dashboard'; '/' stays. */
export const normalisePath = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/** The number's segment of a bike's page (`/bici/07/`: '07'), as the address writes it; none for another address. */
export const bikePageSegment = (pathname: string): string | undefined => BIKE_PAGE.exec(normalisePath(pathname))?.[1];

/** The page file of `pathname`, if it has one of its own. */
export function ownPageFile(pathname: string): string | undefined {
  return PAGES[normalisePath(pathname)] ?? (bikePageSegment(pathname) === undefined ? undefined : BIKE_PAGE_FILE);
}

/** The addresses with a page of their own, as the server's routes (Fastify's syntax). */
export const PAGE_ROUTES: readonly string[] = [...Object.keys(PAGES), '/bici/:numero'];
