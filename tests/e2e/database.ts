import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
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
