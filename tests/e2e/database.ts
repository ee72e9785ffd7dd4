import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { zonedClock, zonedToday } from '../../src/shared/time.js';
import { allowedDays, horizonEnd, readServiceDays, type DayWanted } from '../helpers/days.js';
import { e2eDataDir } from './outbox';

/**
 * A connection to the e2e server's own embedded PostgreSQL (found through its DATA_DIR:
 * the password file and `postmaster.pid`), for seeding what the UI cannot create — rides
 * in the past, for instance. Closed after `fn`.
 */
export async function withE2eDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const dataDir = e2eDataDir();
  const password = readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
  // postmaster.pid: pid, data directory, start time, port, …
  const port = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'bicielis' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * An account written straight into the e2e database, for a spec that needs a person of its
 * own without going through the registration: `/api/register` allows 10 registrations per
 * client an hour (behaviour.md §5), and the whole suite reaches the server from one address.
 */
export async function createAccount(account: {
  nome: string;
  cognome: string;
  email: string;
  password: string;
  ruolo?: 'admin' | 'user';
  residente?: boolean;
}): Promise<number> {
  const passwordHash = await hash(account.password);
  const res = await withE2eDatabase((db) =>
    db.query<{ id: number }>(
      `insert into users (nome, cognome, email, password_hash, ruolo, is_residente) values ($1, $2, $3, $4, $5, $6) returning id`,
      [account.nome, account.cognome, account.email, passwordHash, account.ruolo ?? 'user', account.residente ?? false],
    ),
  );
  return res.rows[0]!.id;
}

const TIME_ZONE = 'Europe/Rome';

/**
 * Days the e2e server allows to book now (tests/helpers/days.ts): its rules, its closures (the
 * demo's next month among them) and its planned maintenance, read from its database.
 */
export async function openDays(want: Omit<DayWanted, 'now'> = {}): Promise<string[]> {
  return withE2eDatabase(async (client) => allowedDays(await readServiceDays(drizzle(client)), { ...want, now: new Date() }));
}

/** The first day the e2e server allows, `from` days ahead (tomorrow unless said). */
export const openDay = async (want: Omit<DayWanted, 'now' | 'count'> = {}): Promise<string> => (await openDays(want))[0]!;

/** The last day the e2e server's horizon reaches. */
export const lastOpenDay = async (): Promise<string | null> =>
  withE2eDatabase(async (client) => horizonEnd((await readServiceDays(drizzle(client))).rules, new Date()));
const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A booking's window: its instants and, in Rome, its day and times. */
export interface SeedWindow {
  startAt: Date;
  endAt: Date;
  date: string;
  start: string;
  end: string;
}

/**
 * A window starting `minutes` from now (to the minute), for an hour; near midnight it ends at 23:59 of
 * its own day (Rome). A start at 23:59 would leave an empty window (the table's `prenotazioni_window`
 * refuses it): it starts a minute later, at 00:00 of the next day.
 */
export function windowFromNow(minutes: number): SeedWindow {
  const asked = new Date(Math.ceil((Date.now() + minutes * 60_000) / 60_000) * 60_000);
  const startAt = zonedClock(asked, TIME_ZONE) === '23:59' ? new Date(asked.getTime() + 60_000) : asked;
  const hourLater = new Date(startAt.getTime() + 60 * 60_000);
  const endAt =
    zonedToday(hourLater, TIME_ZONE) === zonedToday(startAt, TIME_ZONE)
      ? hourLater
      : new Date(startAt.getTime() + (23 * 60 + 59 - minutesOfDay(zonedClock(startAt, TIME_ZONE))) * 60_000);
  return { startAt, endAt, date: zonedToday(startAt, TIME_ZONE), start: zonedClock(startAt, TIME_ZONE), end: zonedClock(endAt, TIME_ZONE) };
}

/** An `attiva` booking of `email` on bike `numero` for window `w`, written straight into the database; its id. */
export async function seedActiveBooking(email: string, numero: string, w: SeedWindow, destinazione: string): Promise<number> {
  return withE2eDatabase(async (db) => {
    const { rows } = await db.query<{ id: number }>(
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, created_at, updated_at)
       select u.id, b.id, $3::date, $4, $5, $6, $7, $8, 'attiva', now(), now()
         from users u, biciclette b
        where u.email = $1 and b.numero = $2
       returning id`,
      [email, numero, w.date, w.start, w.end, w.startAt, w.endAt, destinazione],
    );
    if (rows.length !== 1) throw new Error(`prenotazione non scritta: ${email}, bici ${numero}`);
    return rows[0]!.id;
  });
}

/**
 * The sede named `nome` (issue 47), made with `bikes` of its own (numbered `prefix` 1, 2, …) if the
 * e2e server's data has none: the demo has `Residenza Nord`; a spec that needs a second sede asks
 * for it by name, so it runs on either. Returns its id and its bikes' numbers.
 */
export async function ensureSede(nome: string, bikes: { prefix: string; count: number }): Promise<{ id: number; numeri: string[] }> {
  return withE2eDatabase(async (client) => {
    const found = await client.query<{ id: number }>('select id from sedi where lower(nome) = lower($1)', [nome]);
    const id = found.rows[0]?.id ?? (await client.query<{ id: number }>('insert into sedi (nome) values ($1) returning id', [nome])).rows[0]!.id;
    const have = await client.query<{ numero: string }>('select numero from biciclette where sede_id = $1 order by numero', [id]);
    if (have.rows.length > 0) return { id, numeri: have.rows.map((r) => r.numero) };
    const numeri = Array.from({ length: bikes.count }, (_, i) => `${bikes.prefix}${i + 1}`);
    for (const numero of numeri) {
      await client.query(`insert into biciclette (numero, modello, sede_id) values ($1, 'City Bike', $2) on conflict (numero) do nothing`, [numero, id]);
    }
    return { id, numeri };
  });
}

/** A session of an existing account (a demo one, say), written into the database for a day: its cookie's token. */
export async function sessionFor(email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const { rowCount } = await withE2eDatabase((db) =>
    db.query(
      `insert into sessions (token_hash, user_id, kind, expires_at)
       select $1, id, 'session', now() + interval '1 day' from users where email = $2`,
      [createHash('sha256').update(token).digest('hex'), email],
    ),
  );
  if (rowCount !== 1) throw new Error(`sessionFor: nessun account ${email}`);
  return token;
}
