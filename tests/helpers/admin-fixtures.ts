import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db/client.js';
import { auditLog, users } from '../../src/server/schema.js';
import type { MailMessage, Mailer } from '../../src/server/integrations/mailer.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import type { TestContext } from './app.js';

/** A mailer that keeps what it is asked to send (tests read `sent`). */
export function capturingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
      return { messageId: `<${sent.length}@test>`, delivery: { kind: 'smtp' } };
    },
    sendInBackground(message) {
      sent.push(message);
    },
    async idle() {},
    async close() {},
  };
}

let seq = 0;

export interface Person {
  id: number;
  email: string;
  cookie: string;
}

/** A user (admin or not) made in the database, with a session; no password hashing. */
export async function person(
  ctx: TestContext,
  opts: { ruolo?: 'admin' | 'user'; residente?: boolean; nome?: string; cognome?: string; email?: string; attiva?: boolean } = {},
): Promise<Person> {
  seq += 1;
  const email = opts.email ?? `adm${process.pid}-${seq}@test.it`;
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      nome: opts.nome ?? `Nome${seq}`,
      cognome: opts.cognome ?? `Cognome${seq}`,
      email,
      passwordHash: 'not-used-here',
      ruolo: opts.ruolo ?? 'user',
      isResidente: opts.residente ?? true,
      attiva: opts.attiva ?? true,
    })
    .returning({ id: users.id });
  const { token } = await createSession(ctx.database.db, row!.id, 'session', ctx.clock.now());
  return { id: row!.id, email, cookie: `bicielis_session=${token}` };
}

export const call = (
  app: FastifyInstance,
  who: { cookie: string } | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  app.inject({
    method,
    url,
    ...(who ? { headers: { cookie: who.cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

export async function auditRows(db: Db) {
  return db.select().from(auditLog).orderBy(desc(auditLog.id));
}

/**
 * Empties what the API writes (the tables of users cascade: preferences, push subscriptions,
 * damage reports), ids restarting at 1. Not the provider's signing secret, the settings or
 * the rate-limit counters.
 */
export async function truncateAll(db: Db): Promise<void> {
  await db.execute(sql`truncate audit_log, attese, prenotazioni, pagamenti, provider_events, sessions, users, biciclette, residenti, reports,
    simulated_refunds, simulated_checkout_sessions, simulated_payment_intents, tempo_liberato, stats_giornaliere, stats_delta, codici_corsa restart identity cascade`);
}
