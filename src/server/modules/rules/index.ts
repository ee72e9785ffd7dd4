/*
 * The rules module's public face (issue 20): the service's rules (`regole`), the window check
 * and the fair-use limits, and the emails of the rules. It owns `regole`.
 */
export { getRules, getSedeHours, publicRules, updateRules, updateSedeHours } from './service.js';
export { currentRules, lifecycleMinutes, loadRules, rulesOfSede, type ClosureRule, type Executor, type Rules } from './store.js';
export { checkWindow, chosenSede, START_GRACE_MINUTES, type Window } from './check.js';
export { fullestWeek, suspendedUntilSql, suspensionOf } from './fair-use.js';
export { bookingMovedEmail, closureCancelledEmail, deskBookingEmail, maintenanceCancelledEmail, type NoticeBooking } from './emails.js';
export { ensureRulesRow, RULES_CHANNEL, RulesCache } from './store.js';
export { replaceRulesEditor } from './erasure.js';
