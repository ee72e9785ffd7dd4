/* The waitlist module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { CLAIM_BATCH, claimFreedTime, FREED_TIME_CHANNEL, FreedTimeDispatcher, passAndAnnounce } from './dispatcher.js';
export { openAsOf, unservedAsOf, WAITLIST_LOCK } from './offers.js';
export { adminWaitlist, listWaits, putFirstInLine } from './service.js';
export { anonymiseWaitsEndedBefore, anonymiseWaitsOf } from './erasure.js';
export { withdrawOffersToLine } from './withdraw.js';
