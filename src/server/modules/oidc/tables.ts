import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz, createdAt } from '../../db/columns.js';
import { users } from '../users/tables.js';

/**
 * The college's accounts linked to BiciElis accounts (issue 49, decision 055): the provider's
 * `sub` at its issuer. A later login finds the account by `(issuer, sub)`, whatever the email
 * at the provider has become. One college account per BiciElis account and issuer.
 */
export const identitaEsterne = pgTable(
  'identita_esterne',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    sub: text('sub').notNull(),
    /** The email the provider gave at the last login (shown in /profilo). */
    email: text('email').notNull(),
    createdAt: createdAt(),
    ultimoAccessoAt: tstz('ultimo_accesso_at'),
  },
  (t) => [
    uniqueIndex('identita_esterne_issuer_sub').on(t.issuer, t.sub),
    uniqueIndex('identita_esterne_user_issuer').on(t.userId, t.issuer),
  ],
);

/**
 * A sign-in begun at the provider and not yet back (`state`, `nonce`, PKCE's verifier): ten
 * minutes, used once (the callback deletes the row it reads, so a replayed callback finds none).
 * Only the SHA-256 of `state` is kept.
 */
export const oidcRichieste = pgTable(
  'oidc_richieste',
  {
    stateHash: text('state_hash').primaryKey(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** Where to go after the login (a path of the app), and the page's language. */
    ritorno: text('ritorno'),
    lingua: text('lingua', { enum: ['it', 'en'] }).notNull().default('it'),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [check('oidc_richieste_lingua_valid', sql`${t.lingua} in ('it', 'en')`), index('oidc_richieste_expires_idx').on(t.expiresAt)],
);

/**
 * A college account seen for the first time, with an email no account has: what the provider
 * said, waiting for the completion form (name, sigla, privacy notice). Thirty minutes; the
 * browser holds the token in a cookie, only its SHA-256 is here.
 */
export const oidcCompletamenti = pgTable(
  'oidc_completamenti',
  {
    tokenHash: text('token_hash').primaryKey(),
    issuer: text('issuer').notNull(),
    sub: text('sub').notNull(),
    email: text('email').notNull(),
    nome: text('nome'),
    cognome: text('cognome'),
    lingua: text('lingua', { enum: ['it', 'en'] }).notNull().default('it'),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [check('oidc_completamenti_lingua_valid', sql`${t.lingua} in ('it', 'en')`), index('oidc_completamenti_expires_idx').on(t.expiresAt)],
);
