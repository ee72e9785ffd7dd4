import type { ESLint } from 'eslint';

/** The structure's lint rules: `layers` and `table-owner` (eslint-rules/structure.js). */
declare const structure: ESLint.Plugin;
export default structure;
