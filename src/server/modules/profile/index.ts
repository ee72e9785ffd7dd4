/* The profile module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { profilePasswordFailures } from './routes.js';
export { calendarFeedUrl, hashCalendarToken, newCalendarToken } from './calendar-token.js';
