/*
 * The admin module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { type Actor, writeAudit } from '../audit/index.js';
export { type AdminDeps } from './deps.js';
export { adminBookings, adminSummary } from './lists.js';
export { adminDamages, adminOverdue } from './rides.js';
export { lockUserAndAdmins } from './users.js';
