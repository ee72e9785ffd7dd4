/* The admin module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { type AdminDeps } from './deps.js';
export { adminBookings, adminSummary } from './lists.js';
export { adminDamages, adminOverdue } from './rides.js';
export { lockUserAndAdmins } from './users.js';
