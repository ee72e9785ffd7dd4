import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { tstz, createdAt } from '../../db/columns.js';
import { users } from '../users/tables.js';
import { biciclette } from '../bikes/tables.js';
import { sedi } from '../sedi/tables.js';

/** Days the service is closed (issue 20): nothing may be booked from `dal` to `al`, both included. */
export const chiusure = pgTable(
  'chiusure',
  {
    id: serial('id').primaryKey(),
    dal: date('dal', { mode: 'string' }).notNull(),
    al: date('al', { mode: 'string' }).notNull(),
    motivo: text('motivo').notNull(),
    /** The one sede closed (issue 47); null: every sede. */
    sedeId: integer('sede_id').references(() => sedi.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('chiusure_range', sql`${t.dal} <= ${t.al}`),
    check('chiusure_motivo_length', sql`length(btrim(${t.motivo})) between 1 and 200`),
    index('chiusure_al_idx').on(t.al),
  ],
);

/**
 * Planned maintenance of one bike (issue 20): offered to nobody from `inizio` to `fine`; the
 * life cycle shows it `manutenzione` (stato_auto) inside the period. Two periods of one bike
 * never overlap (an EXCLUDE constraint written by hand in drizzle/0011).
 */
export const manutenzioni = pgTable(
  'manutenzioni',
  {
    id: serial('id').primaryKey(),
    biciId: integer('bici_id')
      .notNull()
      .references(() => biciclette.id, { onDelete: 'cascade' }),
    inizio: tstz('inizio').notNull(),
    fine: tstz('fine').notNull(),
    motivo: text('motivo').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('manutenzioni_window', sql`${t.inizio} < ${t.fine}`),
    check('manutenzioni_motivo_length', sql`length(btrim(${t.motivo})) between 1 and 200`),
    index('manutenzioni_fine_idx').on(t.fine),
  ],
);
