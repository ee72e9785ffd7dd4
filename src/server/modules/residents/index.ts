/*
 * The residents module's public face: what other modules and the app may use (issue 31,
 * docs/ARCHITECTURE.md). Everything else in the folder is the module's own.
 */
export { type ImportReport, importResidents, insertResidentCodes, MalformedFileError } from './import.js';
