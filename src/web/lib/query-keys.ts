/**
 * The query keys more than one feature reads, in a module of their own with nothing else in it:
 * a screen that needs a key does not pull the feature that owns its data (the bike's page, decision
 * 068, pulled the dashboard's face, its booking form's hooks and zod with them: 35 KB gzip).
 */

/** GET /api/prenotazioni/user (the default query function GETs the joined key). */
export const OWN_BOOKINGS_QUERY_KEY = ['/api/prenotazioni', 'user'] as const;
/** GET /api/biciclette. Also the prefix of the availability queries and of a bike's page, so one invalidation refreshes them all. */
export const BIKES_QUERY_KEY = ['/api/biciclette'] as const;

/** Every repair ticket query starts with this key (features/officina/queries.ts): a change to one ticket refreshes the lists and the ticket. */
export const TICKETS_KEY = ['interventi'] as const;
/** One ticket's key: its page reads it, the server renders the page under it (decision 070). */
export const ticketQueryKey = (id: number) => [...TICKETS_KEY, 'one', id] as const;
