import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, boolean, check, date, index, integer, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tstz, createdAt, updatedAt, sedeColumn } from '../../db/columns.js';
import { users } from '../users/tables.js';
import { biciclette } from '../bikes/tables.js';
import { attese } from '../waitlist/tables.js';
import { sedi } from '../sedi/tables.js';

/** `offerta`: a bike held for the first in a waitlist (issue 21, decision 025); not a booking yet. */
export const BOOKING_STATES = ['attiva', 'completata', 'cancellata', 'offerta'] as const;

/** Why a booking was cancelled: by its owner, by an admin, its payment hold ran out, never picked up. */
export const CANCELLATION_REASONS = [
  'utente',
  'admin',
  'pagamento_scaduto',
  'mancato_ritiro',
  'chiusura',
  'manutenzione',
  'bici_non_rientrata',
  'bici_guasta',
] as const;

/**
 * Why a booking was moved to another bike by the fleet's healing (issue 35, decision 045): its
 * bike was late (`ritardo`), broken or taken out of service (`guasto`), or its owner found a
 * problem at the pick-up (`problema`).
 */
export const MOVE_CAUSES = ['ritardo', 'guasto', 'problema'] as const;

/**
 * Bookings. `dataPrenotazione`/`orarioInizio`/`orarioFine` are what the person chose
 * (local to TZ_APP); `inizio`/`fine` are the same window as instants, used by the
 * exclusion constraint (see drizzle/0000_*.sql) and by the life-cycle job.
 */
export const prenotazioni = pgTable(
  'prenotazioni',
  {
    id: serial('id').primaryKey(),
    /**
     * Null once the booking is anonymous (issue 23, decision 029): its owner deleted their
     * account, or it passed the retention period. Only a concluded booking can be anonymous.
     */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    biciId: integer('bici_id')
      .notNull()
      .references(() => biciclette.id, { onDelete: 'restrict' }),
    /**
     * The bike's sede (issue 47), set from the bike by a trigger at insert and at every move
     * (bookings/triggers/prenotazioni.sql): part of `prenotazioni_no_overlap`, the key a
     * distribution by sede would shard on (decision 053).
     */
    sedeId: sedeColumn().references(() => sedi.id, { onDelete: 'restrict' }),
    dataPrenotazione: date('data_prenotazione', { mode: 'string' }).notNull(),
    orarioInizio: text('orario_inizio').notNull(),
    orarioFine: text('orario_fine').notNull(),
    inizio: tstz('inizio').notNull(),
    fine: tstz('fine').notNull(),
    destinazione: text('destinazione'),
    stato: text('stato', { enum: BOOKING_STATES }).notNull().default('attiva'),
    /**
     * Whether the user was a resident when booking: set by a trigger from users.is_residente
     * at insert (drizzle/0005_stats.sql), read by the statistics (decision 017).
     */
    residente: boolean('residente').notNull().default(false),
    /** The ride (decision 022): when the owner took the bike (`Ritirata`) and brought it back. */
    ritirataAt: tstz('ritirata_at'),
    riconsegnataAt: tstz('riconsegnata_at'),
    /** Why a `cancellata` booking was cancelled (null for bookings cancelled before issue 13). */
    motivoCancellazione: text('motivo_cancellazione', { enum: CANCELLATION_REASONS }),
    /** When each reminder / overdue notice went out: each is sent once, claimed by an UPDATE. */
    promemoriaInizioAt: tstz('promemoria_inizio_at'),
    promemoriaFineAt: tstz('promemoria_fine_at'),
    ritardoAvvisatoAt: tstz('ritardo_avvisato_at'),
    /** An offer (stato `offerta`, issue 21): its wait, until when it holds the bike, when it was sent. */
    attesaId: integer('attesa_id').references((): AnyPgColumn => attese.id, { onDelete: 'set null' }),
    offertaScadeAt: tstz('offerta_scade_at'),
    offertaAvvisataAt: tstz('offerta_avvisata_at'),
    /**
     * The last move of the booking to another bike (issue 35, decision 045): the bike it left,
     * why, when. The card says so; the heal never moves it back.
     */
    spostataDaBiciId: integer('spostata_da_bici_id').references((): AnyPgColumn => biciclette.id, { onDelete: 'set null' }),
    spostataCausa: text('spostata_causa', { enum: MOVE_CAUSES }),
    spostataAt: tstz('spostata_at'),
    /** Its bike still out with no other free: told once, 15 minutes before the start (issue 35). */
    biciAssenteAvvisataAt: tstz('bici_assente_avvisata_at'),
    /** The owner chose `Aspetta`: moved to the first bike free for the whole window (issue 35). */
    aspettaBiciAt: tstz('aspetta_bici_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('prenotazioni_window', sql`${t.inizio} < ${t.fine}`),
    // A bike cannot be returned before it was taken; a returned booking is completed.
    check(
      'prenotazioni_riconsegna_dopo_ritiro',
      sql`${t.riconsegnataAt} is null or (${t.ritirataAt} is not null and ${t.riconsegnataAt} >= ${t.ritirataAt} and ${t.stato} = 'completata')`,
    ),
    // Taken only while the booking was (or is) active: not for a cancelled one.
    check('prenotazioni_ritiro_non_cancellata', sql`${t.ritirataAt} is null or ${t.stato} <> 'cancellata' or ${t.motivoCancellazione} = 'admin'`),
    check(
      'prenotazioni_motivo_valid',
      sql`${t.motivoCancellazione} is null or (${t.stato} = 'cancellata' and ${t.motivoCancellazione} in ('utente', 'admin', 'pagamento_scaduto', 'mancato_ritiro', 'chiusura', 'manutenzione', 'bici_non_rientrata', 'bici_guasta'))`,
    ),
    check('prenotazioni_spostata_causa_valid', sql`${t.spostataCausa} is null or ${t.spostataCausa} in ('ritardo', 'guasto', 'problema')`),
    check('prenotazioni_stato_valid', sql`${t.stato} in ('attiva', 'completata', 'cancellata', 'offerta')`),
    // An anonymous booking (decision 029) is over: nobody can ride, pay or be offered it.
    check('prenotazioni_anonima_conclusa', sql`${t.userId} is not null or ${t.stato} in ('completata', 'cancellata')`),
    check(
      'prenotazioni_offerta_shape',
      sql`(${t.stato} = 'offerta') = (${t.offertaScadeAt} is not null) and (${t.stato} <> 'offerta' or ${t.attesaId} is not null)`,
    ),
    uniqueIndex('prenotazioni_one_offer_per_wait').on(t.attesaId).where(sql`${t.stato} = 'offerta'`),
    check('prenotazioni_orari_format', sql`${t.orarioInizio} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.orarioFine} ~ '^[0-2][0-9]:[0-5][0-9]$'`),
    check('prenotazioni_destinazione_length', sql`${t.destinazione} is null or length(${t.destinazione}) <= 200`),
    // Invariant 2 of behaviour.md §3: at most one active booking per user.
    uniqueIndex('prenotazioni_one_active_per_user').on(t.userId).where(sql`${t.stato} = 'attiva'`),
    index('prenotazioni_user_idx').on(t.userId, t.createdAt),
    index('prenotazioni_active_fine_idx').on(t.fine).where(sql`${t.stato} = 'attiva'`),
    index('prenotazioni_data_idx').on(t.dataPrenotazione),
    index('prenotazioni_bici_idx').on(t.biciId, t.dataPrenotazione),
    // The statistics' no-shows of a period (stats/service.ts): a few rows a day, read by day.
    index('prenotazioni_no_show_day_idx').on(t.dataPrenotazione).where(sql`${t.motivoCancellazione} = 'mancato_ritiro'`),
    // The admin list's order (newest first: read backwards), so a page is read in index order
    // (decision 013).
    index('prenotazioni_admin_order_idx').on(t.dataPrenotazione, t.orarioInizio, t.id),
    // The admin list of one sede, in the same order (issue 47).
    index('prenotazioni_sede_order_idx').on(t.sedeId, t.dataPrenotazione, t.orarioInizio, t.id),
    // Invariant 1 (no overlapping active bookings of a bike) is an EXCLUDE constraint,
    // which drizzle-kit cannot express: it is written by hand in the first migration.
  ],
);

export type Booking = typeof prenotazioni.$inferSelect;

/**
 * A row of `prenotazioni` that is a booking, not a waitlist's offer (issue 21): every reader
 * of bookings that does not already ask for a state uses it.
 */
export const isBooking = sql`${prenotazioni.stato} <> 'offerta'`;

/** The state of a row read with `isBooking` (an offer cannot be among them). */
export function bookingStato(stato: (typeof BOOKING_STATES)[number]): Exclude<(typeof BOOKING_STATES)[number], 'offerta'> {
  if (stato === 'offerta') throw new Error('an offer read as a booking');
  return stato;
}

export const OFFLINE_ACTION_KINDS = ['ritiro', 'riconsegna'] as const;

export const OFFLINE_TIME_SOURCES = ['dispositivo', 'server'] as const;

/**
 * Ride actions sent with an id made on the device (issue 22, decision 026): a pick-up or a
 * return queued offline and replayed, perhaps twice. The primary key makes it apply once: the
 * row is inserted by the action's own transaction, as its last statement, so two replays on
 * two processes cannot both apply it. `ora_applicata` is the instant written on the booking,
 * the device's (`fonte_ora` 'dispositivo') or the server's. Gone with its booking; purged
 * after 30 days by the hourly purge job.
 */
export const azioniOffline = pgTable(
  'azioni_offline',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    prenotazioneId: integer('prenotazione_id')
      .notNull()
      .references(() => prenotazioni.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: OFFLINE_ACTION_KINDS }).notNull(),
    oraDispositivo: tstz('ora_dispositivo'),
    oraApplicata: tstz('ora_applicata').notNull(),
    fonteOra: text('fonte_ora', { enum: OFFLINE_TIME_SOURCES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('azioni_offline_tipo_valid', sql`${t.tipo} in ('ritiro', 'riconsegna')`),
    check(
      'azioni_offline_fonte_ora_valid',
      sql`${t.fonteOra} = 'server' or (${t.fonteOra} = 'dispositivo' and ${t.oraApplicata} = ${t.oraDispositivo})`,
    ),
    index('azioni_offline_created_idx').on(t.createdAt),
    index('azioni_offline_prenotazione_idx').on(t.prenotazioneId),
  ],
);

/**
 * One row per transaction that changed what the availability read depends on (decision 040):
 * `prenotazioni`, `pagamenti`, `biciclette` or `manutenzioni`, written by triggers
 * (drizzle/0019_availability_changes.sql) so that no writer can forget it. `xid` is the
 * writer's transaction id (`pg_current_xact_id()`): a process that read the fleet's picture
 * under a snapshot asks, with each batch of requests, whether any row's transaction is not
 * visible in that snapshot; if none is, the picture is still exactly what PostgreSQL holds.
 * Pruned after ten minutes by the life-cycle job (`pruneAvailabilityChanges`).
 */
export const disponibilitaModifiche = pgTable('disponibilita_modifiche', {
  xid: bigint('xid', { mode: 'number' }).primaryKey(),
  createdAt: createdAt(),
});
