import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, tstz, createdAt } from '../../db/columns.js';
import { users } from '../users/tables.js';

/**
 * A person's passkeys (issue 49, decision 055): WebAuthn credentials, each named by the device it
 * was made on, with its last use. `credential_id` is the authenticator's id (base64url), the
 * public key is COSE as the authenticator gave it, `contatore` its signature counter.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    chiavePubblica: bytea('chiave_pubblica').notNull(),
    contatore: bigint('contatore', { mode: 'number' }).notNull().default(0),
    /** The transports the authenticator named (`internal`, `hybrid`, `usb`…), for the next request's hints. */
    trasporti: jsonb('trasporti').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** "Chrome su Android", "iPhone": from the device that made it; the person may not rename it. */
    nome: text('nome').notNull(),
    /** Synced by its provider (a passkey in a password manager) rather than bound to one device. */
    sincronizzata: boolean('sincronizzata').notNull().default(false),
    createdAt: createdAt(),
    ultimoUsoAt: tstz('ultimo_uso_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
    check('passkeys_nome_length', sql`length(${t.nome}) between 1 and 80`),
  ],
);

/** What a WebAuthn challenge was made for. */
export const WEBAUTHN_SCOPI = ['registrazione', 'accesso', 'secondo_fattore'] as const;

/**
 * A WebAuthn challenge handed to a browser: five minutes, used once (the verification deletes the
 * row it reads). `user_id` is the person registering or at the second-factor step; null for a
 * login, where the passkey names its person. The browser holds the id in a cookie, hashed here.
 */
export const webauthnSfide = pgTable(
  'webauthn_sfide',
  {
    idHash: text('id_hash').primaryKey(),
    scopo: text('scopo', { enum: WEBAUTHN_SCOPI }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    challenge: text('challenge').notNull(),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [
    check('webauthn_sfide_scopo_valid', sql`${t.scopo} in ('registrazione', 'accesso', 'secondo_fattore')`),
    check('webauthn_sfide_utente', sql`(${t.scopo} = 'accesso') = (${t.userId} is null)`),
    index('webauthn_sfide_expires_idx').on(t.expiresAt),
  ],
);
