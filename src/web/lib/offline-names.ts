/**
 * Names the page and the service worker (src/web/sw.ts) must agree on (issue 22).
 */

/** The Background Sync tag under which the queued ride steps are sent (offline/queue.ts). */
export const SYNC_TAG = 'bicielis-azioni';

/** The BroadcastChannel on which any context says that the queue changed. */
export const QUEUE_CHANNEL = 'bicielis-azioni';

/**
 * The service worker's runtime cache of the pages that may hold the user's data (`/dashboard`,
 * `/admin`: each painted from its copy on a repeat open, then refreshed): logout deletes it. Every other cache is the app shell.
 */
export const PAGES_CACHE = 'bicielis-pagine';

/**
 * Set in localStorage while this device keeps a user's data for offline use: the session
 * store (lib/session.ts) looks at it before loading anything offline-related.
 */
export const DEVICE_DATA_MARK = 'bicielis:dati-offline';

/**
 * The element the service worker adds to the device's copy of a page it serves (offline/page-copy.ts):
 * the copy's mark, and the line saying it is being refreshed. The page removes it once refreshed.
 */
export const DEVICE_COPY_ELEMENT_ID = 'bicielis-copia';
