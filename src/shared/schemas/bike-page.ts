import { z } from '../zod-it.js';
import { msg } from './message.js';
import type { BookingDto } from './booking.js';
import type { BikeNow } from './fleet.js';

/** The longest bike number (POST /api/admin/biciclette: `numero`, at most 20 characters, trimmed). */
export const BIKE_NUMBER_MAX = 20;

/**
 * A bike's number in a path (`/bici/07`, GET /api/biciclette/numero/:numero): the format the
 * admin's form stores, 1 to 20 characters with no space at either end and no control character.
 * Anything else is refused before any lookup.
 */
export const bikeNumberParam = z
  .string(msg('schemas.invalidBikeNumber'))
  .min(1, msg('schemas.invalidBikeNumber'))
  .max(BIKE_NUMBER_MAX, msg('schemas.invalidBikeNumber'))
  // eslint-disable-next-line no-control-regex
  .refine((v) => v.trim() === v && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]/.test(v), msg('schemas.invalidBikeNumber'));

export const bikeNumberParamsSchema = z.object({ numero: bikeNumberParam });

/**
 * GET /api/biciclette/numero/:numero (issue 34, the page a bike's QR code opens): the bike's
 * state now (the rack's terms, `BikeNow`), and the caller's own booking of it from the pick-up
 * window to the return, if any. Never anyone else's booking, name or code.
 */
export interface BikePageDto extends Pick<BikeNow, 'numero' | 'biciId' | 'stato' | 'liberaFino' | 'inUsoFino' | 'prenotataDalle' | 'prossimaLiberaOggi'> {
  prenotazioneCorrente: BookingDto | null;
}
