/** The waitlist's face for the dashboard and the server's render; its cards are waitlist-panels.tsx, loaded on demand. */
export { useJoinWait, useWaits, WAITS_QUERY_KEY } from './queries';
export { splitWaits } from './waitlist-model';
