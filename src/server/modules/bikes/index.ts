/*
 * The bikes module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { importBikes } from './import.js';
export {
  freeReturnedBike,
  insertBike,
  lockFleet,
  markBikePickedUp,
  putDamagedBikeInMaintenance,
  setBikeStateByAdmin,
  startPlannedMaintenance,
} from './service.js';
export { applyLifecycleMarks, type LifecycleMarks } from './lifecycle-marks.js';
export { BIKE_LABELS_FILE_NAME, bikeLabelsPdf, bikePageUrl } from './labels.js';
