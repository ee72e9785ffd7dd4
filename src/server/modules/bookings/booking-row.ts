import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/transaction.js';
import type { Lingua } from '../../../shared/i18n/index.js';

/**
 * A booking as raw SQL reads return it with its person and its bike (`prenotazioni p` joined to
 * `users u` and `biciclette b`): the columns the admin's overdue list and the closures' affected
 * bookings both select, named as in the database.
 */
export interface BookingPersonBikeRow extends Record<string, unknown> {
  id: number;
  nome: string;
  cognome: string;
  email: string;
  bici_id: number;
  numero: string;
  modello: string;
  data_prenotazione: string;
  orario_inizio: string;
  orario_fine: string;
}

/**
 * A booking a change of the fleet may move or cancel (a closure, a planned maintenance, the
 * fleet's heal: issues 20, 35), with its owner, its window's instants and whether it was paid:
 * the rows `MOVABLE_BOOKING_COLUMNS` selects from `prenotazioni p` joined to `users u` and `biciclette b`.
 */
export interface MovableBookingRow extends BookingPersonBikeRow {
  user_id: number;
  /** The booking's sede (its bike's, issue 47): a move stays inside it. */
  sede_id: number;
  inizio: Date | string;
  fine: Date | string;
  pagata: boolean;
  /** The owner's language (issue 36): the notices of a move or a cancellation are written in it. */
  lingua: Lingua;
}

const MOVABLE_BOOKING_COLUMNS = sql`p.id, p.user_id, u.nome, u.cognome, u.email, u.lingua, p.bici_id, p.sede_id, b.numero, b.modello,
  p.data_prenotazione::text as data_prenotazione, p.orario_inizio, p.orario_fine, p.inizio, p.fine,
  exists (select 1 from pagamenti pay where pay.prenotazione_id = p.id and pay.status = 'completed') as pagata`;

/**
 * The bookings other modules move or cancel (MovableBookingRow, with `extra` columns), of
 * `prenotazioni p` with its person `u` and bike `b` (its payment `pay` left joined with
 * `withPayment`) where `where` holds, in start order; `lock`: for update of p.
 */
export async function movableBookings<R extends MovableBookingRow = MovableBookingRow>(
  tx: Pick<Tx, 'execute'>,
  where: SQL,
  o: { extra?: SQL; withPayment?: boolean; lock?: boolean } = {},
): Promise<R[]> {
  const { rows } = await tx.execute<Record<string, unknown>>(sql`
    select ${MOVABLE_BOOKING_COLUMNS}${o.extra ? sql`, ${o.extra}` : sql``}
      from prenotazioni p join users u on u.id = p.user_id join biciclette b on b.id = p.bici_id
      ${o.withPayment ? sql`left join pagamenti pay on pay.prenotazione_id = p.id` : sql``}
     where ${where}
     order by p.inizio, p.id
     ${o.lock ? sql`for update of p` : sql``}`);
  return rows as R[];
}
