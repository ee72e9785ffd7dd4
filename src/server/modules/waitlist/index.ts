/*
 * The waitlist module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { CLAIM_BATCH, claimFreedTime, FREED_TIME_CHANNEL, FreedTimeDispatcher, passAndAnnounce } from './dispatcher.js';
export { openAsOf, unservedAsOf, WAITLIST_LOCK } from './offers.js';
export { adminWaitlist, listWaits, putFirstInLine } from './service.js';
export { anonymiseWaitsEndedBefore, anonymiseWaitsOf } from './erasure.js';
