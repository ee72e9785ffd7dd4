import { dehydrate, type QueryKey } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import type { ServerPageData, ServerPageInput, ServerPageOutput } from '../../shared/server-page';
import { zoneTableAround } from '../../shared/time';
import { App } from '../app';
import * as admin from '../features/admin';
import { BIKES_QUERY_KEY, OWN_BOOKINGS_QUERY_KEY, PUBLIC_RULES_QUERY_KEY } from '../features/dashboard';
import { WAITS_QUERY_KEY } from '../features/waitlist';
import { bikePageQueryKey } from '../features/bike/bike-page';
import { OPEN_TICKETS_QUERY_KEY } from '../features/officina/tickets-panels';
import { PUBLIC_CONFIG_QUERY_KEY } from '../lib/public-config';
import { ticketQueryKey } from '../lib/query-keys';
import { queryClient } from '../lib/query-client';
import { setRenderedAt } from '../lib/render-clock';
import { serverStateJson } from './server-state';
import { seedSession } from '../lib/session';
import { loadClassMerge, recordClassLists } from '../lib/utils';
import { loadAdmin, loadBikePage, loadDashboard, loadOfficina, loadTicket } from '../screens';
import { loadEveryLingua, renderingIn } from '../lib/i18n';

/**
 * The server's renderer of `/dashboard`, `/admin`, `/bici/{numero}`, `/officina` and
 * `/officina/{id}` for a logged-in user (issue 22, decisions 027, 068 and 070), built by `vite
 * build --ssr` into dist/ssr and loaded once by the server at start (src/server/pages/server-render.ts). It renders the app itself — the same components as the
 * browser — at the page's address, with the session store seeded with the user and the query
 * cache filled with the answers the screen would fetch, under the keys the screen reads.
 *
 * The session store, the render clock and the query client are the app's module singletons,
 * so a render sets them, renders synchronously (renderToString) and clears them again: no
 * other request runs in between.
 */

/** The answers of a screen under the query keys its components read. */
function queriesOf(data: ServerPageData): [QueryKey, unknown][] {
  switch (data.screen) {
    case 'dashboard':
      return [
        [OWN_BOOKINGS_QUERY_KEY, data.bookings],
        [BIKES_QUERY_KEY, data.bikes],
        [PUBLIC_CONFIG_QUERY_KEY, data.config],
        [PUBLIC_RULES_QUERY_KEY, data.rules],
        [WAITS_QUERY_KEY, data.waits],
      ];
    case 'admin':
      return [
        [admin.ADMIN_SUMMARY_QUERY_KEY, data.summary],
        [PUBLIC_CONFIG_QUERY_KEY, data.config],
        [admin.ADMIN_OVERDUE_QUERY_KEY, data.overdue],
        [admin.ADMIN_WAITLIST_QUERY_KEY, data.waitlist],
        [admin.ADMIN_DAMAGES_QUERY_KEY, data.damages],
        [OPEN_TICKETS_QUERY_KEY, data.tickets],
        [admin.adminBookingsQueryKey(admin.FIRST_BOOKINGS_PAGE), data.bookings],
      ];
    case 'bike':
      return [
        [bikePageQueryKey(data.numero), data.bike],
        [PUBLIC_CONFIG_QUERY_KEY, data.config],
      ];
    case 'officina':
      return [
        [OPEN_TICKETS_QUERY_KEY, data.tickets],
        [PUBLIC_CONFIG_QUERY_KEY, data.config],
      ];
    case 'ticket':
      return [
        [ticketQueryKey(data.ticket.id), data.ticket],
        [PUBLIC_CONFIG_QUERY_KEY, data.config],
      ];
  }
}

/**
 * A Suspense boundary the render could not finish (React writes `<!--$!-->` and its fallback,
 * for the browser to render): a lazily loaded component met for the first time — its module
 * resolves a moment later — or a component that threw.
 */
const UNFINISHED_BOUNDARY = '<!--$!-->';
/** Renders of one page before giving up (the first render of each lazily loaded component waits for it once). */
const MAX_RENDERS = 4;

/**
 * The modules of every lazily loaded part these screens can show at once (the screens, the
 * waitlist's cards, /admin's tabs named by the address), loaded before the first render: a
 * lazy component met for the first time then resolves within the turn of the event loop.
 */
const ready = Promise.all([
  // The class lists the render merges go to the browser with the page (lib/utils.ts).
  loadClassMerge(),
  // Both languages: each render is in its user's (issue 36).
  loadEveryLingua(),
  loadDashboard(),
  loadAdmin(),
  loadBikePage(),
  loadOfficina(),
  loadTicket(),
  import('../components/query-provider'),
  import('../features/dashboard/dashboard-page').then((m) => m.loadWaitlist()),
  import('../features/admin/admin-page').then((m) => m.loadEveryTab()),
]);

function renderOnce(input: ServerPageInput): ServerPageOutput {
  seedSession(input.user);
  setRenderedAt(input.now);
  renderingIn(input.user.lingua);
  try {
    for (const [queryKey, data] of queriesOf(input.data)) queryClient.setQueryData(queryKey, data, { updatedAt: input.now });
    const queries = dehydrate(queryClient);
    const { result: html, classLists } = recordClassLists(() =>
      renderToString(
        <StrictMode>
          <Router ssrPath={`${input.pathname}${input.search}`}>
            <App />
          </Router>
        </StrictMode>,
      ),
    );
    // The college's offsets around now: the browser opens the page without an Intl object (shared/time.ts).
    const zone = zoneTableAround(input.data.config.timeZone, input.now);
    const state = serverStateJson({ user: input.user, now: input.now, queries, zone, classLists });
    return { html, state };
  } finally {
    queryClient.clear();
    setRenderedAt(null);
    seedSession(undefined);
  }
}

/**
 * The page's HTML (the inside of `#root`) and the state the browser starts from. Rejects when
 * the render does not complete: the server then sends the pre-rendered page.
 */
export async function renderPage(input: ServerPageInput): Promise<ServerPageOutput> {
  await ready;
  for (let attempt = 1; ; attempt++) {
    const page = renderOnce(input);
    if (!page.html.includes(UNFINISHED_BOUNDARY)) return page;
    if (attempt >= MAX_RENDERS) throw new Error(`render incompleto di ${input.pathname} dopo ${attempt} tentativi (un componente ha sollevato un errore o non si è caricato)`);
    // What the render met for the first time resolves within this turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
