import type { SessionUser } from '../api-types.js';
import { returnRequestSchema } from './booking.js';
import type { BikeDto, BikeStato, BookingPhase, BookingStato, CancellationReason, DamageCategory, PaymentStatus } from './booking.js';
import { z } from '../zod-it.js';
import { msg } from './message.js';
import { emailField } from './auth.js';
import { idParam } from './ids.js';
import { sedeIdBody, sedeIdParam } from './sedi.js';
import { pageFields } from './paging.js';
import { STAFF_ROLES } from '../staff.js';
import { ADMIN_PAGE_SIZE_DEFAULT, ADMIN_PAGE_SIZE_MAX, TOTAL_COUNT_HEADER } from '../admin-lists.js';

/**
 * The admin API (behaviour.md §8, spec §2 "Admin dashboard", §3 admin view) — one source
 * for the routes and the /admin screen. Every /api/admin/* route: 401 anonymous, 403 non-admin.
 *
 * Lists stay arrays, as spec §7 says, but are bounded: the server pages them. The page is
 * chosen with `page` (1-based) and `pageSize` (default 50, at most 200) in the query string,
 * and the answer carries the total number of matching rows in the `X-Total-Count` header.
 */

export { ADMIN_PAGE_SIZE_DEFAULT, ADMIN_PAGE_SIZE_MAX, TOTAL_COUNT_HEADER };

export const adminIdParamsSchema = z.object({ id: idParam('schemas.itemNotFound') });

const paging = {
  ...pageFields,
  /** Only the rows of this sede (issue 47); absent: every sede. */
  sedeId: sedeIdParam.optional(),
  /** Free text, matched case-insensitively (bookings: user name/surname/email, bike number, destination; users: name, surname, email, sigla). */
  q: z
    .string()
    .max(200, msg('schemas.searchTooLong'))
    .optional()
    .transform((v) => (v ?? '').trim()),
};

/** GET /api/admin/prenotazioni?q=&stato=&page=&pageSize= — newest first (by date, then start). */
export const adminBookingsQuerySchema = z.object({
  ...paging,
  stato: z.enum(['tutti', 'attiva', 'completata', 'cancellata'], msg('schemas.invalidStatus')).default('tutti'),
  /** The ride's phase at now (decision 022); with `stato`, both apply. */
  fase: z
    .enum(['tutte', 'da_ritirare', 'in_corso', 'in_ritardo', 'conclusa', 'cancellata'], msg('schemas.invalidPhase'))
    .default('tutte'),
});

/** A booking as the admin sees it (spec §3 "Booking, admin view"). */
export interface AdminBookingDto {
  id: number;
  /** Display name: "Nome Cognome". */
  utente: string;
  biciNumero: string;
  destinazione: string | null;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  stato: BookingStato;
  userName: string;
  userSurname: string;
  userEmail: string;
  biciModello: string;
  paymentStatus: PaymentStatus;
  createdAt: string;
  fase: BookingPhase;
  ritirataAt: string | null;
  riconsegnataAt: string | null;
  motivoCancellazione: CancellationReason | null;
  /** The booking's sede (its bike's, issue 47). */
  sedeId: number;
}

/** GET /api/admin/danni — one damage report (open ones first, then those resolved in the last 30 days). */
export interface AdminDamageDto {
  id: number;
  prenotazioneId: number | null;
  biciId: number;
  biciNumero: string;
  biciModello: string;
  /** The bike's state now (the admin decides it: resolving a report does not change it). */
  biciStato: BikeStato;
  /** "Nome Cognome" of who reported it; null once that account is deleted. */
  utente: string | null;
  userEmail: string | null;
  categoria: DamageCategory;
  descrizione: string;
  createdAt: string;
  risoltaAt: string | null;
  /** The bike's sede (issue 47). */
  sedeId: number;
}

/** GET /api/admin/ritardi — the rides in ritardo now, the latest-overdue first. */
export interface AdminOverdueDto {
  id: number;
  utente: string;
  userEmail: string;
  biciId: number;
  biciNumero: string;
  biciModello: string;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  fine: string;
  ritirataAt: string;
  minutiRitardo: number;
  /** The ride's sede (its bike's, issue 47). */
  sedeId: number;
  /** The bike's next active booking, whose owner was warned. */
  prossima: { id: number; utente: string; dataPrenotazione: string; orarioInizio: string; orarioFine: string } | null;
}

/** GET /api/admin/users?q=&page=&pageSize= — by id. */
export const adminUsersQuerySchema = z.object(paging);
export type AdminUserDto = Omit<SessionUser, 'lingua'> & {
  /** Suspended after repeated no-shows until this instant (ISO), or null (issue 20). */
  sospesoFino: string | null;
};

/** GET /api/admin/biciclette — the whole fleet (bounded: at most 1,000 bikes), by number. */
export type AdminBikeDto = BikeDto;

/** GET /api/admin/summary — the four cards and the tab counts, computed in SQL. */
export interface AdminSummary {
  /** Bookings `attiva` whose window contains now ("Bici in uso ora"). */
  biciInUsoOra: number;
  /** Bookings `attiva` (now or later). */
  prenotazioniAttive: number;
  /** Bikes `disponibile`, and the whole fleet ("N di M"). */
  biciDisponibili: number;
  biciTotali: number;
  utentiTotali: number;
  /** Bookings completed today in TZ_APP (behaviour.md §8 fixes the spec's "all"). */
  completateOggi: number;
  bikesByStato: Record<BikeStato, number>;
  bookingsByStato: Record<BookingStato, number>;
  /** Rides picked up and not returned by their end (decision 022). */
  ritardi: number;
  /** Damage reports not yet marked resolved. */
  danniAperti: number;
}

/** DELETE /api/admin/prenotazioni/:id → 200; a paid booking is refunded first (502 if the provider fails, nothing changes). */
export interface AdminDeleteBookingResponse {
  id: number;
  refunded: boolean;
}

/**
 * POST /api/admin/prenotazioni/:id/riconsegna (issue 48) — the desk's return on the person's
 * behalf: no body, or a damage report as the person's own return carries it.
 */
export const deskReturnRequestSchema = returnRequestSchema.pick({ danno: true }).nullish();

/** At most this many roles in one person's list (two roles at up to 50 sedi). */
export const STAFF_ROLES_MAX = 100;

/** PUT /api/admin/users/:id → 200 AdminUserDto. 409 duplicate email; 409 last active admin demoted/deactivated. */
export const adminUserUpdateSchema = z.object({
  nome: z.string(msg('schemas.nameRequired')).trim().min(1, msg('schemas.nameRequired')).max(100, msg('schemas.nameTooLong')),
  cognome: z.string().trim().max(100, msg('schemas.surnameTooLong')).default(''),
  email: emailField('schemas.emailRequired'),
  ruolo: z.enum(['user', 'admin'], msg('schemas.invalidRole')),
  isResidente: z.boolean(msg('validation.invalidValue')),
  attiva: z.boolean(msg('validation.invalidValue')),
  /** The home sede (issue 47): an open one; absent, it stays. */
  sedeId: sedeIdBody.optional(),
  /**
   * The person's roles at the sedi (issue 48): the whole list, replacing the one they have; each
   * sede open (else 400); a pair given twice counts once. Absent: unchanged.
   */
  incarichi: z
    .array(z.object({ sedeId: sedeIdBody, ruolo: z.enum(STAFF_ROLES, msg('schemas.staffRoleInvalid')) }, msg('schemas.staffRolesInvalid')), msg('schemas.staffRolesInvalid'))
    .max(STAFF_ROLES_MAX, msg('schemas.staffRolesTooMany', { max: STAFF_ROLES_MAX }))
    .optional(),
});
export type AdminUserUpdate = z.input<typeof adminUserUpdateSchema>;

/** DELETE /api/admin/users/:id → 200. 409 for the last active admin and for oneself. */
export interface AdminDeleteUserResponse {
  id: number;
  deletedBookings: number;
  refundedPayments: number;
}

/**
 * PUT /api/admin/biciclette/:id: its state, its sede (issue 47: moved to another sede, its
 * bookings moved within the old one or cancelled), or both; at least one.
 */
export const adminBikeUpdateSchema = z
  .object({
    stato: z.enum(['disponibile', 'prenotata', 'manutenzione', 'fuori_servizio'], msg('schemas.invalidStatus')).optional(),
    sedeId: sedeIdBody.optional(),
  })
  .refine((b) => b.stato !== undefined || b.sedeId !== undefined, msg('sediMovesSchemas.bikeUpdateEmpty'));
export type AdminBikeUpdate = z.input<typeof adminBikeUpdateSchema>;
/**
 * Answer of PUT /api/admin/biciclette/:id. Putting a bike in `manutenzione` or
 * `fuori_servizio` keeps its future `attiva` bookings (the admin decides), emails their
 * users, and says how many: `futureBookings` and `notifiedUsers`; `message` is the Italian
 * sentence to show.
 */
export interface AdminBikeUpdateResponse {
  bike: AdminBikeDto;
  /** Active bookings still on the bike: out of use, those beyond the next 24 hours (moved later). */
  futureBookings: number;
  /** People told of a move or a cancellation. */
  notifiedUsers: number;
  /**
   * Out of use (issue 35): the bike's bookings of the next 24 hours moved, and cancelled. Moved
   * to another sede (issue 47): every booking of the bike not yet picked up, moved within the
   * old sede or cancelled.
   */
  spostate: number;
  annullate: number;
  message: string;
}

/** POST /api/admin/biciclette → 201 AdminBikeDto; 409 number already used. */
export const adminBikeCreateSchema = z.object({
  numero: z.string(msg('schemas.bikeNumberRequired')).trim().min(1, msg('schemas.bikeNumberRequired')).max(20, msg('schemas.numberTooLong')),
  modello: z.string(msg('schemas.modelRequired')).trim().min(1, msg('schemas.modelRequired')).max(100, msg('schemas.modelTooLong')),
  /** Its sede (issue 47); without it, the first open sede. */
  sedeId: sedeIdBody.optional(),
});
export type AdminBikeCreate = z.input<typeof adminBikeCreateSchema>;

/** POST /api/admin/import-residents → 200; 409 with a clear message without RESIDENT_INITIAL_PASSWORD. */
export interface ImportResidentsResponse {
  imported: number;
  skipped: number;
}
