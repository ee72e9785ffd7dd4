import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { runTransaction } from '../../src/server/db/transaction.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * Decision 038: a transaction cut with its connection is run again, and never applied twice.
 * The app's pool reaches PostgreSQL through a small TCP relay that can cut one connection at
 * an exact point of the protocol:
 * - `before`: when the client sends a statement carrying a marker, before the COMMIT;
 * - `commit`: when the client sends COMMIT, which then never reaches the server (aborted);
 * - `reply`: after the COMMIT reached the server, its answer held back (committed, but the
 *   client cannot know).
 */
type Cut = { at: 'before'; marker: string } | { at: 'commit' } | { at: 'reply' } | undefined;

let target: Awaited<ReturnType<typeof createTestDatabase>>;
let relay: net.Server;
let cut: Cut;
let cuts = 0;
let app: Database;

const COMMIT = Buffer.from('commit\0');

function startRelay(upstream: URL): Promise<number> {
  relay = net.createServer((client) => {
    const server = net.connect(Number(upstream.port), upstream.hostname);
    let holdReplies = false;
    const kill = () => {
      client.destroy();
      server.destroy();
    };
    client.on('error', kill);
    server.on('error', kill);
    client.on('close', kill);
    server.on('close', kill);
    client.on('data', (chunk: Buffer) => {
      const plan = cut;
      if (plan?.at === 'before' && chunk.includes(plan.marker)) {
        cut = undefined;
        cuts++;
        return kill();
      }
      if (plan && plan.at !== 'before' && chunk.includes(COMMIT)) {
        cut = undefined;
        cuts++;
        if (plan.at === 'commit') return kill();
        // The COMMIT goes through; its answer does not come back, and the connection ends
        // once the server has answered (it has committed).
        holdReplies = true;
      }
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (holdReplies) return kill();
      client.write(chunk);
    });
  });
  return new Promise((resolve) => relay.listen(0, '127.0.0.1', () => resolve((relay.address() as net.AddressInfo).port)));
}

beforeAll(async () => {
  target = await createTestDatabase();
  await target.db.execute(sql`create table prova_tagli (id serial primary key, nota text not null)`);
  const upstream = new URL(target.url);
  const port = await startRelay(upstream);
  const through = new URL(target.url);
  through.port = String(port);
  app = connectDatabase(through.toString(), { max: 2 });
});

afterAll(async () => {
  await app?.close();
  relay?.close();
  await target?.drop();
});

beforeEach(() => {
  cut = undefined;
  cuts = 0;
});

/** A transaction that stores one row with `nota`, counting its attempts. */
async function store(nota: string) {
  let attempts = 0;
  const id = await runTransaction(app.db, async (tx) => {
    attempts++;
    const { rows } = await tx.execute<{ id: number }>(sql`insert into prova_tagli (nota) values (${nota}) returning id`);
    await tx.execute(sql`select ${`segno-${nota}`}::text`);
    return rows[0]!.id;
  });
  const { rows } = await target.db.execute<{ id: number }>(sql`select id from prova_tagli where nota = ${nota}`);
  return { id, attempts, stored: rows.map((r) => r.id) };
}

describe('a transaction cut with its connection (decision 038)', () => {
  it('cut before its COMMIT: run again, stored once', async () => {
    cut = { at: 'before', marker: 'segno-prima' };
    const result = await store('prima');
    expect(cuts).toBe(1);
    expect(result.attempts).toBe(2);
    expect(result.stored).toEqual([result.id]);
  });

  it('cut as its COMMIT is sent (it never reached the server): aborted, run again, stored once', async () => {
    cut = { at: 'commit' };
    const result = await store('commit');
    expect(cuts).toBe(1);
    expect(result.attempts).toBe(2);
    expect(result.stored).toEqual([result.id]);
  });

  it('committed but its answer lost: the first attempt stands, not run again', async () => {
    cut = { at: 'reply' };
    const result = await store('risposta');
    expect(cuts).toBe(1);
    expect(result.attempts).toBe(1);
    expect(result.stored).toEqual([result.id]);
  });

  it('a read cut mid-flight is asked again; a write outside a transaction is not', async () => {
    cut = { at: 'before', marker: 'lettura-tagliata' };
    const { rows } = await app.db.execute<{ v: string }>(sql`select 'lettura-tagliata'::text as v`);
    expect(rows).toEqual([{ v: 'lettura-tagliata' }]);
    expect(cuts).toBe(1);

    cut = { at: 'before', marker: 'scrittura-tagliata' };
    await expect(app.db.execute(sql`insert into prova_tagli (nota) values ('scrittura-tagliata')`)).rejects.toThrow();
    expect(cuts).toBe(2);
    const { rows: written } = await target.db.execute(sql`select 1 from prova_tagli where nota = 'scrittura-tagliata'`);
    expect(written).toEqual([]);
  });
});
