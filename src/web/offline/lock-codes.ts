import type { RideCodeDto } from '../../shared/schemas/locks';
import { deviceDb } from './db';

/**
 * What the device keeps of a ride's lock (issue 34, decision 044), in IndexedDB (`dati` →
 * `codice:<booking id>`), so that a person at the rack without a signal still reads it:
 * - `codice`: the lock's code as the server last showed it for this booking, and `biciId`, the
 *   bike whose lock it opens: the fleet may move a booking to another bike (issue 35), and the
 *   old bike's code must then never be shown (`keptCodeFor`);
 * - `nuovoCodice`: the code to close the lock with at the return (drawn by the server at
 *   `Ritirata`, or on this device for a pick-up made offline).
 *
 * The entry goes at the return (once its message is shown), and with everything else at logout
 * (`dati` is emptied then: offline/device-user.ts).
 */
export interface KeptRide {
  codice?: RideCodeDto;
  biciId?: number;
  nuovoCodice?: string;
}

const key = (bookingId: number) => `codice:${bookingId}`;

export async function readKeptRide(bookingId: number): Promise<KeptRide> {
  const value = await (await deviceDb()).get('dati', key(bookingId));
  if (typeof value !== 'string') return {};
  try {
    const parsed = JSON.parse(value) as KeptRide;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

async function update(bookingId: number, change: Partial<KeptRide>): Promise<void> {
  const db = await deviceDb();
  const before = await readKeptRide(bookingId);
  await db.put('dati', JSON.stringify({ ...before, ...change }), key(bookingId));
}

/** The code the server just showed for this booking, on bike `biciId`. */
export function keepLockCode(bookingId: number, codice: RideCodeDto, biciId: number): Promise<void> {
  return update(bookingId, { codice, biciId });
}

/** The code kept for this booking if it opens bike `biciId`'s lock; a code kept without its bike, or another bike's, is not. */
export async function keptCodeFor(bookingId: number, biciId: number): Promise<RideCodeDto | undefined> {
  const kept = await readKeptRide(bookingId);
  return kept.biciId === biciId ? kept.codice : undefined;
}

/** The code to set at the return. */
export function keepNewCode(bookingId: number, nuovoCodice: string): Promise<void> {
  return update(bookingId, { nuovoCodice });
}

/** The server no longer shows this booking's code: the copy goes (the code for the return stays). */
export async function forgetKeptCode(bookingId: number): Promise<void> {
  const { nuovoCodice } = await readKeptRide(bookingId);
  if (nuovoCodice) await update(bookingId, { codice: undefined, biciId: undefined });
  else await forgetKeptRide(bookingId);
}

/** The return is done: nothing of this ride's lock stays on the device. */
export async function forgetKeptRide(bookingId: number): Promise<void> {
  await (await deviceDb()).delete('dati', key(bookingId));
}

/**
 * A new 4-digit code drawn on the device (a pick-up made offline, decision 044), never `avoid`
 * (the lock's current code, when the device knows it). The server takes it if it is not the
 * lock's current code, and draws its own otherwise.
 */
export function drawNewCode(avoid?: string | null, random: () => number = secureRandom): string {
  for (;;) {
    const code = String(Math.floor(random() * 10_000)).padStart(4, '0');
    if (code !== avoid) return code;
  }
}

function secureRandom(): number {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return n! / 2 ** 32;
}
