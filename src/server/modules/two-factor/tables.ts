import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz, createdAt } from '../../db/columns.js';
import { users } from '../users/tables.js';

/**
 * The single-use recovery codes of a second factor (decision 030): ten per enrolment, each
 * kept as an HMAC-SHA-256 under the configuration's key, used at most once (`usato_at`).
 */
export const codiciRecupero = pgTable(
  'codici_recupero',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    usatoAt: tstz('usato_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('codici_recupero_user_hash').on(t.userId, t.hash)],
);
