/** The keys of /admin's answers, for the server's render; its screen is admin-page.tsx. */
export { ADMIN_DAMAGES_QUERY_KEY, ADMIN_OVERDUE_QUERY_KEY, ADMIN_SUMMARY_QUERY_KEY, ADMIN_WAITLIST_QUERY_KEY, adminBookingsQueryKey, FIRST_BOOKINGS_PAGE } from './queries';
