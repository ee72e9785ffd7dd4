import { DESTINATION_MAX } from '../constants.js';
import { DAMAGE_CATEGORIES, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../damage.js';
import { isRealDate, TIME_PATTERN } from '../time.js';
import { z } from '../zod-it.js';
import { msg } from './message.js';
import { idBody, idParam } from './ids.js';
import { sedeIdBody } from './sedi.js';

const date = z
  .string(msg('schemas.selectDate'))
  .min(1, msg('schemas.selectDate'))
  .refine(isRealDate, msg('schemas.invalidDate'));

const windowShape = {
  dataPrenotazione: date,
  orarioInizio: z.string(msg('schemas.startTimeRequired')).regex(TIME_PATTERN, msg('schemas.invalidStartTime')),
  orarioFine: z.string(msg('schemas.endTimeRequired')).regex(TIME_PATTERN, msg('schemas.invalidEndTime')),
};

const startBeforeEnd = (v: { orarioInizio: string; orarioFine: string }) => v.orarioInizio < v.orarioFine;
const startBeforeEndIssue = {
  ...msg('schemas.endAfterStart'),
  path: ['orarioFine'],
  // Checked whenever both times are well formed, even when another field (a bike not chosen,
  // a date missing) failed: the form then shows every mistake at once. Zod skips an object's
  // refinements after a type error in any field unless told when they can run.
  // A body that is no object at all (none sent) has no times to compare.
  when: (payload: { value: unknown; issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    !payload.issues.some((i) => i.path?.[0] === 'orarioInizio' || i.path?.[0] === 'orarioFine') &&
    typeof (payload.value as { orarioInizio?: unknown }).orarioInizio === 'string' &&
    typeof (payload.value as { orarioFine?: unknown }).orarioFine === 'string',
};

/**
 * POST /api/biciclette/available: a window, and the sede whose bikes are asked for (issue 47);
 * absent: the caller's home sede.
 */
export const availabilityRequestSchema = z.object({ ...windowShape, sedeId: sedeIdBody.optional() }).refine(startBeforeEnd, startBeforeEndIssue);
export type AvailabilityRequest = z.infer<typeof availabilityRequestSchema>;

/** The optional destination: trimmed, empty as null, at most DESTINATION_MAX characters. */
export const destinationField = z
  .string()
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(z.string().max(DESTINATION_MAX, msg('schemas.destinationTooLong', { max: DESTINATION_MAX })))
  .transform((v) => (v === '' ? null : v));

/** POST /api/prenotazioni */
export const bookingRequestSchema = z
  .object({
    ...windowShape,
    destinazione: destinationField,
    biciId: idBody('schemas.selectBike'),
  })
  .refine(startBeforeEnd, startBeforeEndIssue);
export type BookingRequest = z.input<typeof bookingRequestSchema>;

export const bookingIdParamsSchema = z.object({ id: idParam('schemas.bookingNotFound') });

export type BookingStato = 'attiva' | 'completata' | 'cancellata';
/** Where a booking is in the ride's life, derived at read time (decision 022). */
export type BookingPhase = 'da_ritirare' | 'in_corso' | 'in_ritardo' | 'conclusa' | 'cancellata';
/** Why a `cancellata` booking was cancelled (null for bookings cancelled before issue 13). */
export type CancellationReason =
  | 'utente'
  | 'admin'
  | 'pagamento_scaduto'
  | 'mancato_ritiro'
  | 'chiusura'
  | 'manutenzione'
  /** Its bike was still out on a late ride (issue 35): the owner's `Annulla`, or at the no-show instant. */
  | 'bici_non_rientrata'
  /** Its bike broke or went out of service, or had a problem at the pick-up, and no other was free (issue 35). */
  | 'bici_guasta';

/** Why the fleet moved a booking to another bike (issue 35): late, broken, a problem at the pick-up. */
export type MoveCause = 'ritardo' | 'guasto' | 'problema';
export { DAMAGE_CATEGORIES, DAMAGE_CATEGORY_LABELS, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../damage.js';

const damageDescriptionMessage = msg('schemas.damageDescription', { max: DAMAGE_DESCRIPTION_MAX });

/**
 * A ride action made on the device, perhaps queued offline and sent later, perhaps twice
 * (issue 22, decision 026). Both fields are optional; absent (not null) when not sent.
 * - `idAzione`: the id the device gave the action, in the form `crypto.randomUUID()` makes
 *   (lowercase hex, 8-4-4-4-12). An action with an id is applied once; a replay answers the
 *   booking as it is now.
 * - `oraDispositivo`: when the user pressed the button, by the device's clock: an ISO 8601
 *   instant with seconds and `Z` or an offset (`2026-12-12T09:05:00.000Z`,
 *   `2026-12-12T10:05:00+01:00`). Used only within decision 026's bounds, else the server's
 *   time is (the answer's `X-Ora-Applicata` header says which).
 */
export const ACTION_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const deviceActionShape = {
  idAzione: z.string(msg('schemas.invalidActionId')).regex(ACTION_ID_PATTERN, msg('schemas.invalidActionId')).optional(),
  oraDispositivo: z.iso.datetime({ offset: true, ...msg('schemas.invalidDeviceTime') }).optional(),
};

/** The response header saying whose clock gave the instant applied (decision 026). */
export const APPLIED_TIME_HEADER = 'x-ora-applicata';
export type AppliedTimeSource = 'dispositivo' | 'server';

/** POST /api/prenotazioni/:id/ritiro — no body at all, or a device's action (decision 026). */
export const pickUpRequestSchema = z.object({
  ...deviceActionShape,
  /**
   * The combination lock's new code drawn on the device (an offline pick-up, decision 044): kept
   * when it is 4 digits and not the lock's current code, else the server draws its own. Never
   * refused: the answer's `nuovoCodice` says which code the ride sets.
   */
  nuovoCodice: z.string(msg('validation.invalidValue')).max(16, msg('validation.invalidValue')).optional(),
});
export type PickUpRequest = z.input<typeof pickUpRequestSchema>;

/** POST /api/prenotazioni/:id/riconsegna — the bike returned, optionally with a damage report. */
export const returnRequestSchema = z.object({
  ...deviceActionShape,
  danno: z
    .object({
      categoria: z.enum(DAMAGE_CATEGORIES, msg('schemas.chooseDamageKind')),
      descrizione: z
        .string(damageDescriptionMessage)
        .trim()
        .min(1, damageDescriptionMessage)
        .max(DAMAGE_DESCRIPTION_MAX, damageDescriptionMessage),
    })
    .optional(),
});
export type ReturnRequest = z.input<typeof returnRequestSchema>;

/** POST /api/prenotazioni/:id/problema — `La bici ha un problema` at the pick-up (issue 35). */
export const pickupProblemRequestSchema = z.object({
  categoria: z.enum(DAMAGE_CATEGORIES, msg('schemas.chooseProblemKind')),
  descrizione: z
    .string(damageDescriptionMessage)
    .trim()
    .min(1, damageDescriptionMessage)
    .max(DAMAGE_DESCRIPTION_MAX, damageDescriptionMessage),
});
export type PickupProblemRequest = z.input<typeof pickupProblemRequestSchema>;

/**
 * The answer of `La bici ha un problema` (issue 35): the booking now (on its new bike, or
 * cancelled), what happened, and the sentence to show.
 */
export interface PickupProblemResponse {
  prenotazione: BookingDto;
  esito: 'spostata' | 'annullata';
  /** The new bike's number when moved. */
  nuovaBiciNumero: string | null;
  /** Cancelled: whether the person was put first in line for the rest of the window. */
  primoInFila: boolean;
  messaggio: string;
}

/** The lengths a ride in progress may be extended by (issue 35, `Prolunga`), in minutes. */
export const EXTEND_MINUTES = [15, 30, 60] as const;
export type ExtendMinutes = (typeof EXTEND_MINUTES)[number];

/** POST /api/prenotazioni/:id/prolunga — one of EXTEND_MINUTES. */
export const extendRequestSchema = z.object({
  minuti: z.literal(EXTEND_MINUTES, msg('schemas.invalidExtension')),
});

/** GET /api/prenotazioni/:id/prolunga — the lengths offered now, out of EXTEND_MINUTES (none: an empty list). */
export interface ExtendOptionsDto {
  minuti: ExtendMinutes[];
}

/** A bike's lock (issue 34, decision 044): none, a 4-digit combination, or a smart keypad lock. */
export const LOCK_KINDS = ['nessuno', 'combinazione', 'smart'] as const;
export type LockKind = (typeof LOCK_KINDS)[number];
export type PaymentStatus = 'pending' | 'completed' | 'failed' | 'refunded' | null;
export type BikeStato = 'disponibile' | 'prenotata' | 'manutenzione' | 'fuori_servizio';

/** A booking as the user sees it (spec §3). */
export interface BookingDto {
  id: number;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  destinazione: string | null;
  biciId: number;
  biciNumero: string;
  biciModello: string;
  /** The bike's sede (issue 47). */
  sedeId: number;
  stato: BookingStato;
  paymentStatus: PaymentStatus;
  createdAt: string;
  /** When the owner took the bike (`Ritirata`), and brought it back (`Riconsegnata`). */
  ritirataAt: string | null;
  riconsegnataAt: string | null;
  motivoCancellazione: CancellationReason | null;
  fase: BookingPhase;
  /** ISO instant from which `Ritirata` is allowed (start minus the pick-up grace). */
  ritiroDa: string;
  /** The damage reported at the return, if any. */
  danno: { categoria: DamageCategory; descrizione: string } | null;
  /** The bike's kind of lock (issue 34): never its code, which only GET /api/prenotazioni/:id/codice answers. */
  lucchetto: LockKind;
  /** The fleet moved it to this bike (issue 35): from which bike, and why. Null if it never moved. */
  spostata: { daBiciNumero: string; causa: MoveCause } | null;
  /**
   * Its bike is still out on a late ride and no other bike is free (issue 35): the card offers
   * `Annulla` (refunded, no no-show) and `Aspetta`; `aspetta` once chosen.
   */
  biciAssente: boolean;
  aspetta: boolean;
}

export interface BikeDto {
  id: number;
  numero: string;
  modello: string;
  stato: BikeStato;
  /** Where the bike stands (issue 47). */
  sedeId: number;
  updatedAt: string;
}
