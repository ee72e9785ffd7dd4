import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.js';
import { DatabaseUnavailableError } from '../../src/server/db/outage.js';
import { runTransaction } from '../../src/server/db/transaction.js';
import { createLogger } from '../../src/server/logger.js';
import { ReplicaPair, STANDBY_SETTINGS, waitFor } from '../helpers/replica-pair.js';

/**
 * Decision 057: a transaction whose COMMIT is cut by a fail-over. Its commit record may have
 * reached the standby or not; the promoted standby starts a new timeline, and hands out again
 * the xids the old primary gave last. Both fates are made on purpose here: the primary's commits
 * wait for a standby that does not exist (`synchronous_standby_names = 'nobody'`), so the COMMIT
 * hangs with its record written, and the primary is killed while it waits.
 */
const log = createLogger('silent');
let pair: ReplicaPair | undefined;
let database: Database | undefined;

afterEach(async () => {
  await database?.close();
  await pair?.stop();
  database = undefined;
  pair = undefined;
});

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A pair whose primary's next commits wait forever (for 'nobody'), a table to write, and the app's pool through the relay. */
async function pairWithHangingCommits() {
  pair = await ReplicaPair.start(log);
  await pair.addStandby();
  await query(pair.primaryUrl, 'create table esito (id int generated always as identity primary key, nota text not null unique)');
  // Replayed by the standby before anything else happens.
  await waitFor(async () => ((await query(pair!.standby!.db.url, "select to_regclass('esito') as t"))[0]?.t ? true : undefined), 15_000, 'table on the standby');
  await query(pair.primary.db.adminUrl, "alter system set synchronous_standby_names = 'nobody'");
  await query(pair.primary.db.adminUrl, 'select pg_reload_conf()');
  // Long enough a wait for the database to cover the kill, the promotion and the move.
  database = connectDatabase(pair.url, { max: 2, outageWaitMs: 30_000 });
  return { pair, db: database.db };
}

/** The COMMIT waits on the primary for the synchronous standby: its record is written there (and streamed). */
const commitWaiting = (p: ReplicaPair) =>
  waitFor(async () => ((await query(p.primary.db.adminUrl, "select 1 from pg_stat_activity where wait_event = 'SyncRep'")).length ? true : undefined), 15_000, 'a COMMIT waiting for the standby');

const rowsOf = async (url: string, nota: string) => Number((await query<{ n: string }>(url, `select count(*)::text as n from esito where nota = '${nota}'`))[0]!.n);

describe('a COMMIT cut by a fail-over', () => {
  it('its record reached the standby: 503 (never a success it cannot prove), and the row is there once', { timeout: 120_000 }, async () => {
    const { pair: p, db } = await pairWithHangingCommits();
    const outcome = runTransaction(db, async (tx) => {
      await tx.execute(sql`insert into esito (nota) values ('ricevuta')`);
      return 'fatto';
    }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await commitWaiting(p);
    // The standby streams asynchronously meanwhile: it has the commit, and has replayed it.
    await waitFor(async () => ((await rowsOf(p.standby!.db.url, 'ricevuta')) === 1 ? true : undefined), 15_000, 'the commit replayed on the standby');
    await p.killPrimary();
    await p.promote();
    p.relay.moveTo(p.primary.db.port);
    const result = await outcome;
    // txid_status says committed on the new timeline: ours, or an xid handed out again. Not told apart: 503.
    expect('error' in result && result.error).toBeInstanceOf(DatabaseUnavailableError);
    expect(await rowsOf(p.primaryUrl, 'ricevuta')).toBe(1);
  });

  it('its record never reached the standby: the work runs again, once, on the new primary', { timeout: 120_000 }, async () => {
    const { pair: p, db } = await pairWithHangingCommits();
    const standby = p.standby!;
    // The standby stopped first: it will never see this transaction.
    await standby.db.stop();
    let attempts = 0;
    const outcome = runTransaction(db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`insert into esito (nota) values ('persa')`);
      return 'fatto';
    }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await commitWaiting(p);
    await p.killPrimary();
    // Started again where it stopped, then promoted: a new timeline without the commit.
    p.standby = { ...standby, db: await startEmbeddedPostgres(standby.dir, log, { port: standby.db.port, settings: STANDBY_SETTINGS }) };
    await p.promote();
    p.relay.moveTo(p.primary.db.port);
    expect(await outcome).toEqual({ value: 'fatto' });
    expect(attempts).toBe(2);
    expect(await rowsOf(p.primaryUrl, 'persa')).toBe(1);
  });
});
