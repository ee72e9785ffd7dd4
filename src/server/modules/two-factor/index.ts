/* The two-factor module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { pendingSecondFactor } from './pending.js';
