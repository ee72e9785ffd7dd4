/*
 * The locks module's public face (issue 34, decision 044). It owns `lucchetti` (each bike's
 * lock) and `codici_corsa` (a ride's new code, when its code was shown, a smart lock's PIN).
 * The admin sets a bike's lock through it; the pick-up draws the ride's new code through it.
 * The return's rotation and the `Codice da cambiare` mark are triggers on `prenotazioni`
 * (drizzle/0020_locks.sql): no writer of a booking calls this module for them.
 */
export { lockDto, locksByBike, MASKED_CODE, setBikeLock } from './admin-locks.js';
export { drawLockCode, drawRideCode, forgetRideCodeAtRelease, rideNewCode } from './ride-codes.js';
export { extendLateRidesPins, PIN_CHANNEL, PinDispatcher, servePins, type PinDeps } from './pins.js';
