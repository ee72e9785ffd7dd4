import type { ESLint } from 'eslint';

/** The structure's lint rules: `layers` and `table-owner` (eslint-rules/structure.js). */
declare const structure: ESLint.Plugin;
export default structure;

/** table name → owning module, from every `<modulesDir>/<m>/tables.ts` (the table-owner rule's list). */
export function readOwners(root: string, modulesDir: string): Record<string, string>;
