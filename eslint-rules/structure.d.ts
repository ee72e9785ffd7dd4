import type { ESLint } from 'eslint';

/** The structure's lint rules: `layers` and `table-owner` (eslint-rules/structure.js). */
declare const structure: ESLint.Plugin;
export default structure;

/** Who owns each table (`tables`: table → module, or folder outside the modules) and each table's TypeScript name (`names`). */
export function readOwners(root: string, serverDir: string, modulesDir: string): { tables: Record<string, string>; names: Record<string, string> };
