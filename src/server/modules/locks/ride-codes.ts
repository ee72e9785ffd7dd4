import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { LOCK_CODE_PATTERN } from '../../../shared/schemas/locks.js';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../db/transaction.js';
import { codiciCorsa, lucchetti } from './tables.js';

/** A 4-digit code drawn with the system's CSPRNG, never `current`. */
export function drawLockCode(current: string | null): string {
  for (;;) {
    const code = String(randomInt(0, 10_000)).padStart(4, '0');
    if (code !== current) return code;
  }
}

/**
 * At `Ritirata` on a combination-lock bike (decision 044): the code the rider sets when returning
 * the bike, stored with the ride (`codici_corsa.codice_nuovo`); the return's trigger makes it the
 * lock's code. A code drawn on the device (an offline pick-up, decision 026) is kept when it is 4
 * digits and not the lock's current code; else the server draws its own. The statement checks the
 * code against the lock itself. In the pick-up's transaction, the bike locked (no admin can change
 * the lock meanwhile). Null for a bike without a combination lock.
 */
export async function drawRideCode(tx: Tx, bookingId: number, biciId: number, fromDevice?: string): Promise<string | null> {
  const [lock] = await tx.select({ tipo: lucchetti.tipo, codice: lucchetti.codice }).from(lucchetti).where(eq(lucchetti.biciId, biciId));
  if (lock?.tipo !== 'combinazione') return null;
  let code = fromDevice !== undefined && LOCK_CODE_PATTERN.test(fromDevice) && fromDevice !== lock.codice ? fromDevice : drawLockCode(lock.codice);
  for (;;) {
    const { rows } = await tx.execute<{ codice: string }>(sql`
      insert into ${codiciCorsa} (prenotazione_id, codice_nuovo)
      select ${bookingId}, ${code} from ${lucchetti} l
       where l.bici_id = ${biciId} and l.tipo = 'combinazione' and l.codice <> ${code}
      on conflict (prenotazione_id) do update set codice_nuovo = excluded.codice_nuovo
      returning codice_nuovo as codice`);
    if (rows[0]) return rows[0].codice;
    code = drawLockCode(code);
  }
}

/** The code drawn at a ride's pick-up (the pick-up's and the return's answers), or null. */
export async function rideNewCode(db: Pick<Db, 'select'>, bookingId: number): Promise<string | null> {
  const [row] = await db.select({ codice: codiciCorsa.codiceNuovo }).from(codiciCorsa).where(eq(codiciCorsa.prenotazioneId, bookingId));
  return row?.codice ?? null;
}

/**
 * An admin records the return of a ride on its rider's behalf (an overdue bike found, decision
 * 022): nobody was there to set the code drawn at the pick-up, and the rider knows both the lock's
 * code and that one. The drawn code is dropped (the return's trigger then leaves the lock's code
 * as it is) and the lock is marked `Codice da cambiare` until an admin sets a new code. In the
 * release's transaction, after the bike and the booking are locked (decision 023).
 */
export async function forgetRideCodeAtRelease(tx: Tx, bookingId: number, biciId: number): Promise<void> {
  await tx.update(codiciCorsa).set({ codiceNuovo: null }).where(eq(codiciCorsa.prenotazioneId, bookingId));
  await tx.execute(sql`
    update ${lucchetti} set da_cambiare_dal = coalesce(da_cambiare_dal, now()), updated_at = now()
     where bici_id = ${biciId} and tipo = 'combinazione'`);
}
