import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { addBike, countRows, sessionUser, type SessionedUser } from '../helpers/booking-fixtures.js';

/**
 * Issue 50, decision 057: behind an address that moves at a fail-over, a write can reach a
 * server in recovery and be refused with SQLSTATE 25006. Here the database is made read-only
 * for new sessions (`default_transaction_read_only`), which refuses writes with the same
 * SQLSTATE as a standby does: the request is answered 503 with Retry-After, nothing is written,
 * and the connections that met the refusal are not used again.
 */
let ctx: TestContext;
let admin: pg.Client;
let user: SessionedUser;
let bike: number;
let name: string;

const book = (orarioInizio: string, orarioFine: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/prenotazioni',
    headers: { cookie: user.cookie },
    payload: { dataPrenotazione: '2026-11-22', orarioInizio, orarioFine, biciId: bike },
  });

/** New sessions of the test's database refuse writes (or take them again); the open ones are ended. */
async function readOnly(on: boolean, endSessions: boolean) {
  await admin.query(`alter database ${admin.escapeIdentifier(name)} ${on ? 'set default_transaction_read_only = on' : 'reset default_transaction_read_only'}`);
  if (endSessions) {
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    // The pool drops each connection as its socket says it ended: until then a statement may
    // still be sent on one and come back 57P01 (the end of that connection, not the server's answer).
    await expect.poll(() => ctx.database.pool.totalCount).toBe(0);
  }
}

beforeAll(async () => {
  ctx = await createTestApp();
  name = new URL(ctx.database.url).pathname.slice(1);
  admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  user = await sessionUser(ctx, { residente: true });
  bike = await addBike(ctx.database.db);
});

afterAll(async () => {
  await admin?.end();
  await ctx?.close();
});

describe('a write that reaches a server in recovery (SQLSTATE 25006)', () => {
  it('is answered 503 with Retry-After in the person’s language, and writes nothing', async () => {
    await readOnly(true, true);
    const outagesBefore = ctx.database.reachability.outages;
    const res = await book('10:00', '12:00');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toEqual({ code: 'DB_UNAVAILABLE', message: 'Servizio momentaneamente non disponibile, riprova tra qualche secondo' });
    // The pool counted the database as away, as at a restart (requests waited for a primary).
    expect(ctx.database.reachability.outages).toBeGreaterThan(outagesBefore);
    await readOnly(false, false);
    expect(await countRows(ctx.database.db, 'prenotazioni')).toBe(0);
  });

  it('the connections that met the refusal are closed: once the server takes writes, the next booking is 201', async () => {
    // The setting is back for new sessions only, and no session is ended: a connection kept
    // from the refused attempts would still be read-only and refuse this booking again.
    const res = await book('14:00', '16:00');
    expect(res.statusCode).toBe(201);
    expect(await countRows(ctx.database.db, 'prenotazioni')).toBe(1);
  });

  it('a single write statement outside a transaction is refused as the database away, not as a failure', async () => {
    await readOnly(true, true);
    const err = await ctx.database.pool.query("update biciclette set modello = 'X' where id = $1", [bike]).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('25006');
    const { isDatabaseUnavailable } = await import('../../src/server/db/outage.js');
    expect(isDatabaseUnavailable(err)).toBe(true);
    await readOnly(false, true);
    const { rows } = await ctx.database.pool.query<{ modello: string }>('select modello from biciclette where id = $1', [bike]);
    expect(rows[0]!.modello).toBe('City Bike');
  });
});
