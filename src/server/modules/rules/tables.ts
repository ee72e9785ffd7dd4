import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from '../../db/columns.js';
import { sedi } from '../sedi/tables.js';

/**
 * The service's rules (issue 20, decision 024): one row (id 1), edited in /admin → Regole.
 * A null limit is switched off. Made at the first start from the environment's defaults
 * (BOOKING_HORIZON_DAYS, PAYMENT_HOLD_MINUTES, NO_SHOW_MINUTES); a change NOTIFYs every
 * process (channel `bicielis_regole`, drizzle/0011).
 */
export const regole = pgTable(
  'regole',
  {
    id: integer('id').primaryKey().default(1),
    /** Seven entries, Monday first: `{ apertura, chiusura }` (HH:mm) or null (closed). */
    orari: jsonb('orari').notNull(),
    durataMassimaMinuti: integer('durata_massima_minuti'),
    prenotazioniSettimanaliMax: integer('prenotazioni_settimanali_max'),
    preavvisoMinimoMinuti: integer('preavviso_minimo_minuti'),
    orizzonteGiorni: integer('orizzonte_giorni'),
    attesaPagamentoMinuti: integer('attesa_pagamento_minuti'),
    mancatoRitiroMinuti: integer('mancato_ritiro_minuti'),
    sospensioneSoglia: integer('sospensione_soglia'),
    sospensioneFinestraGiorni: integer('sospensione_finestra_giorni'),
    sospensioneGiorni: integer('sospensione_giorni'),
    /** How long a waitlist's offer holds its bike (issue 21). */
    offertaMinuti: integer('offerta_minuti').notNull().default(15),
    /**
     * Months after which bookings, damage reports and notices are anonymised (issue 23,
     * decision 029). Null only until the first start after migration 0014 writes RETENTION_MONTHS.
     */
    conservazioneMesi: integer('conservazione_mesi'),
    updatedAt: updatedAt(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    check('regole_one_row', sql`${t.id} = 1`),
    check('regole_conservazione_mesi_range', sql`${t.conservazioneMesi} is null or ${t.conservazioneMesi} between 1 and 120`),
    check('regole_orari_week', sql`jsonb_typeof(${t.orari}) = 'array' and jsonb_array_length(${t.orari}) = 7`),
    check(
      'regole_sospensione_all_or_none',
      sql`(${t.sospensioneSoglia} is null) = (${t.sospensioneFinestraGiorni} is null) and (${t.sospensioneSoglia} is null) = (${t.sospensioneGiorni} is null)`,
    ),
  ],
);

/**
 * A sede's own week (issue 47): its opening hours, in place of the install's (`regole.orari`).
 * No row: the sede keeps the install's hours. The limits stay the install's (`regole`).
 */
export const orariSede = pgTable(
  'orari_sede',
  {
    sedeId: integer('sede_id')
      .primaryKey()
      .references(() => sedi.id, { onDelete: 'cascade' }),
    /** Seven entries, Monday first, as `regole.orari`. */
    orari: jsonb('orari').notNull(),
    updatedAt: updatedAt(),
    updatedBy: text('updated_by'),
  },
  (t) => [check('orari_sede_week', sql`jsonb_typeof(${t.orari}) = 'array' and jsonb_array_length(${t.orari}) = 7`)],
);
