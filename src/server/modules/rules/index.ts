/*
 * The rules module's public face (issue 20): the service's rules (`regole`), the window check
 * and the fair-use limits, and the emails of the rules. It owns `regole`.
 */
import { chosenSede } from './check.js';
import { getSedeHours, updateSedeHours } from './service.js';
import { rulesOfSede } from './store.js';

export { getRules, publicRules, updateRules } from './service.js';
export { currentRules, lifecycleMinutes, loadRules, type ClosureRule, type Executor, type Rules } from './store.js';
export { checkWindow, START_GRACE_MINUTES, type Window } from './check.js';
export { fairUseSql, suspendedUntilSql, suspensionOf } from './fair-use.js';
export { bookingMovedEmail, closureCancelledEmail, deskBookingEmail, maintenanceCancelledEmail, type NoticeBooking } from './emails.js';
export { ensureRulesRow, RULES_CHANNEL, RulesCache } from './store.js';
export { replaceRulesEditor } from './erasure.js';

/**
 * Rules per sede (issue 47): a sede's hours and closures (`rulesOfSede`), the sede a request is
 * about (`chosenSede`: the one named, if open, else the home sede), and a sede's own week for the admins.
 */
export const sedeRules = { rulesOfSede, chosenSede, getSedeHours, updateSedeHours };
