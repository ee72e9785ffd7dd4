/* The reports module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { REPORT_CRON, REPORT_GRACE_MS } from './schedule.js';
export { emailReport, generateReport, renderReport, runNightlyReports } from './service.js';
export { redrawStoredReports } from './redraw.js';
