/* The privacy module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { applyRetention } from './retention.js';
