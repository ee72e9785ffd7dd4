import { z } from '../zod-it.js';
import type { BikeDto, LockKind } from './booking.js';

export { LOCK_KINDS, type LockKind } from './booking.js';

export const MSG_LOCK_CODE_FORMAT = 'Il codice deve essere di 4 cifre';
export const MSG_LOCK_KIND = 'Scegli il tipo di lucchetto';
export const MSG_LOCK_DEVICE_ID = "Indica l'identificativo del lucchetto smart (al massimo 100 caratteri)";
export const LOCK_CODE_PATTERN = /^[0-9]{4}$/;

const lockCode = z.string({ error: MSG_LOCK_CODE_FORMAT }).regex(LOCK_CODE_PATTERN, MSG_LOCK_CODE_FORMAT);

/** PUT /api/admin/biciclette/:id/lucchetto */
export const bikeLockUpdateSchema = z.discriminatedUnion(
  'tipo',
  [
    z.object({ tipo: z.literal('nessuno') }),
    z.object({ tipo: z.literal('combinazione'), codice: lockCode }),
    z.object({
      tipo: z.literal('smart'),
      idLucchetto: z.string({ error: MSG_LOCK_DEVICE_ID }).trim().min(1, MSG_LOCK_DEVICE_ID).max(100, MSG_LOCK_DEVICE_ID),
    }),
  ],
  { error: MSG_LOCK_KIND },
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

/** The refusals of GET /api/prenotazioni/:id/codice, in the words. */
export const MSG_CODE_PAY_FIRST = 'Completa il pagamento per vedere il codice';
export const MSG_CODE_GONE = 'Il codice non è più disponibile';
export const MSG_CODE_UPDATING = 'Codice in aggiornamento: rivolgiti alla segreteria';
export const MSG_CODE_UNAVAILABLE = 'Codice non disponibile: rivolgiti alla segreteria';
export const codeNotYetMessage = (hhmm: string) => `Il codice sarà visibile dalle ${hhmm}`;
