/**
 * Every table of the database, for drizzle-kit (drizzle.config.ts), the migrations, the backup and the
 * tests. Each table is defined, and written, by its owner (docs/ARCHITECTURE.md, "Modules and their
 * tables"); application code imports a table from its owner, never from here (lint: structure/layers).
 */
export * from './http/tables.js';
export * from './integrations/tables.js';
export * from './jobs/tables.js';
export * from './modules/audit/tables.js';
export * from './modules/auth/tables.js';
export * from './modules/bikes/tables.js';
export * from './modules/bookings/tables.js';
export * from './modules/closures/tables.js';
export * from './modules/interventi/tables.js';
export * from './modules/locks/tables.js';
export * from './modules/payments/tables.js';
export * from './modules/notifications/tables.js';
export * from './modules/oidc/tables.js';
export * from './modules/passkeys/tables.js';
export * from './modules/profile/tables.js';
export * from './modules/rack/tables.js';
export * from './modules/reports/tables.js';
export * from './modules/residents/tables.js';
export * from './modules/rules/tables.js';
export * from './modules/sedi/tables.js';
export * from './modules/stats/tables.js';
export * from './modules/two-factor/tables.js';
export * from './modules/users/tables.js';
export * from './modules/waitlist/tables.js';
