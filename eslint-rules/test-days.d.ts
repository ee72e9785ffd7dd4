import type { ESLint } from 'eslint';

/** The tests' day rule: `no-day-offset` (eslint-rules/test-days.js). */
declare const testDays: ESLint.Plugin;
export default testDays;
