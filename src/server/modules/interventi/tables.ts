import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DAMAGE_CATEGORIES } from '../../../shared/damage.js';
import { TICKET_ORIGINS, TICKET_STATES } from '../../../shared/staff.js';
import { bytea, createdAt, sedeColumn, tstz, updatedAt } from '../../db/columns.js';
import { biciclette } from '../bikes/tables.js';
import { prenotazioni } from '../bookings/tables.js';
import { sedi } from '../sedi/tables.js';
import { users } from '../users/tables.js';

/**
 * Repair tickets (`Interventi`, issue 48, decision 054): every damage report opens one on its
 * bike (the return, `La bici ha un problema`, `Segnala un problema`), as does staff by hand.
 * `aperto` → `in_lavorazione` → `riparata`, or `non_riparabile`. Its sede is its bike's, set by
 * the insert's trigger (interventi/triggers/interventi.sql).
 */
export const interventi = pgTable(
  'interventi',
  {
    id: serial('id').primaryKey(),
    sedeId: sedeColumn().references(() => sedi.id, { onDelete: 'restrict' }),
    biciId: integer('bici_id')
      .notNull()
      .references(() => biciclette.id, { onDelete: 'cascade' }),
    /** The booking whose return or pick-up reported it (one ticket per booking, moment and bike). */
    prenotazioneId: integer('prenotazione_id').references(() => prenotazioni.id, { onDelete: 'set null' }),
    origine: text('origine', { enum: TICKET_ORIGINS }).notNull(),
    categoria: text('categoria', { enum: DAMAGE_CATEGORIES }).notNull(),
    descrizione: text('descrizione').notNull(),
    segnalatoDa: integer('segnalato_da').references(() => users.id, { onDelete: 'set null' }),
    stato: text('stato', { enum: TICKET_STATES }).notNull().default('aperto'),
    /** A person with `officina` at the ticket's sede. */
    assegnatarioId: integer('assegnatario_id').references(() => users.id, { onDelete: 'set null' }),
    /** The bike may not be ridden while this ticket is open: it is kept in `manutenzione`. */
    nonUtilizzabile: boolean('non_utilizzabile').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** When it became `riparata` or `non_riparabile`. */
    chiusoAt: tstz('chiuso_at'),
  },
  (t) => [
    check('interventi_stato_valid', sql`${t.stato} in ('aperto', 'in_lavorazione', 'riparata', 'non_riparabile')`),
    check('interventi_origine_valid', sql`${t.origine} in ('riconsegna', 'ritiro', 'segnalazione', 'staff')`),
    check('interventi_categoria_valid', sql`${t.categoria} in ('freni', 'ruote', 'catena', 'luci', 'telaio', 'altro')`),
    check('interventi_descrizione_length', sql`length(${t.descrizione}) between 1 and 500`),
    check('interventi_chiuso_coerente', sql`(${t.chiusoAt} is not null) = (${t.stato} in ('riparata', 'non_riparabile'))`),
    uniqueIndex('interventi_uno_per_prenotazione').on(t.prenotazioneId, t.origine, t.biciId),
    index('interventi_aperti_idx').on(t.sedeId, t.createdAt).where(sql`${t.chiusoAt} is null`),
    index('interventi_bici_idx').on(t.biciId, t.createdAt),
  ],
);

/** A ticket's notes, in time order: who wrote it, what, and the minutes of work it records. */
export const interventiNote = pgTable(
  'interventi_note',
  {
    id: serial('id').primaryKey(),
    interventoId: integer('intervento_id')
      .notNull()
      .references(() => interventi.id, { onDelete: 'cascade' }),
    autoreId: integer('autore_id').references(() => users.id, { onDelete: 'set null' }),
    testo: text('testo').notNull(),
    /** Minutes of work this note records (the ticket's time spent is their sum). */
    minuti: integer('minuti').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('interventi_note_testo_length', sql`length(${t.testo}) <= 2000`),
    check('interventi_note_minuti_range', sql`${t.minuti} between 0 and 1440`),
    index('interventi_note_intervento_idx').on(t.interventoId, t.createdAt),
  ],
);

/**
 * A ticket's photos (issue 48): re-encoded on the server (sharp), at most 1600 px, no metadata,
 * kept in PostgreSQL so every process sees them and backups hold them. `notaId` null: the report's.
 */
export const interventiFoto = pgTable(
  'interventi_foto',
  {
    id: serial('id').primaryKey(),
    interventoId: integer('intervento_id')
      .notNull()
      .references(() => interventi.id, { onDelete: 'cascade' }),
    notaId: integer('nota_id').references(() => interventiNote.id, { onDelete: 'cascade' }),
    caricataDa: integer('caricata_da').references(() => users.id, { onDelete: 'set null' }),
    mime: text('mime').notNull(),
    dati: bytea('dati').notNull(),
    larghezza: integer('larghezza').notNull(),
    altezza: integer('altezza').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('interventi_foto_mime_valid', sql`${t.mime} in ('image/jpeg', 'image/webp')`),
    check('interventi_foto_lato', sql`${t.larghezza} between 1 and 1600 and ${t.altezza} between 1 and 1600`),
    index('interventi_foto_intervento_idx').on(t.interventoId),
  ],
);

export type InterventoRow = typeof interventi.$inferSelect;
