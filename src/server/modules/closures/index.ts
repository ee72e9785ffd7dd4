/*
 * The closures module's public face (issue 31): closures of the service and planned
 * maintenance of a bike, the times when nobody or no one on a bike can book. It owns
 * `chiusure` and `manutenzioni`; it cancels and moves bookings through the bookings module.
 */
export { createClosure, deleteClosure, listClosures, previewClosure } from './closures.js';
export {
  createMaintenance,
  deleteMaintenance,
  listMaintenance,
  previewMaintenance,
} from './maintenance.js';
