import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listenForChanges } from '../../src/server/db/notifications.js';
import { RACK_CHANNEL } from '../../src/server/modules/rack/index.js';
import { createRackLink, revokeRackLink } from '../../src/server/modules/rack/service.js';
import { rackBoardSchema, type RackBoard } from '../../src/shared/schemas/fleet.js';
import { auditRows, call, person, type Person } from '../helpers/admin-fixtures.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { addBike, bookThroughApi, sessionUser } from '../helpers/booking-fixtures.js';
import { readEventStream } from '../helpers/event-stream.js';
import { collectedLogLines, collectingLogger, noteSecret } from '../helpers/leak-scan.js';
import { maskUrl } from '../../src/server/logger.js';

/**
 * The rack's board (issue 34, decision 044): one live link made by an admin, the board it
 * opens without a login (no person in it), its stream of server-sent events updated within
 * 5 seconds of a change, closed when the link ends and when the app closes.
 */
let ctx: TestContext;
let admin: Person;
let base: string;
const bikes: number[] = [];

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function newLink(): Promise<string> {
  const res = await call(ctx.app, admin, 'POST', '/api/admin/rastrelliera');
  expect(res.statusCode, res.body).toBe(201);
  const token = tokenOf(res.json<{ url: string }>().url);
  noteSecret(token);
  return token;
}

const liveLinks = async () =>
  (await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from rastrelliera_link where revoked_at is null`)).rows[0]!.n;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await person(ctx, { ruolo: 'admin', nome: 'Amministratrice', cognome: 'Segreta' });
  for (const numero of ['R01', 'R02', 'R03']) bikes.push(await addBike(ctx.database.db, numero));
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the rack link (admin)', () => {
  it('one live link: a new one ends the old, a revocation ends it; audited without the token', async () => {
    expect((await call(ctx.app, admin, 'GET', '/api/admin/rastrelliera')).json()).toEqual({ attivo: false, creatoIl: null });
    const res = await call(ctx.app, admin, 'POST', '/api/admin/rastrelliera');
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<{ url: string; creatoIl: string }>();
    expect(body.url).toMatch(new RegExp(`^${ctx.config.publicUrl}/rastrelliera/[A-Za-z0-9_-]{43}$`));
    expect(body.creatoIl).toBe(ctx.clock.now().toISOString());
    const first = tokenOf(body.url);
    noteSecret(first);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/rastrelliera')).json()).toEqual({ attivo: true, creatoIl: body.creatoIl });
    expect((await call(ctx.app, null, 'GET', `/api/rastrelliera/${first}`)).statusCode).toBe(200);

    const second = await newLink();
    expect(second).not.toBe(first);
    expect(await liveLinks()).toBe(1);
    expect((await call(ctx.app, null, 'GET', `/api/rastrelliera/${first}`)).statusCode).toBe(404);
    expect((await call(ctx.app, null, 'GET', `/api/rastrelliera/${second}`)).statusCode).toBe(200);

    expect((await call(ctx.app, admin, 'DELETE', '/api/admin/rastrelliera')).statusCode).toBe(204);
    expect(await liveLinks()).toBe(0);
    expect((await call(ctx.app, null, 'GET', `/api/rastrelliera/${second}`)).statusCode).toBe(404);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/rastrelliera')).json()).toEqual({ attivo: false, creatoIl: null });
    // Nothing live to revoke: still 204, and no audit row for a change that did not happen.
    const entries = (await auditRows(ctx.database.db)).length;
    expect((await call(ctx.app, admin, 'DELETE', '/api/admin/rastrelliera')).statusCode).toBe(204);
    expect((await auditRows(ctx.database.db)).length).toBe(entries);

    const audit = await auditRows(ctx.database.db);
    expect(audit.map((a) => a.action).filter((a) => a.startsWith('rack.'))).toEqual(['rack.revoke', 'rack.create', 'rack.create']);
    expect(audit.every((a) => a.actorId === admin.id)).toBe(true);
    const text = JSON.stringify(audit);
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
    // Only hashes are kept.
    const stored = JSON.stringify((await ctx.database.db.execute(sql`select * from rastrelliera_link`)).rows);
    expect(stored).not.toContain(first);
    expect(stored).not.toContain(second);
  });

  it('only for admins', async () => {
    const user = await person(ctx);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await call(ctx.app, null, method, '/api/admin/rastrelliera')).statusCode).toBe(401);
      expect((await call(ctx.app, user, method, '/api/admin/rastrelliera')).statusCode).toBe(403);
    }
  });
});

describe('the board', () => {
  it('answers 404 `Link non valido` to a wrong, malformed or revoked token, on both routes', async () => {
    const revoked = await newLink();
    await newLink();
    for (const token of [revoked, 'x'.repeat(43), 'corto', 'non-valido$', 'a'.repeat(60)]) {
      for (const url of [`/api/rastrelliera/${token}`, `/api/rastrelliera/${token}/eventi`]) {
        const res = await call(ctx.app, null, 'GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({ message: 'Link non valido', code: 'RACK_LINK_INVALID' });
      }
    }
  });

  it('is exactly the board’s fields: no name, email, code, user or booking id', async () => {
    const token = await newLink();
    const rider = await person(ctx, { nome: 'Ginevra', cognome: 'Fontanelli', email: 'ginevra.fontanelli@example.it' });
    const owner = await sessionUser(ctx);
    const bookingId = await bookThroughApi(ctx.app, owner, bikes[1]!, { dataPrenotazione: '2026-11-21', orarioInizio: '16:00', orarioFine: '17:00' });
    // A ride in progress by a named person.
    await ctx.database.db.execute(sql`
      insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, ritirata_at)
      values (${rider.id}, ${bikes[0]!}, '2026-11-21', '09:30', '11:00', '2026-11-21T08:30:00Z', '2026-11-21T10:00:00Z', '2026-11-21T08:30:00Z')`);
    const res = await call(ctx.app, null, 'GET', `/api/rastrelliera/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const board = rackBoardSchema.parse(res.json());
    expect(board.aggiornatoAlle).toBe(ctx.clock.now().toISOString());
    const r01 = board.bici.find((b) => b.numero === 'R01');
    expect(r01).toMatchObject({ stato: 'in_uso', inUsoFino: '2026-11-21T10:00:00.000Z' });
    expect(board.bici.find((b) => b.numero === 'R02')).toMatchObject({
      stato: 'libera',
      liberaFino: '2026-11-21T15:00:00.000Z',
      prossimePrenotazioni: [{ inizio: '2026-11-21T15:00:00.000Z', fine: '2026-11-21T16:00:00.000Z' }],
    });
    const names = (await ctx.database.db.execute<{ nome: string; cognome: string; email: string }>(sql`select nome, cognome, email from users`)).rows;
    for (const u of names) {
      expect(res.body).not.toContain(u.email);
      expect(res.body).not.toContain(u.cognome);
    }
    expect(res.body).not.toMatch(/userId|user_id|prenotazioneId|"id"|email|codice|nome/i);
    expect(res.body).not.toContain(`"${bookingId}"`);
  });
});

describe('the token in the log', () => {
  it('is masked in every logged address: the page, the board, its stream', async () => {
    expect(maskUrl('/rastrelliera/abc_DEF-1')).toBe('/rastrelliera/***');
    expect(maskUrl('/api/rastrelliera/abc_DEF-1')).toBe('/api/rastrelliera/***');
    expect(maskUrl('/api/rastrelliera/abc_DEF-1/eventi?x=1')).toBe('/api/rastrelliera/***/eventi?x=1');
    expect(maskUrl('/api/admin/rastrelliera')).toBe('/api/admin/rastrelliera');
    const token = await newLink();
    expect((await call(ctx.app, null, 'GET', `/api/rastrelliera/${token}`)).statusCode).toBe(200);
    expect(collectedLogLines.some((line) => line.includes('/api/rastrelliera/***'))).toBe(true);
    expect(collectedLogLines.filter((line) => line.includes(token))).toEqual([]);
  });
});

describe('the board’s stream', () => {
  it('sends the board at once, and a booking within 5 seconds, without a reload', async () => {
    const token = await newLink();
    const stream = await readEventStream<RackBoard>(`${base}/api/rastrelliera/${token}/eventi`);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-store');
      expect(stream.headers['content-encoding']).toBeUndefined();
      expect(stream.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      const first = await stream.next(() => true);
      expect(rackBoardSchema.parse(first).bici.find((b) => b.numero === 'R03')).toMatchObject({ stato: 'libera', prossimePrenotazioni: [] });
      const user = await sessionUser(ctx);
      await bookThroughApi(ctx.app, user, bikes[2]!, { dataPrenotazione: '2026-11-21', orarioInizio: '18:00', orarioFine: '19:00' });
      const updated = await stream.next(
        (board) => board.bici.find((b) => b.numero === 'R03')?.prossimePrenotazioni.length === 1,
        5_000,
      );
      expect(updated.bici.find((b) => b.numero === 'R03')).toMatchObject({ stato: 'libera', liberaFino: '2026-11-21T17:00:00.000Z' });
    } finally {
      stream.close();
    }
  });

  it('forgets a stream whose client went away; the timer stops with the last one', async () => {
    const token = await newLink();
    const stream = await readEventStream<RackBoard>(`${base}/api/rastrelliera/${token}/eventi`);
    await stream.next(() => true);
    expect(ctx.app.rack.openStreams).toBe(1);
    stream.close();
    await vi.waitFor(() => expect(ctx.app.rack.openStreams).toBe(0), { timeout: 5_000 });
  });

  it('closes the old link’s stream when a new link is made, or the link revoked', async () => {
    const old = await newLink();
    const stream = await readEventStream<RackBoard>(`${base}/api/rastrelliera/${old}/eventi`);
    await stream.next(() => true);
    const fresh = await newLink();
    await stream.ended;
    const again = await readEventStream<RackBoard>(`${base}/api/rastrelliera/${fresh}/eventi`);
    await again.next(() => true);
    expect((await call(ctx.app, admin, 'DELETE', '/api/admin/rastrelliera')).statusCode).toBe(204);
    await again.ended;
    expect(ctx.app.rack.openStreams).toBe(0);
  });

  it('closes them in every process: another process’s revocation reaches this one by NOTIFY', async () => {
    const listener = listenForChanges(ctx.database.url, { [RACK_CHANNEL]: ctx.app.rack }, collectingLogger('warn'));
    await listener.ready;
    try {
      const { token } = await createRackLink(ctx.database.db, { id: admin.id, email: admin.email }, ctx.clock.now());
      noteSecret(token);
      const stream = await readEventStream<RackBoard>(`${base}/api/rastrelliera/${token}/eventi`);
      await stream.next(() => true);
      // Revoked as another process would: its NOTIFY is this process's only news of it.
      await revokeRackLink(ctx.database.db, { id: admin.id, email: admin.email }, ctx.clock.now());
      await stream.ended;
    } finally {
      await listener.stop();
    }
  });
});

describe('the app’s close', () => {
  it('ends the open streams so that a stop is not held', async () => {
    const other = await createTestApp();
    const otherAdmin = await person(other, { ruolo: 'admin' });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (other.app.server.address() as AddressInfo).port;
    const res = await call(other.app, otherAdmin, 'POST', '/api/admin/rastrelliera');
    const token = tokenOf(res.json<{ url: string }>().url);
    noteSecret(token);
    const streams = await Promise.all([1, 2].map(() => readEventStream<RackBoard>(`http://127.0.0.1:${port}/api/rastrelliera/${token}/eventi`)));
    await Promise.all(streams.map((s) => s.next(() => true)));
    expect(other.app.rack.openStreams).toBe(2);
    // Without the streams ended by the app's close, this would wait for them for ever.
    await other.app.close();
    await Promise.all(streams.map((s) => s.ended));
    await other.close();
    expect(other.app.rack.openStreams).toBe(0);
  });
});
