import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz, updatedAt } from '../../db/columns.js';
import { biciclette } from '../bikes/tables.js';
import { prenotazioni } from '../bookings/tables.js';

/** The kinds of lock a bike may have (no `lucchetti` row: `nessuno`). */
export const LOCK_TYPES = ['combinazione', 'smart'] as const;
/** Where a booking's smart-lock PIN is in its life (decision 044). */
export const PIN_STATES = ['da_creare', 'attivo', 'da_estendere', 'da_revocare', 'revocato'] as const;

/**
 * The bikes' locks (issue 34, decision 044): one row per bike that has one. A combination lock
 * keeps its current 4-digit code; a smart lock its device's id at the provider (decision 043).
 * `da_cambiare_dal`: a code was shown to someone who never picked the bike up (set by a trigger
 * on `prenotazioni`, drizzle/0020_locks.sql; cleared by an admin's new code): `/admin` shows
 * `Codice da cambiare`.
 */
export const lucchetti = pgTable(
  'lucchetti',
  {
    biciId: integer('bici_id')
      .primaryKey()
      .references(() => biciclette.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: LOCK_TYPES }).notNull(),
    codice: text('codice'),
    idLucchetto: text('id_lucchetto'),
    daCambiareDal: tstz('da_cambiare_dal'),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('lucchetti_tipo_valid', sql`${t.tipo} in ('combinazione', 'smart')`),
    check(
      'lucchetti_shape',
      sql`(${t.tipo} = 'combinazione' and ${t.codice} ~ '^[0-9]{4}$' and ${t.idLucchetto} is null)
       or (${t.tipo} = 'smart' and ${t.codice} is null and ${t.daCambiareDal} is null
           and length(btrim(${t.idLucchetto})) between 1 and 100)`,
    ),
  ],
);

/**
 * A booking's meeting with its bike's lock (decision 044): the code drawn at `Ritirata` for a
 * combination lock (the lock's code once the ride is returned: a trigger), when the owner first
 * asked for the code, and for a smart lock the booking's PIN and its life at the provider.
 */
export const codiciCorsa = pgTable(
  'codici_corsa',
  {
    prenotazioneId: integer('prenotazione_id')
      .primaryKey()
      .references(() => prenotazioni.id, { onDelete: 'cascade' }),
    codiceNuovo: text('codice_nuovo'),
    mostratoAt: tstz('mostrato_at'),
    pin: text('pin'),
    pinId: text('pin_id'),
    pinStato: text('pin_stato', { enum: PIN_STATES }),
    validoDa: tstz('valido_da'),
    validoFino: tstz('valido_fino'),
    tentativi: integer('tentativi').notNull().default(0),
    prossimoTentativo: tstz('prossimo_tentativo'),
    ultimoErrore: text('ultimo_errore'),
  },
  (t) => [
    check('codici_corsa_codice_nuovo_format', sql`${t.codiceNuovo} is null or ${t.codiceNuovo} ~ '^[0-9]{4}$'`),
    check(
      'codici_corsa_pin_stato_valid',
      sql`${t.pinStato} is null or ${t.pinStato} in ('da_creare', 'attivo', 'da_estendere', 'da_revocare', 'revocato')`,
    ),
    // The dispatcher's and the minute job's due rows (decision 044): few, found by index.
    index('codici_corsa_pin_due_idx')
      .on(t.prossimoTentativo)
      .where(sql`${t.pinStato} in ('da_creare', 'da_estendere', 'da_revocare')`),
  ],
);

export type Lock = typeof lucchetti.$inferSelect;
export type RideCode = typeof codiciCorsa.$inferSelect;
