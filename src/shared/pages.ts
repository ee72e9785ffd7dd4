/**
 * The built HTML page of each address of the web app (vite.config.ts `PRERENDERED`), one list for
 * the server (src/server/pages/pages.ts) and the service worker (src/web/sw.ts): each holds its
 * first screen pre-rendered, and the pages the server renders for a user (/dashboard, /admin,
 * /bici/{numero}, /officina and /officina/{id}: src/server/pages/server-render.ts) list their
 * screen's chunks. Any other address gets index.html (the loading state).
 */
const PAGES: Readonly<Record<string, string>> = {
  '/login': 'login.html',
  '/dashboard': 'dashboard.html',
  '/admin': 'admin.html',
  '/privacy': 'privacy.html',
  // The workshop's screen (issue 48), rendered on the server for its staff (decision 070).
  '/officina': 'officina.html',
};

/** A bike's page (issue 34): `/bici/{numero}`, one segment, whatever the number. */
const BIKE_PAGE = /^\/bici\/([^/]+)$/;
export const BIKE_PAGE_FILE = 'bici.html';

/** A repair ticket's page on the workshop's screen (issue 48): `/officina/{id}`, one segment (decision 070). */
const TICKET_PAGE = /^\/officina\/([^/]+)$/;
export const TICKET_PAGE_FILE = 'intervento.html';

/** The page for every other address: the loading state. */
export const DEFAULT_PAGE = 'index.html';

/** '/dashboard/' as '/dashboard'; '/' stays. */
export const normalisePath = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/** The number's segment of a bike's page (`/bici/07/`: '07'), as the address writes it; none for another address. */
export const bikePageSegment = (pathname: string): string | undefined => BIKE_PAGE.exec(normalisePath(pathname))?.[1];

/** The id's segment of a ticket's page (`/officina/12`: '12'), as the address writes it; none for another address. */
export const ticketPageSegment = (pathname: string): string | undefined => TICKET_PAGE.exec(normalisePath(pathname))?.[1];

/**
 * The ticket's id a ticket's page reads from its segment (features/officina/ticket-page.tsx), the
 * server's render too (decision 070): its digits, or 0 (no ticket) for anything else.
 */
export const ticketPageId = (segment: string): number => (/^\d{1,9}$/.test(segment) ? Number(segment) : 0);

/** The page file of `pathname`, if it has one of its own. */
export function ownPageFile(pathname: string): string | undefined {
  const page = PAGES[normalisePath(pathname)];
  if (page) return page;
  if (bikePageSegment(pathname) !== undefined) return BIKE_PAGE_FILE;
  return ticketPageSegment(pathname) === undefined ? undefined : TICKET_PAGE_FILE;
}

/** The addresses with a page of their own, as the server's routes (Fastify's syntax). */
export const PAGE_ROUTES: readonly string[] = [...Object.keys(PAGES), '/bici/:numero', '/officina/:id'];
