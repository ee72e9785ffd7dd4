import type { SQL } from 'drizzle-orm';
import type { AffectedBookingDto } from '../../../shared/schemas/rules.js';
import type { Tx } from '../../db/transaction.js';
import type { Config } from '../../config.js';
import type { Mailer } from '../../integrations/mailer.js';
import { asOf, cancelBookings, type MovableBookingRow } from '../bookings/index.js';
import { currentRules, lifecycleMinutes } from '../rules/index.js';
import { bikeAtSede, type SediNames } from '../sedi/index.js';

/** What closures and planned maintenance need: the one cancel's deps, the mailer and the configuration. */
export type ClosureDeps = Parameters<typeof cancelBookings>[0] & { mailer: Mailer; config: Config };

/*
 * The bookings a closure or a planned maintenance touches (issue 20): how they are read,
 * shown, told and cancelled.
 */

/** A booking a closure or a planned maintenance touches (the bookings module's movable row). */
export type AffectedRow = MovableBookingRow;

export const affectedDto = (r: AffectedRow, nuovaBiciNumero?: string | null): AffectedBookingDto => ({
  id: r.id,
  utente: `${r.nome} ${r.cognome}`.trim(),
  email: r.email,
  biciNumero: r.numero,
  dataPrenotazione: r.data_prenotazione,
  orarioInizio: r.orario_inizio,
  orarioFine: r.orario_fine,
  pagata: r.pagata,
  ...(nuovaBiciNumero !== undefined ? { nuovaBiciNumero } : {}),
});

/** A booking's notice; its bike named with its sede when the install has several (issue 47). */
export const noticeOf = (r: AffectedRow, sedi: SediNames) => ({
  email: r.email,
  lingua: r.lingua,
  nome: r.nome,
  biciNumero: bikeAtSede(sedi, r.numero, r.sede_id),
  dataPrenotazione: r.data_prenotazione,
  orarioInizio: r.orario_inizio,
  orarioFine: r.orario_fine,
});

/**
 * Cancels locked bookings with a reason (the bookings module's one cancel): every paid one is
 * refunded first, whatever its hour (the service cancelled it); the ids refunded.
 */
export function cancelAffected(deps: ClosureDeps, tx: Tx, rows: AffectedRow[], reason: 'chiusura' | 'manutenzione', now: Date): Promise<Set<number>> {
  return cancelBookings(deps, tx, rows.map((r) => r.id), { reason, refund: 'always', now });
}

/**
 * A preview reads as of now (decision 035): the condition, on `prenotazioni p` left joined to
 * `pagamenti pay`, of the bookings the life cycle would release, which a preview leaves out.
 */
export async function voidNow(deps: Pick<ClosureDeps, 'db' | 'clock'>): Promise<SQL> {
  return asOf.bookingAsOf('p', deps.clock.now().toISOString(), lifecycleMinutes(await currentRules(deps))).void;
}
