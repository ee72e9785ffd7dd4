import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { STAFF_ROLES } from '../../../shared/staff.js';
import { tstz, createdAt, updatedAt, sedeColumn } from '../../db/columns.js';
import { residenti } from '../residents/tables.js';
import { sedi } from '../sedi/tables.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    nome: text('nome').notNull(),
    cognome: text('cognome').notNull(),
    email: text('email').notNull().unique(),
    /** Null: no password (an account made by a college login, issue 49); the password login refuses it. */
    passwordHash: text('password_hash'),
    ruolo: text('ruolo', { enum: ['admin', 'user'] }).notNull().default('user'),
    isResidente: boolean('is_residente').notNull().default(false),
    siglaResidente: text('sigla_residente')
      .unique()
      .references(() => residenti.sigla, { onUpdate: 'cascade', onDelete: 'restrict' }),
    attiva: boolean('attiva').notNull().default(true),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    tempPasswordHash: text('temp_password_hash'),
    tempPasswordExpiresAt: tstz('temp_password_expires_at'),
    /**
     * When an admin last lifted this user's no-show suspension (issue 20): no-shows before it
     * no longer count. The suspension itself is derived from the no-shows at read time.
     */
    sospensioneRevocataAt: tstz('sospensione_revocata_at'),
    /**
     * The second factor (issue 23, decision 030): the TOTP secret encrypted with the key of
     * the configuration (never in clear), when it was confirmed (null: being enrolled, or
     * none), and the last time step a code was accepted for (a code is never used twice).
     */
    totpSegreto: text('totp_segreto'),
    totpAttivoAt: tstz('totp_attivo_at'),
    totpUltimoPasso: bigint('totp_ultimo_passo', { mode: 'number' }),
    /**
     * A passkey (with user verification) is the admin's second factor instead of TOTP (issue 49):
     * set only while the person has a passkey (the passkeys module clears it with the last one).
     */
    passkeySecondoFattore: boolean('passkey_secondo_fattore').notNull().default(false),
    /** The language the person reads BiciElis in (issue 36): the web app, answers, emails, notices, the PDF. */
    lingua: text('lingua', { enum: ['it', 'en'] }).notNull().default('it'),
    /** The person's home sede (issue 47): where the booking form opens. */
    sedeId: sedeColumn().references(() => sedi.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_email_normalised', sql`${t.email} = lower(btrim(${t.email})) and position('@' in ${t.email}) > 1`),
    check('users_ruolo_valid', sql`${t.ruolo} in ('admin', 'user')`),
    check('users_lingua_valid', sql`${t.lingua} in ('it', 'en')`),
    check('users_totp_attivo_ha_segreto', sql`${t.totpAttivoAt} is null or ${t.totpSegreto} is not null`),
    index('users_sede_idx').on(t.sedeId),
  ],
);

export type User = typeof users.$inferSelect;

/**
 * A person's roles at the sedi (issue 48, decision 054): `portineria` or `officina` at one sede.
 * `users.ruolo` stays `admin | user`; what a role may do is `ROLE_CAPABILITIES` (shared/staff.ts).
 * Written only by an admin's edit of the user (users/store.ts); a change ends the person's cached
 * sessions' view of it (NOTIFY `bicielis_auth`, users/triggers/incarichi.sql).
 */
export const incarichi = pgTable(
  'incarichi',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sedeId: integer('sede_id')
      .notNull()
      .references(() => sedi.id, { onDelete: 'cascade' }),
    ruolo: text('ruolo', { enum: STAFF_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.sedeId, t.ruolo] }),
    check('incarichi_ruolo_valid', sql`${t.ruolo} in ('portineria', 'officina')`),
    index('incarichi_sede_idx').on(t.sedeId, t.ruolo),
  ],
);

export type IncaricoRow = typeof incarichi.$inferSelect;
