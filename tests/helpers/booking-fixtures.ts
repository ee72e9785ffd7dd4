import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db/client.js';
import { biciclette, pagamenti, prenotazioni, users } from '../../src/server/schema.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import type { TestContext } from './app.js';

/** A user with a session, made straight in the database (no password hashing: fast). */
export interface SessionedUser {
  id: number;
  cookie: string;
}

let seq = 0;

export async function sessionUser(ctx: TestContext, opts: { residente?: boolean } = {}): Promise<SessionedUser> {
  seq += 1;
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      nome: `Nome${seq}`,
      cognome: `Cognome${seq}`,
      email: `pay${process.pid}-${seq}@test.it`,
      passwordHash: 'not-used-here',
      isResidente: opts.residente ?? false,
    })
    .returning({ id: users.id });
  const { token } = await createSession(ctx.database.db, row!.id, 'session', ctx.clock.now());
  return { id: row!.id, cookie: `bicielis_session=${token}` };
}

export async function addBike(db: Db, numero = `B${++seq}`): Promise<number> {
  const [row] = await db.insert(biciclette).values({ numero, modello: 'City Bike' }).returning({ id: biciclette.id });
  return row!.id;
}

/** TEST_NOW is 2026-11-21 10:00 in Rome; by default the booking is tomorrow 10:00–12:00. */
export async function bookThroughApi(
  app: FastifyInstance,
  user: SessionedUser,
  biciId: number,
  window: { dataPrenotazione?: string; orarioInizio?: string; orarioFine?: string } = {},
): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/prenotazioni',
    headers: { cookie: user.cookie },
    payload: { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00', biciId, ...window },
  });
  if (res.statusCode !== 201) throw new Error(`booking failed: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

export async function paymentOf(db: Db, bookingId: number) {
  const [row] = await db.select().from(pagamenti).where(eq(pagamenti.prenotazioneId, bookingId));
  return row;
}

export async function bookingOf(db: Db, bookingId: number) {
  const [row] = await db.select().from(prenotazioni).where(eq(prenotazioni.id, bookingId));
  return row;
}

export async function countRows(db: Db, table: string): Promise<number> {
  const res = await db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`));
  return res.rows[0]!.n;
}

/** Empties what a payment test writes. */
export async function truncatePaymentTables(db: Db): Promise<void> {
  await db.execute(sql`truncate codici_corsa, prenotazioni, pagamenti, provider_events, sessions, users, biciclette,
    simulated_refunds, simulated_checkout_sessions, simulated_payment_intents, stats_giornaliere, stats_delta restart identity cascade`);
}

/** The simulated provider's test card that pays. */
export const VISA = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };

/**
 * Pays an external user's booking with the simulated provider's test card, through the API
 * as the payment page does; throws unless the payment is then `completed`.
 */
export async function payThroughApi(app: FastifyInstance, db: Db, user: { cookie: string }, bookingId: number): Promise<void> {
  const headers = { cookie: user.cookie };
  const intent = (await app.inject({ method: 'POST', url: '/api/create-payment-intent', headers, payload: { bookingId } })).json();
  const paid = await app.inject({
    method: 'POST',
    url: `/api/payments/simulated/intents/${intent.paymentIntentId}/confirm`,
    headers,
    payload: { clientSecret: intent.clientSecret, ...VISA },
  });
  if (paid.statusCode !== 200) throw new Error(`payment failed: ${paid.statusCode} ${paid.body}`);
  const status = (await paymentOf(db, bookingId))?.status;
  if (status !== 'completed') throw new Error(`payment ${status ?? 'missing'} after paying`);
}
