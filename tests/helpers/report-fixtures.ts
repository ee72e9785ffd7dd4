import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.js';
import { biciclette, pagamenti, prenotazioni, users } from '../../src/server/schema.js';
import { zonedInstant } from '../../src/shared/time.js';

let seq = 0;

/** Users straight in the database (no password hashing). */
export async function reportUsers(db: Db, n: number, opts: { residente: boolean; nome?: string; cognome?: string }) {
  const rows = Array.from({ length: n }, () => {
    seq += 1;
    return {
      nome: opts.nome ?? `Nome${seq}`,
      cognome: opts.cognome ?? `Cognome${seq}`,
      email: `rep${process.pid}-${seq}@test.it`,
      passwordHash: 'not-used-here',
      isResidente: opts.residente,
    };
  });
  return (await db.insert(users).values(rows).returning({ id: users.id })).map((r) => r.id);
}

export async function reportBikes(db: Db, n: number, stato: (typeof biciclette.$inferInsert)['stato'] = 'disponibile') {
  const rows = Array.from({ length: n }, () => ({ numero: `R${process.pid}-${++seq}`, modello: 'City Bike', stato }));
  return (await db.insert(biciclette).values(rows).returning({ id: biciclette.id })).map((r) => r.id);
}

export interface SeedBooking {
  userId: number;
  biciId: number;
  date: string;
  start: string;
  end: string;
  stato: 'attiva' | 'completata' | 'cancellata';
  destinazione?: string | null;
  payment?: 'pending' | 'completed' | 'refunded' | 'failed';
}

/** Bookings (and their payments) inserted directly, in chunks. */
export async function seedBookings(db: Db, bookings: SeedBooking[], timeZone = 'Europe/Rome') {
  for (let i = 0; i < bookings.length; i += 500) {
    const chunk = bookings.slice(i, i + 500);
    const ids = await db
      .insert(prenotazioni)
      .values(
        chunk.map((b) => ({
          userId: b.userId,
          biciId: b.biciId,
          dataPrenotazione: b.date,
          orarioInizio: b.start,
          orarioFine: b.end,
          inizio: zonedInstant(b.date, b.start, timeZone)!,
          fine: zonedInstant(b.date, b.end, timeZone)!,
          destinazione: b.destinazione ?? null,
          stato: b.stato,
        })),
      )
      .returning({ id: prenotazioni.id });
    const pays = chunk.flatMap((b, j) =>
      b.payment
        ? [
            {
              prenotazioneId: ids[j]!.id,
              provider: 'simulated' as const,
              status: b.payment,
              providerPaymentId: b.payment === 'completed' || b.payment === 'refunded' ? `pi_rep_${ids[j]!.id}` : null,
              completedAt: b.payment === 'completed' || b.payment === 'refunded' ? new Date() : null,
              refundedAt: b.payment === 'refunded' ? new Date() : null,
            },
          ]
        : [],
    );
    if (pays.length) await db.insert(pagamenti).values(pays);
  }
}

export async function emptyReportTables(db: Db) {
  await db.execute(sql`truncate reports, pagamenti, prenotazioni, sessions, users, biciclette, stats_giornaliere, stats_delta, codici_corsa restart identity cascade`);
}

/** A day of `n` bookings over 40 bikes and 200 users (none active, so no overlap rules apply). */
export async function seedBusyDay(db: Db, date: string, n: number) {
  const residents = await reportUsers(db, 100, { residente: true });
  const externals = await reportUsers(db, 100, { residente: false });
  const bikes = await reportBikes(db, 40);
  const all = [...residents, ...externals];
  const bookings: SeedBooking[] = Array.from({ length: n }, (_, i) => {
    const h = 6 + (i % 16);
    const userId = all[i % all.length]!;
    const external = externals.includes(userId);
    return {
      userId,
      biciId: bikes[i % bikes.length]!,
      date,
      start: `${String(h).padStart(2, '0')}:00`,
      end: `${String(h + 1).padStart(2, '0')}:30`,
      stato: i % 7 === 0 ? 'cancellata' : 'completata',
      destinazione: i % 10 === 0 ? 'Università di Roma Tor Vergata, Facoltà di Ingegneria, via del Politecnico 1 — lato parcheggio' : 'Colosseo',
      ...(external ? { payment: i % 7 === 0 ? 'failed' : 'completed' } : {}),
    } satisfies SeedBooking;
  });
  await seedBookings(db, bookings);
}
