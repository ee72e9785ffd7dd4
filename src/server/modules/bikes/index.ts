/* The bikes module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { importBikes } from './import.js';
export {
  bikeFollowsTickets,
  freeReturnedBike,
  insertBike,
  lockBike,
  lockFleet,
  lockOpenSede,
  markBikePickedUp,
  setBikeSede,
  setBikeStateByAdmin,
  startPlannedMaintenance,
} from './service.js';
export { applyLifecycleMarks, type LifecycleMarks } from './lifecycle-marks.js';
export { BIKE_LABELS_FILE_NAME, bikeLabelsPdf, bikePageUrl } from './labels.js';
