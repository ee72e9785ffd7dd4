import type { ESLint } from 'eslint';

/** Refusals as catalogue keys: the rule `keys` (eslint-rules/refusals.js). */
declare const refusals: ESLint.Plugin;
export default refusals;
