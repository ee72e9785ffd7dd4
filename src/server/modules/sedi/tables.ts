import { sql } from 'drizzle-orm';
import { check, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from '../../db/columns.js';

/**
 * The places where bikes stand (issue 47, decision 053): a residence, or a gate of a campus.
 * Every bike, person, booking, rack board and waitlist belongs to one; a closure or a week's
 * hours to one or to all. Archived (`archiviata_at`), a sede keeps its history but takes no
 * bike, person or booking. The migration made the first one (`SEDE_PREDEFINITA`); an install
 * with one sede shows none of this.
 */
export const sedi = pgTable(
  'sedi',
  {
    id: serial('id').primaryKey(),
    nome: text('nome').notNull(),
    indirizzo: text('indirizzo').notNull().default(''),
    /** Where the rack is, in a few words (`Cortile interno, accanto alla portineria`). */
    notaRastrelliera: text('nota_rastrelliera'),
    archiviataAt: tstz('archiviata_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sedi_nome_length', sql`length(btrim(${t.nome})) between 1 and 80`),
    check('sedi_indirizzo_length', sql`length(${t.indirizzo}) <= 200`),
    check('sedi_nota_length', sql`${t.notaRastrelliera} is null or length(${t.notaRastrelliera}) <= 200`),
    uniqueIndex('sedi_nome_unique').on(sql`lower(btrim(${t.nome}))`),
  ],
);

export type Sede = typeof sedi.$inferSelect;
