/*
 * The bookings module's public face: what other modules may use. It owns `prenotazioni`
 * (bookings and the waitlist's offers, `offerta`): others change a booking only through these
 * functions, in their transaction when they pass one.
 * (The life cycle, lifecycle.ts, is still imported directly while it moves to the jobs, issue 31.)
 */
export {
  availableBikes,
  bookingDto,
  bookingPhase,
  createBooking,
  getUserBooking,
  pickupFrom,
  listBikes,
  listUserBookings,
  resolveWindow,
  type BookingDeps,
  type BookingReadDeps,
  type BookingUser,
  type CreateBookingInput,
} from './service.js';
export { cancelBooking, cancelBookings, type CancelDeps, type CancelReason, type RefundRule } from './cancel.js';
export { fairUseGate, USER_BOOKING_LOCK } from './gate.js';
export { suspensionRefusal } from './refusals.js';
export { bookOffer, withdrawOffer, withdrawOffersOf, withdrawOtherOffers } from './offer-booking.js';
export {
  anonymiseBookingsOf,
  anonymiseConcludedBefore,
  insertBookingRows,
  insertPastBookings,
  type PastBooking,
  type PastBookingRow,
} from './rows.js';
export {
  claimBikeAbsentNotices,
  freeBikeFor,
  insertPickupDamageReport,
  markWaitingForBike,
  moveBooking,
  type MovableBooking,
  type MoveCause,
} from './relocate.js';
export { endRide, lockBikeOfBooking } from './ride.js';
export {
  applyLifecycle,
  bikeOutAtNoShow,
  bikeOutNow,
  bikeStateAsOf,
  BOOKING_STATE_COLUMNS,
  bookingAsOf,
  bringLifecycleUpToDate,
  HEAL_HORIZON_HOURS,
  P_COLUMNS,
  PICKUP_EARLY_MINUTES,
  voidAsOf,
} from './lifecycle.js';
export { damageAdminEmail, italianDate, notice, overdueAdminsEmail } from './emails.js';
export { sendRideNotices } from './notices.js';
export { claimUnannouncedOffers, deleteOffersOfUsersGone, deleteRunOutOffers, deleteWithdrawnOffers, insertOffer } from './offer-rows.js';
export { purgeOldOfflineActions } from './offline-actions.js';
export { pruneAvailabilityChanges } from './availability.js';
export { deleteOfflineActionsOf, forgetDamageReportsBefore, forgetDamageReportsOf } from './erasure.js';
export { resolveDamageReport } from './ride.js';
export { MOVABLE_BOOKING_COLUMNS, type BookingPersonBikeRow, type MovableBookingRow } from './booking-row.js';
export { fleetChangedSince, fleetNow, readFleetNow, type FleetNowDeps, type FleetNowReading } from './fleet-now.js';
