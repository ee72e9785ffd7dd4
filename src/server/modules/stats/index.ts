/* The stats module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { csvLine } from './csv.js';
export { foldStatsDelta } from './fold.js';
