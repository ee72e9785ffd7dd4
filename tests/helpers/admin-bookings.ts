import type { Db } from '../../src/server/db/client.js';
import { biciclette, prenotazioni } from '../../src/server/schema.js';
import { zonedInstant } from '../../src/shared/time.js';

let seq = 0;

export async function insertBike(
  db: Db,
  opts: { numero?: string; modello?: string; stato?: 'disponibile' | 'prenotata' | 'manutenzione' | 'fuori_servizio' } = {},
): Promise<number> {
  seq += 1;
  const [row] = await db
    .insert(biciclette)
    .values({ numero: opts.numero ?? `A${seq}`, modello: opts.modello ?? 'City Bike', stato: opts.stato ?? 'disponibile' })
    .returning({ id: biciclette.id });
  return row!.id;
}

/** A booking written straight into the database (times in Europe/Rome). */
export async function insertBooking(
  db: Db,
  b: {
    userId: number;
    biciId: number;
    date: string;
    from: string;
    to: string;
    stato?: 'attiva' | 'completata' | 'cancellata';
    destinazione?: string | null;
    createdAt?: Date;
    /** When the bike was picked up (decision 022); not picked up by default. */
    ritirataAt?: Date;
  },
): Promise<number> {
  const [row] = await db
    .insert(prenotazioni)
    .values({
      userId: b.userId,
      biciId: b.biciId,
      dataPrenotazione: b.date,
      orarioInizio: b.from,
      orarioFine: b.to,
      inizio: zonedInstant(b.date, b.from, 'Europe/Rome')!,
      fine: zonedInstant(b.date, b.to, 'Europe/Rome')!,
      destinazione: b.destinazione ?? null,
      stato: b.stato ?? 'attiva',
      ...(b.createdAt ? { createdAt: b.createdAt } : {}),
      ...(b.ritirataAt ? { ritirataAt: b.ritirataAt } : {}),
    })
    .returning({ id: prenotazioni.id });
  return row!.id;
}
