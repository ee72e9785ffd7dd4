/*
 * The sedi module's public face (issue 47, decision 053): it owns `sedi`, the places where
 * bikes stand. Every other module keys its rows by a sede (`sede_id`); an install with one
 * sede shows none of it.
 */
export { bikeAtSede, listSedi, NO_SEDI, openSede, sediNames, sedeDto, type SediNames } from './service.js';
export { seedDemoSedi } from './demo.js';
