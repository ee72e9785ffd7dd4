import { readFileSync } from 'node:fs';
import path from 'node:path';
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
