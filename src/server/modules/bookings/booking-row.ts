import { sql } from 'drizzle-orm';
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
  inizio: Date | string;
  fine: Date | string;
  pagata: boolean;
  /** The owner's language (issue 36): the notices of a move or a cancellation are written in it. */
  lingua: Lingua;
}

export const MOVABLE_BOOKING_COLUMNS = sql`p.id, p.user_id, u.nome, u.cognome, u.email, u.lingua, p.bici_id, b.numero, b.modello,
  p.data_prenotazione::text as data_prenotazione, p.orario_inizio, p.orario_fine, p.inizio, p.fine,
  exists (select 1 from pagamenti pay where pay.prenotazione_id = p.id and pay.status = 'completed') as pagata`;
