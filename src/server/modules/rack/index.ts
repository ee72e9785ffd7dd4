/*
 * The rack module's public face (issue 34, decision 044): it owns `rastrelliera_link` and the
 * board's streams (one hub per process, on main.ts's LISTEN connection).
 */
export { attachRackHub, RackHub, RACK_HEARTBEAT_MS, RACK_TICK_MS, type RackHubDeps } from './hub.js';
export { RACK_CHANNEL } from './service.js';
