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
