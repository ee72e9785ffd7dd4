import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.js';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A fresh, migrated database of its own (a copy of the template), dropped by `drop()`;
 * with `empty`, a database with nothing in it (as a new external server would be).
 */
export async function createTestDatabase(
  options: { empty?: boolean } = {},
): Promise<Database & { url: string; drop(): Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `bicielis_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(options.empty ? `create database ${name}` : `create database ${name} template ${inject('pgTemplate')}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const database = connectDatabase(url, { max: 20 });
  return {
    ...database,
    url,
    async drop() {
      await database.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
