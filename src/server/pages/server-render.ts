import { existsSync, readFileSync } from 'node:fs';
import { inLinguaFile } from './pages.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  SERVER_RENDERED,
  SERVER_STATE_ELEMENT_ID,
  type ServerPageData,
  type ServerPageInput,
  type ServerPageOutput,
} from '../../shared/server-page.js';
import { ADMIN_PAGE_SIZE_DEFAULT } from '../../shared/admin-lists.js';
import { adminBookingsQuerySchema } from '../../shared/schemas/admin.js';
import { adminBookings, adminSummary } from '../modules/admin/index.js';
import { adminDamages, adminOverdue } from '../modules/admin/index.js';
import { fleetReading, listBikes, listUserBookings } from '../modules/bookings/index.js';
import { listTickets, visibleTicket } from '../modules/interventi/index.js';
import { mayOpenWorkshop, sediFor } from '../../shared/staff.js';
import { publicRules } from '../modules/rules/index.js';
import { publicConfig } from '../modules/system/index.js';
import { needsTwoFactorEnrolment, sessionUserBody } from '../modules/users/index.js';
import { adminWaitlist, listWaits } from '../modules/waitlist/index.js';
import { loadUser, type SessionUser } from '../http/auth.js';
import { keptHead, sendPageBytes, type KeptHead } from '../http/precompressed.js';
import { AppError } from '../http/errors.js';
import { BIKE_PAGE_FILE, bikePageSegment, TICKET_PAGE_FILE, ticketPageId, ticketPageSegment } from '../../shared/pages.js';
import { bikeNumberParam } from '../../shared/schemas/bike-page.js';
import { wireCopy } from './wire-copy.js';

/**
 * `/dashboard`, `/admin`, `/bici/{numero}`, `/officina` and `/officina/{id}` rendered on the
 * server with the user's data (issue 22, decisions 027, 068 and 070): the built renderer
 * (dist/ssr/entry-server.js, src/web/boot/entry-server.tsx) renders the
 * app's own components with the answers the screen would fetch, read here from the services
 * (no HTTP), and the HTML goes into the pre-rendered page's place in its built file, with the
 * state the browser hydrates from. Anonymous visitors, a user at /admin, and any failure get
 * the pre-rendered page as before.
 */
export interface PageRenderer {
  renderPage(input: ServerPageInput): Promise<ServerPageOutput>;
}

/**
 * The renderer built by `npm run build`, loaded once at start; none when it is not built (the
 * pre-rendered pages serve) or does not load (logged).
 */
export async function loadPageRenderer(file: string, log: Pick<FastifyBaseLogger, 'warn' | 'error'>): Promise<PageRenderer | undefined> {
  if (!existsSync(file)) {
    log.warn({ file }, 'render sul server non disponibile (npm run build): /dashboard e /admin servono la pagina pre-renderizzata');
    return undefined;
  }
  try {
    const module = (await import(pathToFileURL(file).href)) as Partial<PageRenderer>;
    const { renderPage } = module;
    if (typeof renderPage !== 'function') throw new Error('renderPage mancante');
    return { renderPage };
  } catch (err) {
    log.error({ err, file }, 'render sul server non caricato: /dashboard e /admin servono la pagina pre-renderizzata');
    return undefined;
  }
}

/** The pages the server renders for a user: the file of each, and who may have it rendered. */
const SERVER_PAGES: Record<
  string,
  { file: string; screen: ServerPageData['screen']; allowed: (user: SessionUser, config: { admin2faRequired: boolean }) => boolean }
> = {
  'dashboard.html': { file: 'dashboard.html', screen: 'dashboard', allowed: () => true },
  // Anyone else at /admin gets the pre-rendered page, and the browser's guard sends them on. A staff
  // member (issue 48) too: the browser loads their tabs, kept to their sedi by the API; the render
  // would read every sede's.
  'admin.html': { file: 'admin.html', screen: 'admin', allowed: (user, config) => user.ruolo === 'admin' && !needsTwoFactorEnrolment(user, config) },
  // A bike's page (decision 068), for anyone logged in, as its route guard allows.
  [BIKE_PAGE_FILE]: { file: BIKE_PAGE_FILE, screen: 'bike', allowed: () => true },
  // The workshop's screen and a ticket's page (decision 070): for whom the router opens them
  // (staff who see the tickets, or an admin); anyone else gets the built page, and the router's
  // unknown path. The data are kept to the user's sedi, as the API keeps them.
  // An admin who must enrol a second factor first is sent to /profilo by the router, as at /admin.
  'officina.html': { file: 'officina.html', screen: 'officina', allowed: (user, config) => mayOpenWorkshop(user) && !needsTwoFactorEnrolment(user, config) },
  [TICKET_PAGE_FILE]: { file: TICKET_PAGE_FILE, screen: 'ticket', allowed: (user, config) => mayOpenWorkshop(user) && !needsTwoFactorEnrolment(user, config) },
};

/** Whether the answer for this built page depends on the session cookie. */
export const isServerRenderedPage = (file: string): boolean => file in SERVER_PAGES;

const ROOT_OPEN = /<div id="root" data-prerendered="[^"]*">/;
/** Every page's preload of the session (vite.config.ts): a rendered page carries its user, so nothing reads it. */
const SESSION_PRELOAD = /<link rel="preload" href="\/api\/current-user"[^>]*>/;

/** A built page cut around the inside of its `#root` (the pre-rendered screen). */
interface Template {
  /** The page up to the inside of `#root`, its opening tag rewritten. */
  before: string;
  /** From the `</div>` that closes `#root` to the end. */
  after: string;
  /**
   * `before` and `after` cut where a render's own text goes, in UTF-8 once: a render encodes only
   * its own part. `head` is `before` up to its `</head>` (the styles, the same on every answer:
   * kept with its gzip, decision 073), `afterHead` the rest of `before`.
   */
  bytes: { head: KeptHead; afterHead: string; closeRoot: string; tail: Buffer };
}

/**
 * Splits a built page at its `#root`: what comes before its content (the opening tag
 * rewritten to say the page was rendered on the server) and what comes after (its closing
 * tag on). The content is React's output, so its `<div>`s are balanced. Null when the page is
 * not the shape the build writes.
 */
export function splitTemplate(html: string): Template | null {
  const open = ROOT_OPEN.exec(html);
  if (!open) return null;
  const start = open.index + open[0].length;
  const tags = /<div\b|<\/div>/g;
  tags.lastIndex = start;
  let depth = 1;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[0] === '</div>' ? -1 : 1;
    if (depth === 0) {
      const before = `${html.slice(0, open.index).replace(SESSION_PRELOAD, '')}<div id="root" data-prerendered="${SERVER_RENDERED}">`;
      const after = html.slice(tag.index);
      const close = '</div>'.length;
      // The preload of a lock's code goes before the first `</head>` (pageRest): the head is cut there.
      const headEnd = before.indexOf('</head>');
      if (headEnd < 0) return null;
      const head = keptHead(Buffer.from(before.slice(0, headEnd)));
      const bytes = { head, afterHead: before.slice(headEnd), closeRoot: after.slice(0, close), tail: Buffer.from(after.slice(close)) };
      return { before, after, bytes };
    }
  }
  return null;
}

/** A lock code's box that waits for its code (features/dashboard/booking-item.tsx `LockCode`): the booking's id. */
const EARLY_CODE_BOX = /<div [^>]*data-early-code="(\d+)"/g;

/**
 * At the rack (decision 067), the question for the lock's code, in the page's head: the browser
 * sends it as it reads the head, and boot/early-controls.ts takes its answer (the same request:
 * `credentials: 'include'`, no other header). Only the booking's id is in the page, never its code.
 */
export function earlyCodePreloads(html: string): string {
  const ids = new Set([...html.matchAll(EARLY_CODE_BOX)].map((m) => m[1]!));
  return [...ids].map((id) => `<link rel="preload" href="/api/prenotazioni/${id}/codice" as="fetch" crossorigin="use-credentials">`).join('');
}

/**
 * The page after its head (`template.bytes.head.bytes`), as the bytes sent: the server's HTML in `#root`
 * and, after it, the state as a JSON script (never executed). The template's parts were encoded
 * once, and only the render's own text is encoded here (a page is 100–150 KB, half of it the
 * head's styles).
 */
export function pageRest(template: Template, page: ServerPageOutput): Buffer {
  // At the rack the head ends with the preload of the lock's code.
  const preloads = earlyCodePreloads(page.html);
  // `</div>` of #root first, then the state: the script is not inside what React hydrates.
  const own = Buffer.from(
    `${preloads}${template.bytes.afterHead}${page.html}${template.bytes.closeRoot}<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${page.state}</script>`,
  );
  return Buffer.concat([own, template.bytes.tail], own.length + template.bytes.tail.length);
}

/** The page's text, as `sendRendered` sends it. */
export const fillTemplate = (template: Template, page: ServerPageOutput): string =>
  template.bytes.head.bytes.toString('utf8') + pageRest(template, page).toString('utf8');

/**
 * The bike's number of `/bici/{numero}`, when the address writes it as the page itself does
 * (features/bike/bike-page.tsx keys its query by `encodeURIComponent(numero)`) and the API would
 * take it (`bikeNumberParam`): '07', not an encoded or odd one, which the browser's page then asks
 * for itself.
 */
export function plainBikeNumber(pathname: string): string | undefined {
  const segment = bikePageSegment(pathname);
  if (segment === undefined) return undefined;
  let numero: string;
  try {
    numero = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return encodeURIComponent(numero) === segment && bikeNumberParam.safeParse(numero).success ? numero : undefined;
}

/**
 * The answers the screen reads first, from the services, as the API would send them (JSON).
 * Null when the page has nothing to render for the address (a bike that is not there: the
 * browser's page says so, as it does for the API's 404).
 */
async function pageData(app: FastifyInstance, user: SessionUser, screen: ServerPageData['screen'], pathname: string): Promise<ServerPageData | null> {
  const { database, clock, config, rulesCache } = app.deps;
  const deps = { db: database.db, clock, config, rulesCache };
  let data: ServerPageData;
  if (screen === 'bike') {
    const numero = plainBikeNumber(pathname);
    if (numero === undefined) return null;
    try {
      const [bike, publicCfg] = await Promise.all([fleetReading.bikePage(deps, user.id, numero), publicConfig(config, deps)]);
      data = { screen, numero, bike, config: publicCfg };
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 404) return null;
      throw err;
    }
  } else if (screen === 'officina') {
    // The open tickets of the sedi in the user's reach, as GET /api/interventi?stato=aperti lists them.
    const ticketSedi = sediFor(user, 'interventi');
    const [tickets, publicCfg] = await Promise.all([
      listTickets(database.db, ticketSedi === 'all' ? null : ticketSedi, { stato: 'aperti' }),
      publicConfig(config, deps),
    ]);
    data = { screen, tickets, config: publicCfg };
  } else if (screen === 'ticket') {
    // The id as the page reads it (`/officina/abc`, or another sede's ticket: the browser's page says it is not there).
    const id = ticketPageId(ticketPageSegment(pathname) ?? '');
    if (id === 0) return null;
    const [ticket, publicCfg] = await Promise.all([visibleTicket(database.db, user, id), publicConfig(config, deps)]);
    if (!ticket) return null;
    data = { screen, ticket, config: publicCfg };
  } else if (screen === 'dashboard') {
    const [bookings, bikes, publicCfg, rules, waits] = await Promise.all([
      listUserBookings(deps, user.id),
      listBikes(deps),
      publicConfig(config, deps),
      publicRules(deps, user.id, { home: user.sedeId }),
      listWaits(deps, user.id),
    ]);
    data = { screen, bookings, bikes, config: publicCfg, rules, waits };
  } else {
    // The open tickets of the sedi in the user's reach (an admin: every sede), as GET /api/interventi lists them.
    const ticketSedi = sediFor(user, 'interventi');
    const [summary, publicCfg, overdue, waitlist, damages, bookings, tickets] = await Promise.all([
      adminSummary(deps),
      publicConfig(config, deps),
      adminOverdue(deps),
      adminWaitlist(deps),
      adminDamages(deps),
      // The first page of the bookings tab, as the tab asks for it (stato=tutti&page=1&pageSize=50).
      adminBookings(deps, adminBookingsQuerySchema.parse({ stato: 'tutti', page: '1', pageSize: String(ADMIN_PAGE_SIZE_DEFAULT) })),
      listTickets(database.db, ticketSedi === 'all' ? null : ticketSedi, { stato: 'aperti' }),
    ]);
    data = { screen, summary, config: publicCfg, overdue, waitlist, damages, bookings: { items: bookings.rows, total: bookings.total }, tickets };
  }
  // Instants become ISO strings, exactly what the browser would have parsed from the API.
  return wireCopy(data) as ServerPageData;
}

/**
 * Serves one of the pages the server renders for a logged-in user, when it applies: returns
 * false (and sends nothing) for anonymous visitors, a user at /admin, a bike that is not there, a page without a
 * renderer, or any failure — logged —, and the caller sends the pre-rendered page.
 */
export function serverRenderedPages(app: FastifyInstance, webRoot: string, renderer: PageRenderer | undefined) {
  const templates = new Map<string, Template | null>();
  const templateOf = (file: string): Template | null => {
    if (!templates.has(file)) {
      const full = path.join(webRoot, file);
      const template = existsSync(full) ? splitTemplate(readFileSync(full, 'utf8')) : null;
      if (!template) app.log.warn({ file }, 'pagina senza #root pre-renderizzato: servita com’è');
      templates.set(file, template);
    }
    return templates.get(file) ?? null;
  };

  return async function sendRendered(request: FastifyRequest, reply: FastifyReply, file: string): Promise<boolean> {
    const page = SERVER_PAGES[file];
    if (!renderer || !page || request.method !== 'GET') return false;
    try {
      const user = await loadUser(request, reply);
      if (!user || !page.allowed(user, app.deps.config)) return false;
      // The page in the account's language (issue 36): its template is the build's page in it.
      const template = templateOf(inLinguaFile(page.file, user.lingua)) ?? templateOf(page.file);
      if (!template) return false;
      const queryAt = request.url.indexOf('?');
      const pathname = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
      const data = await pageData(app, user, page.screen, pathname);
      if (!data) return false;
      const input: ServerPageInput = {
        pathname,
        search: queryAt < 0 ? '' : request.url.slice(queryAt),
        user: sessionUserBody(user, app.deps.config),
        now: app.deps.clock.now().getTime(),
        data,
      };
      const rest = pageRest(template, await renderer.renderPage(input));
      // The user's own data: no cache may keep it, nor give it to another cookie.
      reply.header('Cache-Control', 'private, no-store').type('text/html; charset=utf-8');
      sendPageBytes(request, reply, template.bytes.head, rest);
      return true;
    } catch (err) {
      request.log.error({ err, page: file }, 'render sul server non riuscito: servita la pagina pre-renderizzata');
      return false;
    }
  };
}
