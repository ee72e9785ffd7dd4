import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, sedeColumn } from '../../db/columns.js';
import { sedi } from '../sedi/tables.js';

export const BIKE_STATES = ['disponibile', 'prenotata', 'manutenzione', 'fuori_servizio'] as const;

export const biciclette = pgTable(
  'biciclette',
  {
    id: serial('id').primaryKey(),
    numero: text('numero').notNull().unique(),
    modello: text('modello').notNull(),
    stato: text('stato', { enum: BIKE_STATES }).notNull().default('disponibile'),
    /**
     * True while `prenotata` was set by the booking life cycle (a booking in progress), not
     * by an admin: the life cycle turns back to `disponibile` only the bikes it marked
     * itself. Any admin change clears it (docs/decisions/014-bike-state-vs-lifecycle.md).
     */
    statoAuto: boolean('stato_auto').notNull().default(false),
    /** Where the bike stands (issue 47); its bookings are at the same sede (a trigger, bookings). */
    sedeId: sedeColumn().references(() => sedi.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('biciclette_stato_valid', sql`${t.stato} in ('disponibile', 'prenotata', 'manutenzione', 'fuori_servizio')`),
    check('biciclette_numero_not_blank', sql`length(btrim(${t.numero})) > 0`),
    index('biciclette_sede_idx').on(t.sedeId, t.numero),
  ],
);

export type Bike = typeof biciclette.$inferSelect;
