/** The dashboard's face for the other features and the server's render; its screen is dashboard-page.tsx. */
export { BIKES_QUERY_KEY, OWN_BOOKINGS_QUERY_KEY, PUBLIC_RULES_QUERY_KEY } from './queries';
export { WindowBikePicker } from './bike-picker';
export { dayHoursText, type DayStatus, type FormRules } from './booking-rules';
export { useBookingWindow, type BookingWindow } from './use-booking-window';
