import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz, createdAt } from '../../db/columns.js';
import { users } from '../users/tables.js';

/** `two_factor`: the pending state after a right password of an admin with a second factor (decision 030). */
/** The ways in (issue 49, decision 055). */
export const SIGN_IN_METHODS = ['password', 'passkey', 'oidc'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const SESSION_KINDS = ['session', 'password_change', 'two_factor'] as const;

/**
 * Server-side sessions. The cookie carries a random token; only its SHA-256 is here.
 * `password_change` rows are the short-lived grants that allow exactly one password change.
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SESSION_KINDS }).notNull().default('session'),
    createdAt: createdAt(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    /** The browser and system the session was opened on, in a few words ("Chrome su Android"): never the whole User-Agent. */
    dispositivo: text('dispositivo'),
    /** How the person signed in (issue 49): `password`, `passkey` or `oidc` (the college's account). */
    metodo: text('metodo', { enum: SIGN_IN_METHODS }).notNull().default('password'),
  },
  (t) => [
    check('sessions_kind_valid', sql`${t.kind} in ('session', 'password_change', 'two_factor')`),
    check('sessions_metodo_valid', sql`${t.metodo} in ('password', 'passkey', 'oidc')`),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);
