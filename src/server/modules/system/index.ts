/* The system module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { publicConfig } from './public-config.js';
