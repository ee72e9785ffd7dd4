import { z } from '../zod-it.js';
import { msg } from './message.js';
import type { BikeDto, LockKind } from './booking.js';

export { LOCK_KINDS, type LockKind } from './booking.js';

/** A smart lock's id at the provider, as the providers take it (decision 043). */
export const LOCK_DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const LOCK_CODE_PATTERN = /^[0-9]{4}$/;

const lockCode = z.string(msg('schemas.lockCodeFormat')).regex(LOCK_CODE_PATTERN, msg('schemas.lockCodeFormat'));

/** PUT /api/admin/biciclette/:id/lucchetto */
export const bikeLockUpdateSchema = z.discriminatedUnion(
  'tipo',
  [
    z.object({ tipo: z.literal('nessuno') }),
    z.object({ tipo: z.literal('combinazione'), codice: lockCode }),
    z.object({
      tipo: z.literal('smart'),
      idLucchetto: z.string(msg('schemas.invalidLockDeviceId')).trim().regex(LOCK_DEVICE_ID_PATTERN, msg('schemas.invalidLockDeviceId')),
    }),
  ],
  msg('schemas.chooseLockKind'),
);
export type BikeLockUpdate = z.input<typeof bikeLockUpdateSchema>;

/**
 * A bike's lock as the admins see it (GET /api/admin/biciclette, the PUT's answer): the current
 * code for a combination lock only, the device's id for a smart one, and the `Codice da cambiare`
 * mark (a code was shown to someone who never picked the bike up).
 */
export interface BikeLockDto {
  tipo: LockKind;
  codice: string | null;
  idLucchetto: string | null;
  codiceDaCambiare: boolean;
}

/** GET /api/admin/biciclette: each bike with its lock. */
export type AdminBikeWithLockDto = BikeDto & { lucchetto: BikeLockDto };

/**
 * GET /api/prenotazioni/:id/codice — the code of the booking's lock, for its owner, in the
 * pick-up window until the return (ISO instants). `codice` is null for a bike without a lock.
 */
export interface RideCodeDto {
  tipo: LockKind;
  codice: string | null;
  validoDa: string;
  validoFino: string;
}

