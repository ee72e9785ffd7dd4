import type { SessionUser } from '../../shared/api-types';
import { SERVER_STATE_ELEMENT_ID } from '../../shared/server-page';
import type { ZoneTable } from '../../shared/zone-table';
import { setRenderedAt } from '../lib/render-clock';
import { seedSession } from '../lib/session';
import { adoptClassLists, type ClassLists } from '../lib/utils';

/**
 * What a page rendered on the server for its user (`/dashboard`, `/admin`: issue 22, decision
 * 027) starts from in the browser: the user it was rendered for, the server's clock, and the
 * answers it was rendered with as TanStack Query's dehydrated cache. The server writes it as
 * JSON in `<script type="application/json" id="bicielis-state">` (not executed: the CSP's
 * `script-src 'self'` has nothing to say about it) next to the HTML.
 */
export interface ServerState {
  user: SessionUser;
  now: number;
  /** `dehydrate(queryClient)`: read by `hydrate` in boot/server-queries.ts. */
  queries: unknown;
  /** The college's time zone around `now` (shared/zone-table.ts): no `Intl` object is needed to open the page. Checked where it is used. */
  zone?: ZoneTable;
  /** The class lists the render merged (lib/utils.ts). Checked where it is used. */
  classLists?: ClassLists;
}

/**
 * The state as JSON that is safe inside a `<script>` element: no `<` (so no `</script>` and
 * no `<!--`), `>` and `&` can end or open anything; nor U+2028/U+2029. JSON.parse reads the
 * escapes back.
 */
export function serverStateJson(state: ServerState): string {
  return JSON.stringify(state).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The state the server wrote into this page, or null (a page not rendered for a user, or a state unreadable). */
export function readServerState(): ServerState | null {
  const text = document.getElementById(SERVER_STATE_ELEMENT_ID)?.textContent;
  return text ? parseServerState(text) : null;
}

/** A page's state from its JSON, or null when it is not one. */
export function parseServerState(text: string): ServerState | null {
  try {
    const state = JSON.parse(text) as Partial<ServerState> | null;
    if (!state || typeof state.now !== 'number' || typeof state.user?.id !== 'number' || typeof state.queries !== 'object') return null;
    return state as ServerState;
  } catch {
    return null;
  }
}

/**
 * Makes the browser's app what the server rendered, before it hydrates: the session is the
 * page's user (no GET /api/current-user), the render clock is the server's until hydrated
 * (lib/render-clock.ts), the query cache holds the answers the HTML shows (so no screen
 * fetches them again, nor renders a loading state), and the screen's lazily loaded chunks
 * have arrived (the page preloads them), so hydration does not wait for them midway. Never
 * rejects: a chunk that did not arrive is asked for again when the screen renders.
 * `loadScreen`: the screen's chunks (screens.tsx `preloadScreenFor`, passed by main.tsx).
 */
export async function adoptServerState(state: ServerState, loadScreen: () => Promise<unknown>): Promise<void> {
  // The class lists the server merged: hydrating merges none itself (lib/utils.ts).
  adoptClassLists(state.classLists);
  seedSession(state.user);
  setRenderedAt(state.now);
  const serverQueries = import('./server-queries');
  serverQueries.catch(() => undefined); // awaited below, where a failure is handled
  await nextTask();
  try {
    const { hydrateQueries, adoptZoneTable } = await serverQueries;
    // The page's first Intl object would load ICU's data (~25 ms on this 2-core machine, about
    // four times that on a slow phone): the screens' times come from the page's zone table and
    // their euros are written out (shared/money.ts), so none is made (docs/performance.md).
    adoptZoneTable(state.zone);
    // Before the screen's chunk: the dashboard's loader asks for its data once it has loaded,
    // and must find it already there.
    hydrateQueries(state.queries);
    await loadScreen();
  } catch {
    // The screen loads (and fetches what it lacks) as it renders.
  }
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
