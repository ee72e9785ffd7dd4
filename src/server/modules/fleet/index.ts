/*
 * The fleet module's public face (issue 35, decision 045): the fleet that heals itself. It owns
 * no table: every booking it moves or cancels, every bike it marks, every wait it opens is
 * written by that table's owner (bookings, bikes, waitlist), in the pass's transaction.
 */
export { ABSENT_NOTICE_MINUTES, emptyOutcome, healFleet, healInTransaction, healMinutes, type FleetDeps, type HealOutcome } from './heal.js';
export { fleetAdminLines, fleetPass, movedSentence, tellHealOutcome } from './notices.js';
