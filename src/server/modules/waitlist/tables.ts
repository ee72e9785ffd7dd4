import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, date, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz, createdAt, sedeColumn } from '../../db/columns.js';
import { users } from '../users/tables.js';
import { sedi } from '../sedi/tables.js';

/**
 * Open: in_attesa, offerta. Ended (the statistics read `scaduta` as unserved demand): servita (booked through an
 * offer), rinunciata (declined, or could not accept: an active booking), persa (the offer ran out unanswered),
 * scaduta (the window started, no bike ever offered), uscita (left the line, or an admin closed the day).
 */
export const WAIT_STATES = ['in_attesa', 'offerta', 'servita', 'rinunciata', 'persa', 'scaduta', 'uscita'] as const;

/**
 * The waitlist (issue 21, decision 025): a user's place in the line for one window. Open
 * while `in_attesa` or `offerta` (a bike held for them: a `prenotazioni` row in stato
 * `offerta`); `ended_at` and the final state say how it ended. The line's order is
 * `created_at`, then `id`. Kept after a user's deletion, anonymous, for the statistics.
 */
export const attese = pgTable(
  'attese',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    dataPrenotazione: date('data_prenotazione', { mode: 'string' }).notNull(),
    orarioInizio: text('orario_inizio').notNull(),
    orarioFine: text('orario_fine').notNull(),
    inizio: tstz('inizio').notNull(),
    fine: tstz('fine').notNull(),
    destinazione: text('destinazione'),
    /** The sede whose bikes are waited for (issue 47): an offer is a bike of this sede. */
    sedeId: sedeColumn().references(() => sedi.id, { onDelete: 'restrict' }),
    stato: text('stato', { enum: WAIT_STATES }).notNull().default('in_attesa'),
    /**
     * Put first in line (issue 35): a booking cancelled because its bike had a problem at the
     * pick-up and no other was free. The line is `prima_in_fila` first, then `created_at`, `id`.
     */
    primaInFila: boolean('prima_in_fila').notNull().default(false),
    createdAt: createdAt(),
    endedAt: tstz('ended_at'),
  },
  (t) => [
    check('attese_window', sql`${t.inizio} < ${t.fine}`),
    check('attese_stato_valid', sql`${t.stato} in ('in_attesa', 'offerta', 'servita', 'rinunciata', 'persa', 'scaduta', 'uscita')`),
    check('attese_ended', sql`(${t.stato} in ('in_attesa', 'offerta')) = (${t.endedAt} is null)`),
    check('attese_destinazione_length', sql`${t.destinazione} is null or length(${t.destinazione}) <= 200`),
    index('attese_open_idx').on(t.sedeId, t.inizio, t.createdAt, t.id).where(sql`${t.stato} in ('in_attesa', 'offerta')`),
    uniqueIndex('attese_one_per_window').on(t.userId, t.inizio, t.fine).where(sql`${t.stato} in ('in_attesa', 'offerta')`),
    index('attese_day_idx').on(t.dataPrenotazione),
  ],
);

/**
 * Freed time, the outbox of the waitlist's dispatcher (decision 035): "this bike's time from
 * `inizio` to `fine` is free again" (bike and window null when the change concerns every
 * bike: a closure, a user gone, a wait joined). Written only by the triggers of
 * drizzle/0018_freed_time.sql, in the transaction of the change; claimed and deleted by
 * modules/waitlist/dispatcher.ts after the commit, in whichever process gets there first.
 */
export const tempoLiberato = pgTable('tempo_liberato', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  biciId: integer('bici_id'),
  inizio: tstz('inizio'),
  fine: tstz('fine'),
  motivo: text('motivo').notNull(),
  createdAt: createdAt(),
});
