/* The residents module's public face (issue 31): all that others may import; the rest of the folder is its own. */
export { type ImportReport, importResidents, insertResidentCodes, MalformedFileError } from './import.js';
