import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from './db.js';
import { installWriteLog, type WriteLog } from './db-digest.js';

/** The write log the fuzz trusts to say "a refusal wrote nothing" must see every kind of write, and only writes. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let log: WriteLog;

beforeAll(async () => {
  database = await createTestDatabase();
  // A table of the test's own, with no trigger of the app's (a bike's writes also note availability changes).
  await database.db.execute(sql`create table prova (id int primary key, nome text not null)`);
  log = await installWriteLog(database.db, ['rate_limits']);
  await database.db.execute(sql`insert into prova values (1, 'uno')`);
});
afterAll(() => database?.drop());

it('notes an insert, a real update and a delete, by table', async () => {
  let mark = await log.mark();
  await database.db.execute(sql`insert into prova values (2, 'due')`);
  expect(await log.writtenSince(mark)).toEqual(['prova']);
  mark = await log.mark();
  await database.db.execute(sql`update prova set nome = 'DUE' where id = 2`);
  expect(await log.writtenSince(mark)).toEqual(['prova']);
  mark = await log.mark();
  await database.db.execute(sql`delete from prova where id = 2`);
  expect(await log.writtenSince(mark)).toEqual(['prova']);
  // The app's own tables too, with what their triggers write.
  mark = await log.mark();
  await database.db.execute(sql`insert into biciclette (numero, modello) values ('W2', 'City Bike')`);
  expect(await log.writtenSince(mark)).toContain('biciclette');
});

it('ignores an update that changes nothing, a rolled-back transaction and a table left out', async () => {
  const mark = await log.mark();
  await database.db.execute(sql`update prova set nome = nome where id = 1`);
  await database.db.execute(sql`update prova set nome = 'X' where false`);
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query(`insert into prova values (3, 'tre')`);
    await client.query('rollback');
  } finally {
    client.release();
  }
  await database.db.execute(sql`insert into rate_limits (key, hits, reset_at) values ('test', 1, now() + interval '1 minute')`);
  expect(await log.writtenSince(mark)).toEqual([]);
});
