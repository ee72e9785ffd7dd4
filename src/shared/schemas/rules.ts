import { isRealDate, TIME_PATTERN } from '../time.js';
import { z } from '../zod-it.js';
import { idBody } from './ids.js';
import { sedeIdBody } from './sedi.js';
import { bookingRequestSchema } from './booking.js';
import { msg, type PlainKey } from './message.js';

/**
 * The service's rules (issue 20, decision 024): set by the admins in /admin → Regole, stored
 * in PostgreSQL, applied by the server to every availability answer and booking. A limit set
 * to null is switched off. The defaults are the behaviour before the rules existed: every day
 * open 00:00–23:59, no closures, no limits but the environment's horizon, hold and no-show.
 */

export { WEEKDAYS } from '../weekdays.js';

/** The end of a day as a booking can have it (bookings lie within one day). */
export const END_OF_DAY = '23:59';

/** One weekday's opening hours, or null when the service is closed that day. */
export const dayHoursSchema = z
  .object({
    apertura: z.string(msg('schemas.openingTimeRequired')).regex(TIME_PATTERN, msg('schemas.invalidOpeningTime')),
    chiusura: z.string(msg('schemas.closingTimeRequired')).regex(TIME_PATTERN, msg('schemas.invalidClosingTime')),
  })
  .refine((h) => h.apertura < h.chiusura, {
    ...msg('schemas.closingAfterOpening'),
    path: ['chiusura'],
  })
  .nullable();
export type DayHours = z.infer<typeof dayHoursSchema>;

const limit = (key: PlainKey, max: number) => z.number(msg(key)).int(msg(key)).min(1, msg(key)).max(max, msg(key)).nullable();

/** PUT /api/admin/regole — the whole set of rules (closures and maintenance have their own routes). */
export const rulesUpdateSchema = z.object({
  orari: z.array(dayHoursSchema).length(7, msg('schemas.hoursEveryDay')),
  /** Longest booking, in minutes. */
  durataMassimaMinuti: limit('schemas.invalidMaxDuration', 1440),
  /** Most bookings of one user in any 7 consecutive days. */
  prenotazioniSettimanaliMax: limit('schemas.invalidWeeklyMax', 100),
  /** Least notice before the start, in minutes. */
  preavvisoMinimoMinuti: limit('schemas.invalidMinNotice', 10080),
  /** How many days ahead a booking may be made. */
  orizzonteGiorni: limit('schemas.invalidHorizon', 365),
  /** How long an external's unpaid booking holds its bike. Off: until its start. */
  attesaPagamentoMinuti: limit('schemas.invalidPaymentWait', 1440),
  /** A booking not picked up this long after its start is released. Off: at its end. */
  mancatoRitiroMinuti: limit('schemas.invalidNoShowMinutes', 1440),
  /** How long a bike freed for the first in a waitlist is held for them (issue 21). Always on. */
  offertaMinuti: z
    .number(msg('schemas.invalidOfferDuration'))
    .int(msg('schemas.invalidOfferDuration'))
    .min(1, msg('schemas.invalidOfferDuration'))
    .max(1440, msg('schemas.invalidOfferDuration')),
  /**
   * Months after which bookings, damage reports and notices lose their person (issue 23,
   * decision 029). Always on; absent from a PUT = unchanged.
   */
  conservazioneMesi: z
    .number(msg('schemas.invalidRetention'))
    .int(msg('schemas.invalidRetention'))
    .min(1, msg('schemas.invalidRetention'))
    .max(120, msg('schemas.invalidRetention'))
    .optional(),
  /** After `soglia` no-shows in `finestraGiorni` days, no booking for `giorni` days; null: off. */
  sospensione: z
    .object({
      soglia: z.number().int().min(1, msg('schemas.noShowThreshold')).max(20, msg('schemas.noShowThreshold')),
      finestraGiorni: z.number().int().min(1, msg('schemas.oneTo365Days')).max(365, msg('schemas.oneTo365Days')),
      giorni: z.number().int().min(1, msg('schemas.oneTo365Days')).max(365, msg('schemas.oneTo365Days')),
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

const date = (key: PlainKey) => z.string(msg(key)).refine(isRealDate, msg('schemas.invalidDate'));

/** POST /api/admin/chiusure (and …/anteprima): a date range, both days included. */
export const closureRequestSchema = z
  .object({
    dal: date('schemas.closureFirstDay'),
    al: date('schemas.closureLastDay'),
    motivo: z
      .string(msg('schemas.closureReason'))
      .trim()
      .min(1, msg('schemas.closureReason'))
      .max(200, msg('schemas.reasonTooLong')),
    /** The one sede closed (issue 47); absent or null: every sede. */
    sedeId: sedeIdBody.nullish(),
  })
  .refine((c) => c.dal <= c.al, { ...msg('schemas.lastDayBeforeFirst'), path: ['al'] });
export type ClosureRequest = z.input<typeof closureRequestSchema>;

export interface ClosureDto {
  id: number;
  dal: string;
  al: string;
  motivo: string;
  /** The one sede closed (issue 47); null: every sede. */
  sedeId: number | null;
  createdAt: string;
}

/**
 * GET and PUT /api/admin/sedi/:id/orari (issue 47): a sede's own week of opening hours, or
 * null when it keeps the install's (`regole.orari`). A PUT of null gives the install's back.
 */
export const sedeHoursSchema = z.object({
  orari: z.array(dayHoursSchema).length(7, msg('schemas.hoursEveryDay')).nullable(),
});
export type SedeHours = z.infer<typeof sedeHoursSchema>;

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

/** `missing`: the message of an absent value; `format`: the same with the format it wants. */
const localDateTime = (missing: PlainKey, format: PlainKey) =>
  z
    .string(msg(missing))
    .regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/, msg(format))
    .refine((v) => isRealDate(v.slice(0, 10)), msg('schemas.invalidDateShort'));

/** POST /api/admin/biciclette/:id/manutenzioni (and …/anteprima): wall times in TZ_APP. */
export const maintenanceRequestSchema = z
  .object({
    dal: localDateTime('schemas.maintenanceStart', 'schemas.maintenanceStartFormat'),
    al: localDateTime('schemas.maintenanceEnd', 'schemas.maintenanceEndFormat'),
    motivo: z
      .string(msg('schemas.maintenanceReason'))
      .trim()
      .min(1, msg('schemas.maintenanceReason'))
      .max(200, msg('schemas.reasonTooLong')),
  })
  .refine((m) => m.dal < m.al, { ...msg('schemas.endAfterStartMaintenance'), path: ['al'] });
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

/**
 * POST /api/admin/prenotazioni — a booking made at the desk for a user; with `sedeId` (issue 47:
 * the sede the desk chose), the bike must stand there.
 */
export const adminBookingRequestSchema = bookingRequestSchema.and(z.object({ userId: idBody('schemas.chooseUser'), sedeId: sedeIdBody.optional() }));
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
  /** Closures that end today or later (of every sede, and of the one asked for). */
  chiusure: Omit<ClosureDto, 'createdAt' | 'id' | 'sedeId'>[];
  /** The logged-in user's own suspension, if any. */
  sospensione: SuspensionDto | null;
}
