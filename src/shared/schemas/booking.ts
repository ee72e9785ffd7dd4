import { DESTINATION_MAX } from '../constants.js';
import { DAMAGE_CATEGORIES, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../damage.js';
import { isRealDate, TIME_PATTERN } from '../time.js';
import { z } from '../zod-it.js';
import { idBody, idParam } from './ids.js';

const date = z
  .string({ error: 'Seleziona una data per la prenotazione' })
  .min(1, 'Seleziona una data per la prenotazione')
  .refine(isRealDate, 'Data non valida: usa il formato AAAA-MM-GG');

const time = (label: string) =>
  z.string({ error: `Indica l'orario di ${label}` }).regex(TIME_PATTERN, `Orario di ${label} non valido: usa il formato HH:mm`);

const windowShape = {
  dataPrenotazione: date,
  orarioInizio: time('inizio'),
  orarioFine: time('fine'),
};

const startBeforeEnd = (v: { orarioInizio: string; orarioFine: string }) => v.orarioInizio < v.orarioFine;
const startBeforeEndIssue = {
  message: "L'orario di fine deve essere successivo all'orario di inizio",
  path: ['orarioFine'],
  // Checked whenever both times are well formed, even when another field (a bike not chosen,
  // a date missing) failed: the form then shows every mistake at once. Zod skips an object's
  // refinements after a type error in any field unless told when they can run.
  when: (payload: { value: unknown; issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !payload.issues.some((i) => i.path?.[0] === 'orarioInizio' || i.path?.[0] === 'orarioFine') &&
    typeof (payload.value as { orarioInizio?: unknown }).orarioInizio === 'string' &&
    typeof (payload.value as { orarioFine?: unknown }).orarioFine === 'string',
};

/** POST /api/biciclette/available */
export const availabilityRequestSchema = z.object(windowShape).refine(startBeforeEnd, startBeforeEndIssue);
export type AvailabilityRequest = z.infer<typeof availabilityRequestSchema>;

/** The optional destination: trimmed, empty as null, at most DESTINATION_MAX characters. */
export const destinationField = z
  .string()
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(z.string().max(DESTINATION_MAX, `La destinazione può avere al massimo ${DESTINATION_MAX} caratteri`))
  .transform((v) => (v === '' ? null : v));

/** POST /api/prenotazioni */
export const bookingRequestSchema = z
  .object({
    ...windowShape,
    destinazione: destinationField,
    biciId: idBody('Seleziona una bicicletta'),
  })
  .refine(startBeforeEnd, startBeforeEndIssue);
export type BookingRequest = z.input<typeof bookingRequestSchema>;

export const bookingIdParamsSchema = z.object({ id: idParam('Prenotazione non trovata') });

export type BookingStato = 'attiva' | 'completata' | 'cancellata';
/** Where a booking is in the ride's life, derived at read time (decision 022). */
export type BookingPhase = 'da_ritirare' | 'in_corso' | 'in_ritardo' | 'conclusa' | 'cancellata';
/** Why a `cancellata` booking was cancelled (null for bookings cancelled before issue 13). */
export type CancellationReason = 'utente' | 'admin' | 'pagamento_scaduto' | 'mancato_ritiro' | 'chiusura' | 'manutenzione';
export { DAMAGE_CATEGORIES, DAMAGE_CATEGORY_LABELS, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../damage.js';

const damageDescriptionMessage = `Descrivi il danno (al massimo ${DAMAGE_DESCRIPTION_MAX} caratteri)`;

/**
 * What a ride step (`ritiro`, `riconsegna`) may carry so that it can be sent again safely
 * (issue 22): the id the device gave the action (a replay of the same id is applied once) and
 * the device's time of the tap (the action may reach the server later, from the offline queue).
 */
export const rideActionFields = {
  idAzione: z.uuid().optional(),
  oraDispositivo: z.iso.datetime({ offset: true }).optional(),
};

/** POST /api/prenotazioni/:id/ritiro — the bike taken. */
export const pickUpRequestSchema = z.object(rideActionFields);
export type PickUpRequest = z.input<typeof pickUpRequestSchema>;

/** POST /api/prenotazioni/:id/riconsegna — the bike returned, optionally with a damage report. */
export const returnRequestSchema = z.object({
  ...rideActionFields,
  danno: z
    .object({
      categoria: z.enum(DAMAGE_CATEGORIES, { error: 'Scegli il tipo di danno' }),
      descrizione: z
        .string({ error: damageDescriptionMessage })
        .trim()
        .min(1, damageDescriptionMessage)
        .max(DAMAGE_DESCRIPTION_MAX, damageDescriptionMessage),
    })
    .optional(),
});
export type ReturnRequest = z.input<typeof returnRequestSchema>;
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
}

export interface BikeDto {
  id: number;
  numero: string;
  modello: string;
  stato: BikeStato;
  updatedAt: string;
}
