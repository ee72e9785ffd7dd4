import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../../db/columns.js';
import { users } from '../users/tables.js';

/** Web-push subscriptions of the installed app (one per browser), for the reminders. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The browser's `expirationTime`, when it gave one: past it the subscription is dead (decision 029). */
    scadeAt: tstz('scade_at'),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * Settings the app makes for itself once and every process shares (decision 022): the web-push
 * VAPID key pair when VAPID_* are not configured. One row per key.
 */
export const impostazioni = pgTable('impostazioni', {
  chiave: text('chiave').primaryKey(),
  valore: text('valore').notNull(),
  createdAt: createdAt(),
});
