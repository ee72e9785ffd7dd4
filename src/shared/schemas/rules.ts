import { isRealDate, TIME_PATTERN } from '../time.js';
import { z } from '../zod-it.js';
import { idBody } from './ids.js';
import { bookingRequestSchema } from './booking.js';

/**
 * The service's rules (issue 20, decision 024): set by the admins in /admin → Regole, stored
 * in PostgreSQL, applied by the server to every availability answer and booking. A limit set
 * to null is switched off. The defaults are the behaviour before the rules existed: every day
 * open 00:00–23:59, no closures, no limits but the environment's horizon, hold and no-show.
 */

export { WEEKDAYS } from '../weekdays.js';

/** The end of a day as a booking can have it (bookings lie within one day). */
export const END_OF_DAY = '23:59';

const time = (what: string) => z.string({ error: `Indica l'orario di ${what}` }).regex(TIME_PATTERN, `Orario di ${what} non valido: usa il formato HH:mm`);

/** One weekday's opening hours, or null when the service is closed that day. */
export const dayHoursSchema = z
  .object({ apertura: time('apertura'), chiusura: time('chiusura') })
  .refine((h) => h.apertura < h.chiusura, {
    message: "L'orario di chiusura deve essere successivo a quello di apertura",
    path: ['chiusura'],
  })
  .nullable();
export type DayHours = z.infer<typeof dayHoursSchema>;

const limit = (message: string, max: number) => z.number({ error: message }).int(message).min(1, message).max(max, message).nullable();

/** PUT /api/admin/regole — the whole set of rules (closures and maintenance have their own routes). */
export const rulesUpdateSchema = z.object({
  orari: z.array(dayHoursSchema).length(7, 'Indica gli orari di tutti i giorni della settimana'),
  /** Longest booking, in minutes. */
  durataMassimaMinuti: limit('Durata massima non valida (da 1 a 1440 minuti)', 1440),
  /** Most bookings of one user in any 7 consecutive days. */
  prenotazioniSettimanaliMax: limit('Numero massimo di prenotazioni non valido (da 1 a 100)', 100),
  /** Least notice before the start, in minutes. */
  preavvisoMinimoMinuti: limit('Preavviso minimo non valido (da 1 a 10080 minuti)', 10080),
  /** How many days ahead a booking may be made. */
  orizzonteGiorni: limit('Orizzonte non valido (da 1 a 365 giorni)', 365),
  /** How long an external's unpaid booking holds its bike. Off: until its start. */
  attesaPagamentoMinuti: limit('Attesa del pagamento non valida (da 1 a 1440 minuti)', 1440),
  /** A booking not picked up this long after its start is released. Off: at its end. */
  mancatoRitiroMinuti: limit('Minuti per il mancato ritiro non validi (da 1 a 1440)', 1440),
  /** How long a bike freed for the first in a waitlist is held for them (issue 21). Always on. */
  offertaMinuti: z
    .number({ error: "Durata dell'offerta non valida (da 1 a 1440 minuti)" })
    .int("Durata dell'offerta non valida (da 1 a 1440 minuti)")
    .min(1, "Durata dell'offerta non valida (da 1 a 1440 minuti)")
    .max(1440, "Durata dell'offerta non valida (da 1 a 1440 minuti)"),
  /**
   * Months after which bookings, damage reports and notices lose their person (issue 23,
   * decision 029). Always on; absent from a PUT = unchanged.
   */
  conservazioneMesi: z
    .number({ error: 'Conservazione dei dati non valida (da 1 a 120 mesi)' })
    .int('Conservazione dei dati non valida (da 1 a 120 mesi)')
    .min(1, 'Conservazione dei dati non valida (da 1 a 120 mesi)')
    .max(120, 'Conservazione dei dati non valida (da 1 a 120 mesi)')
    .optional(),
  /** After `soglia` no-shows in `finestraGiorni` days, no booking for `giorni` days; null: off. */
  sospensione: z
    .object({
      soglia: z.number().int().min(1, 'Da 1 a 20 mancati ritiri').max(20, 'Da 1 a 20 mancati ritiri'),
      finestraGiorni: z.number().int().min(1, 'Da 1 a 365 giorni').max(365, 'Da 1 a 365 giorni'),
      giorni: z.number().int().min(1, 'Da 1 a 365 giorni').max(365, 'Da 1 a 365 giorni'),
    })
    .nullable(),
});
export type RulesUpdate = z.infer<typeof rulesUpdateSchema>;

/** GET /api/admin/regole */
export interface RulesDto extends RulesUpdate {
  conservazioneMesi: number;
  updatedAt: string;
  /** Email of the admin who saved them last; null for the first start's defaults. */
  updatedBy: string | null;
}

const date = (message: string) =>
  z.string({ error: message }).refine(isRealDate, 'Data non valida: usa il formato AAAA-MM-GG');

/** POST /api/admin/chiusure (and …/anteprima): a date range, both days included. */
export const closureRequestSchema = z
  .object({
    dal: date('Indica il primo giorno di chiusura'),
    al: date("Indica l'ultimo giorno di chiusura"),
    motivo: z
      .string({ error: 'Indica il motivo della chiusura' })
      .trim()
      .min(1, 'Indica il motivo della chiusura')
      .max(200, 'Il motivo può avere al massimo 200 caratteri'),
  })
  .refine((c) => c.dal <= c.al, { message: "L'ultimo giorno non può precedere il primo", path: ['al'] });
export type ClosureRequest = z.input<typeof closureRequestSchema>;

export interface ClosureDto {
  id: number;
  dal: string;
  al: string;
  motivo: string;
  createdAt: string;
}

/** A booking a closure or a maintenance would touch, as the admin sees it before confirming. */
export interface AffectedBookingDto {
  id: number;
  utente: string;
  email: string;
  biciNumero: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  /** Paid: cancelling it refunds the fee. */
  pagata: boolean;
  /** Maintenance only: the bike it moves to, or null when it is cancelled. */
  nuovaBiciNumero?: string | null;
}

/** The answer of …/anteprima and of the confirmed action (what was done). */
export interface ClosureOutcomeDto {
  chiusura: ClosureDto | null;
  cancellate: AffectedBookingDto[];
}

const localDateTime = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/, `${message} (formato AAAA-MM-GGTHH:mm)`)
    .refine((v) => isRealDate(v.slice(0, 10)), 'Data non valida');

/** POST /api/admin/biciclette/:id/manutenzioni (and …/anteprima): wall times in TZ_APP. */
export const maintenanceRequestSchema = z
  .object({
    dal: localDateTime("Indica l'inizio della manutenzione"),
    al: localDateTime('Indica la fine della manutenzione'),
    motivo: z
      .string({ error: 'Indica il motivo della manutenzione' })
      .trim()
      .min(1, 'Indica il motivo della manutenzione')
      .max(200, 'Il motivo può avere al massimo 200 caratteri'),
  })
  .refine((m) => m.dal < m.al, { message: 'La fine deve essere successiva all’inizio', path: ['al'] });
export type MaintenanceRequest = z.input<typeof maintenanceRequestSchema>;

export interface MaintenanceDto {
  id: number;
  biciId: number;
  biciNumero: string;
  /** Wall time in TZ_APP, `YYYY-MM-DDTHH:mm`. */
  dal: string;
  al: string;
  motivo: string;
  /** True while now lies inside the period. */
  inCorso: boolean;
}

export interface MaintenanceOutcomeDto {
  manutenzione: MaintenanceDto | null;
  spostate: AffectedBookingDto[];
  cancellate: AffectedBookingDto[];
}

/** POST /api/admin/prenotazioni — a booking made at the desk for a user. */
export const adminBookingRequestSchema = bookingRequestSchema.and(z.object({ userId: idBody('Scegli un utente') }));
export type AdminBookingRequest = z.input<typeof adminBookingRequestSchema>;

/** The user's suspension after repeated no-shows, when one is in force. */
export interface SuspensionDto {
  /** ISO instant. */
  fino: string;
  motivo: string;
}

/** GET /api/regole — what the booking form needs to offer only possible choices. */
export interface PublicRulesDto {
  orari: DayHours[];
  durataMassimaMinuti: number | null;
  preavvisoMinimoMinuti: number | null;
  orizzonteGiorni: number | null;
  prenotazioniSettimanaliMax: number | null;
  /** How long a waitlist's offer holds its bike (issue 21). */
  offertaMinuti: number;
  /** Closures that end today or later. */
  chiusure: Omit<ClosureDto, 'createdAt' | 'id'>[];
  /** The logged-in user's own suspension, if any. */
  sospensione: SuspensionDto | null;
}
