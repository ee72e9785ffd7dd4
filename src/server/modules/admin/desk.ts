import { eq, sql } from 'drizzle-orm';
import type { BookingDto } from '../../../shared/schemas/booking.js';
import type { AdminBookingRequest } from '../../../shared/schemas/rules.js';
import { users } from '../users/tables.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { sessionUserColumns } from '../users/index.js';
import { createBooking } from '../bookings/index.js';
import { currentRules, deskBookingEmail, suspensionOf } from '../rules/index.js';
import { bikeAtSede, sediNames } from '../sedi/index.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * POST /api/admin/prenotazioni — a booking made at the desk for an active user, under every
 * invariant and the hours, closures and maintenance; the fair-use limits and any suspension
 * are overridden, and the override is audited. The user is emailed; an external's booking
 * starts `pending` with the usual hold, and the email holds the payment link.
 */
export async function bookForUser(deps: AdminDeps, actor: Actor, input: AdminBookingRequest & { destinazione: string | null }): Promise<BookingDto> {
  const [user] = await deps.db.select(sessionUserColumns).from(users).where(eq(users.id, input.userId));
  if (!user || !user.attiva) throw notFound(testo('admin.userNotFoundOrInactive'), 'USER_NOT_FOUND');
  const now = deps.clock.now();
  const rules = await currentRules(deps);
  const suspension = await suspensionOf(deps.db, user.id, rules, now);
  const booking = await createBooking(
    deps,
    { id: user.id, isResidente: user.isResidente },
    {
      dataPrenotazione: input.dataPrenotazione,
      orarioInizio: input.orarioInizio,
      orarioFine: input.orarioFine,
      destinazione: input.destinazione,
      biciId: input.biciId,
    },
    {
      override: true,
      // The override is audited with the booking, in its transaction.
      inTransaction: async (tx, bookingId) => {
        // The desk's sede (issue 47): the booking's is its bike's, set by a trigger; another is refused, undone with the transaction.
        if (input.sedeId !== undefined) {
          const { rows } = await tx.execute(sql`select 1 from prenotazioni where id = ${bookingId} and sede_id = ${input.sedeId}`);
          if (rows.length === 0) throw conflict(testo('sediMovesApi.deskBikeOtherSede'), 'BIKE_OTHER_SEDE');
        }
        await writeAudit(
          tx,
          actor,
          {
            action: 'booking.create_for_user',
            entity: 'booking',
            entityId: bookingId,
            after: { ...input, userId: user.id, override: { limitiIgnorati: true, sospensioneIgnorataFino: suspension?.fino ?? null } },
          },
          now,
        );
      },
    },
  ).catch((err: unknown) => {
    // Said of the user, not of the admin who asks.
    if (err instanceof AppError && err.code === 'ALREADY_ACTIVE') throw conflict(testo('admin.userAlreadyActive'), 'ALREADY_ACTIVE');
    throw err;
  });
  deps.mailer.sendInBackground(
    deskBookingEmail(
      { ...booking, biciNumero: bikeAtSede(await sediNames(deps.db), booking.biciNumero, booking.sedeId), email: user.email, nome: user.nome, lingua: user.lingua },
      booking.paymentStatus === 'pending',
      rules.attesaPagamentoMinuti,
      deps.config.publicUrl,
    ),
  );
  return booking;
}
