import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from '../../db/columns.js';
import { users } from '../users/tables.js';

/** A user's choices of the profile page (decision 022): reminders, and the private calendar feed. */
export const preferenzeUtente = pgTable('preferenze_utente', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  promemoria: boolean('promemoria').notNull().default(true),
  /** SHA-256 of the calendar feed's token (the token itself is shown once, in the URL). */
  calendarioTokenHash: text('calendario_token_hash').unique(),
  updatedAt: updatedAt(),
});
