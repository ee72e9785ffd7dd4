/*
 * The reports module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { REPORT_CRON, REPORT_GRACE_MS } from './schedule.js';
export { emailReport, generateReport, renderReport, runNightlyReports } from './service.js';
export { redrawStoredReports } from './redraw.js';
