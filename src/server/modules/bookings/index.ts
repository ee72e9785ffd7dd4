/*
 * The bookings module's public face: what other modules may use. It owns `prenotazioni`
 * (bookings and the waitlist's offers, `offerta`): others change a booking only through these
 * functions, in their transaction when they pass one. The groups below are each one other
 * module's (or layer's) way in.
 */
import { pruneAvailabilityChanges } from './availability.js';
import { notice, overdueAdminsEmail } from './emails.js';
import { bikePage } from './bike-page.js';
import { deleteOfflineActionsOf } from './erasure.js';
import { fleetChangedSince, readFleetNow } from './fleet-now.js';
import { applyLifecycle, AS_OF_PLACEHOLDERS, asOfValues, bikeOutAtNoShow, bikeOutNow, bikeStateAsOf, bookingAsOf, HEAL_HORIZON_HOURS, minutesInText, PICKUP_EARLY_MINUTES, preparedPerMinutes, voidAsOf } from './lifecycle.js';
import { sendRideNotices } from './notices.js';
import { bookOffer, withdrawOffer, withdrawOffersOf, withdrawOtherOffers } from './offer-booking.js';
import { claimUnannouncedOffers, deleteOffersOfUsersGone, deleteRunOutOffers, deleteWithdrawnOffers, insertOffer } from './offer-rows.js';
import { purgeOldOfflineActions } from './offline-actions.js';
import { claimBikeAbsentNotices, freeBikeFor, markWaitingForBike, moveBooking } from './relocate.js';
import { endRide, lockBikeOfBooking, pickUp, returnBike } from './ride.js';
import { anonymiseBookingsOf, anonymiseConcludedBefore, insertBookingRows, insertPastBookings } from './rows.js';
import { pickupFrom } from './service.js';

export {
  availableBikes,
  bookingPhase,
  createBooking,
  getUserBooking,
  listBikes,
  listUserBookings,
  resolveWindow,
  type BookingDeps,
  type BookingUser,
} from './service.js';
export { cancelBookings } from './cancel.js';
export { USER_BOOKING_LOCK } from './gate.js';
export { suspensionRefusal } from './refusals.js';
export { bringLifecycleUpToDate } from './lifecycle.js';
export { movableBookings, type BookingPersonBikeRow, type MovableBookingRow } from './booking-row.js';

/** A booking's state as of an instant, for reads (decision 035): SQL conditions on `p` (or the columns given). */
export const asOf = { bookingAsOf, voidAsOf, bikeStateAsOf, bikeOutNow, bikeOutAtNoShow, HEAL_HORIZON_HOURS, PICKUP_EARLY_MINUTES, AS_OF_PLACEHOLDERS, asOfValues, minutesInText, preparedPerMinutes };

/** The waitlist's offers are rows of `prenotazioni`: the waitlist makes, books and withdraws them through these. */
export const offerRows = {
  bookOffer,
  withdrawOffer,
  withdrawOffersOf,
  withdrawOtherOffers,
  claimUnannouncedOffers,
  deleteOffersOfUsersGone,
  deleteRunOutOffers,
  deleteWithdrawnOffers,
  insertOffer,
};

/** The fleet's heal and the planned maintenance move bookings, free bikes and tell people through these. */
export const relocation = { moveBooking, freeBikeFor, markWaitingForBike, claimBikeAbsentNotices, lockBikeOfBooking, pickupFrom };

/** A ride ended, or picked up and brought back on the person's behalf, by the desk (issue 48; a damage report is a repair ticket: the interventi module). */
export const rideDesk = { endRide, pickUp, returnBike };

/** Erasure and retention (privacy): a person's bookings made anonymous, their offline actions forgotten. */
export const bookingsErasure = { anonymiseBookingsOf, anonymiseConcludedBefore, deleteOfflineActionsOf };

/** The minute and hourly jobs' part of the bookings. */
export const bookingJobs = { applyLifecycle, pruneAvailabilityChanges, purgeOldOfflineActions, sendRideNotices };

/** The emails the fleet's notices share with the bookings'. */
export const bookingEmails = { notice, overdueAdminsEmail };

/** The fleet's state now, for the rack board (issue 34), and one bike's, for its page rendered on the server (decision 068). */
export const fleetReading = { readFleetNow, fleetChangedSince, bikePage };

/** The demo's rides (the seed): written as given, dated in the past or now. */
export const demoRows = { insertBookingRows, insertPastBookings };
