import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.js';
import { sedi } from '../sedi/tables.js';

/** Resident codes (sigle). Stored upper-case so that comparison is case-insensitive. */
export const residenti = pgTable(
  'residenti',
  {
    id: serial('id').primaryKey(),
    sigla: text('sigla').notNull().unique(),
    nome: text('nome').notNull(),
    cognome: text('cognome').notNull(),
    corsoDiStudi: text('corso_di_studi'),
    annoCorso: integer('anno_corso'),
    attivo: boolean('attivo').notNull().default(true),
    /** The resident's sede (issue 47), from the import's optional `sede` column: their account's home sede. */
    sedeId: integer('sede_id').references(() => sedi.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('residenti_sigla_upper', sql`${t.sigla} = upper(${t.sigla}) and length(${t.sigla}) between 1 and 32`),
    check('residenti_anno_corso_range', sql`${t.annoCorso} is null or ${t.annoCorso} between 1 and 10`),
  ],
);

export type Resident = typeof residenti.$inferSelect;
