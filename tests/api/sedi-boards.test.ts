import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldStatsDelta } from '../../src/server/modules/stats/index.js';
import { renderReport } from '../../src/server/modules/reports/service.js';
import { rackBoardSchema, type RackBoard } from '../../src/shared/schemas/fleet.js';
import type { StatsResponse } from '../../src/shared/schemas/stats.js';
import { zonedToday } from '../../src/shared/time.js';
import { call, person, type Person } from '../helpers/admin-fixtures.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { readEventStream } from '../helpers/event-stream.js';
import { noteSecret } from '../helpers/leak-scan.js';
import { pdfPages } from '../helpers/pdf-text.js';
import { reportUsers, seedBookings, type SeedBooking } from '../helpers/report-fixtures.js';

/**
 * Issue 47, the boards of each sede: the rack's board (one live link per sede, each showing only
 * its bikes), the QR labels of one sede, the statistics, the CSV and the nightly PDF with each
 * sede and the total. An install with one sede answers as before: the CSV byte for byte.
 */
const PUBLIC_URL = 'https://bici.collegio.example';
let ctx: TestContext;
let admin: Person;
let base: string;
let first: number;
let nord: number;
let today: string;
/** The CSV of the install while it had one sede. */
let oneSedeCsv: string;

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const db = () => ctx.database.db;
const reportDeps = () => ({ db: db(), clock: ctx.clock, config: ctx.config });

async function bike(numero: string, sedeId?: number): Promise<number> {
  const { rows } = await db().execute<{ id: number }>(
    sedeId === undefined
      ? sql`insert into biciclette (numero, modello) values (${numero}, 'City Bike') returning id`
      : sql`insert into biciclette (numero, modello, sede_id) values (${numero}, 'City Bike', ${sedeId}) returning id`,
  );
  return rows[0]!.id;
}

async function newLink(query = '', payload?: object): Promise<string> {
  const res = await call(ctx.app, admin, 'POST', `/api/admin/rastrelliera${query}`, payload);
  expect(res.statusCode, res.body).toBe(201);
  const token = tokenOf(res.json<{ url: string }>().url);
  noteSecret(token);
  return token;
}

const board = async (token: string): Promise<RackBoard> => {
  const res = await call(ctx.app, null, 'GET', `/api/rastrelliera/${token}`);
  expect(res.statusCode, res.body).toBe(200);
  return rackBoardSchema.parse(res.json());
};
const numbers = (b: RackBoard) => b.bici.map((x) => x.numero);
const liveLinks = async () =>
  (await db().execute<{ sede_id: number }>(sql`select sede_id from rastrelliera_link where revoked_at is null order by sede_id`)).rows.map((r) => r.sede_id);

const stats = async (query = 'period=7') => {
  const res = await call(ctx.app, admin, 'GET', `/api/admin/stats?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StatsResponse>();
};
const csv = async () => {
  const res = await call(ctx.app, admin, 'GET', '/api/admin/stats/export.csv?period=7');
  expect(res.statusCode).toBe(200);
  return res.body;
};
const labels = async (query = '') => {
  const res = await call(ctx.app, admin, 'GET', `/api/admin/biciclette/etichette.pdf${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (await pdfPages(res.rawPayload)).join(' ');
};
const labelled = (text: string) => ['C01', 'C02', 'N01', 'N02'].filter((n) => text.includes(`${PUBLIC_URL}/bici/${n}`));

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL } });
  admin = await person(ctx, { ruolo: 'admin' });
  first = (await db().execute<{ id: number }>(sql`select min(id) as id from sedi`)).rows[0]!.id;
  today = zonedToday(ctx.clock.now(), ctx.config.timeZone);
  const c1 = await bike('C01');
  const c2 = await bike('C02');
  const [resident, external] = [...(await reportUsers(db(), 1, { residente: true })), ...(await reportUsers(db(), 1, { residente: false }))];
  const history: SeedBooking[] = [
    { userId: resident!, biciId: c1, date: today, start: '08:00', end: '09:00', stato: 'completata' },
    { userId: external!, biciId: c2, date: today, start: '08:00', end: '10:00', stato: 'completata', payment: 'completed' },
    { userId: resident!, biciId: c1, date: today, start: '11:00', end: '12:00', stato: 'cancellata' },
  ];
  await seedBookings(db(), history);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('one sede: as before sedi', () => {
  it('the board names no sede; the link without sedeId; one row of statistics; the CSV of 12 columns', async () => {
    const token = await newLink();
    const b = await board(token);
    expect(b.sede).toBeNull();
    expect(numbers(b)).toEqual(['C01', 'C02']);
    expect((await call(ctx.app, admin, 'GET', '/api/admin/rastrelliera')).json()).toMatchObject({ attivo: true });
    expect(await liveLinks()).toEqual([first]);

    const s = await stats();
    expect(s.sedi).toEqual([{ sedeId: first, nome: expect.any(String) as string, rides: 2, hours: 3, revenueCents: 250, cancellations: 1, ticketsOpened: 0, ticketsClosed: 0, repairMedianHours: null }]);
    oneSedeCsv = await csv();
    const lines = oneSedeCsv.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('"ID";"Data";"Inizio";"Fine";"Utente";"Email";"Residente";"Bici";"Modello";"Destinazione";"Stato";"Pagamento"');
    expect(lines).toHaveLength(4);
    expect(oneSedeCsv).not.toContain('Sede');

    const pdf = (await pdfPages(await renderReport(reportDeps(), today))).join(' ');
    expect(pdf).toContain('Prenotazioni');
    expect(pdf).not.toContain('Per sede');
  });
});

describe('two sedi', () => {
  beforeAll(async () => {
    nord = (await db().execute<{ id: number }>(sql`insert into sedi (nome) values ('Residenza Nord') returning id`)).rows[0]!.id;
    await db().execute(sql`update sedi set nome = 'Residenza Centrale' where id = ${first}`);
    const n1 = await bike('N01', nord);
    await bike('N02', nord);
    const [user] = await reportUsers(db(), 1, { residente: false });
    await seedBookings(db(), [
      { userId: user!, biciId: n1, date: today, start: '14:00', end: '14:30', stato: 'completata', payment: 'completed' },
      { userId: user!, biciId: n1, date: today, start: '15:00', end: '16:00', stato: 'cancellata', payment: 'refunded' },
    ]);
  });

  it('one live link per sede: each board and its stream show only that sede’s bikes, named', async () => {
    const central = await newLink();
    const north = await newLink('', { sedeId: nord });
    expect(await liveLinks()).toEqual([first, nord]);
    const [c, n] = [await board(central), await board(north)];
    expect(numbers(c)).toEqual(['C01', 'C02']);
    expect(c.sede).toEqual({ nome: 'Residenza Centrale' });
    expect(numbers(n)).toEqual(['N01', 'N02']);
    expect(n.sede).toEqual({ nome: 'Residenza Nord' });

    const streams = await Promise.all([central, north].map((t) => readEventStream<RackBoard>(`${base}/api/rastrelliera/${t}/eventi`)));
    try {
      const [cFirst, nFirst] = await Promise.all(streams.map((s) => s.next(() => true)));
      expect(numbers(rackBoardSchema.parse(cFirst))).toEqual(['C01', 'C02']);
      expect(numbers(rackBoardSchema.parse(nFirst))).toEqual(['N01', 'N02']);
      // A new link for Nord ends Nord's stream, not the central one's.
      const north2 = await newLink(`?sedeId=${nord}`);
      await streams[1]!.ended;
      expect((await call(ctx.app, null, 'GET', `/api/rastrelliera/${north}`)).statusCode).toBe(404);
      expect(numbers(await board(north2))).toEqual(['N01', 'N02']);
      expect(numbers(await board(central))).toEqual(['C01', 'C02']);
      expect(ctx.app.rack.openStreams).toBe(1);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('the status and the revocation of one sede’s link; the default is the first sede; audited with the sede', async () => {
    await newLink(`?sedeId=${nord}`);
    expect((await call(ctx.app, admin, 'GET', `/api/admin/rastrelliera?sedeId=${nord}`)).json()).toMatchObject({ attivo: true });
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/rastrelliera?sedeId=${nord}`)).statusCode).toBe(204);
    expect(await liveLinks()).toEqual([first]);
    expect((await call(ctx.app, admin, 'GET', `/api/admin/rastrelliera?sedeId=${nord}`)).json()).toEqual({ attivo: false, creatoIl: null });
    expect((await call(ctx.app, admin, 'GET', '/api/admin/rastrelliera')).json()).toMatchObject({ attivo: true });
    const audit = (
      await db().execute<{ action: string; sede_id: number | null }>(sql`select action, sede_id from audit_log where action like 'rack.%' order by id desc limit 2`)
    ).rows;
    expect(audit).toEqual([
      { action: 'rack.revoke', sede_id: nord },
      { action: 'rack.create', sede_id: nord },
    ]);
  });

  it('refuses an unknown or archived sede (404) and a malformed one (400), in the person’s language', async () => {
    const archived = (await db().execute<{ id: number }>(sql`insert into sedi (nome, archiviata_at) values ('Vecchia', now()) returning id`)).rows[0]!.id;
    for (const id of [999, archived]) {
      for (const [method, url] of [
        ['GET', `/api/admin/rastrelliera?sedeId=${id}`],
        ['POST', `/api/admin/rastrelliera?sedeId=${id}`],
        ['DELETE', `/api/admin/rastrelliera?sedeId=${id}`],
        ['GET', `/api/admin/biciclette/etichette.pdf?sedeId=${id}`],
      ] as const) {
        const res = await call(ctx.app, admin, method, url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ message: 'Sede non trovata' });
      }
    }
    for (const bad of ['0', '01', '1.0', '%201', 'x']) {
      expect((await call(ctx.app, admin, 'GET', `/api/admin/rastrelliera?sedeId=${bad}`)).statusCode).toBe(400);
      expect((await call(ctx.app, admin, 'GET', `/api/admin/biciclette/etichette.pdf?sedeId=${bad}`)).statusCode).toBe(400);
    }
    const res = await call(ctx.app, admin, 'POST', '/api/admin/rastrelliera', { sedeId: '2' });
    expect(res.statusCode).toBe(400);
    // An admin whose account is in English reads the refusal in English.
    const english = await person(ctx, { ruolo: 'admin' });
    await db().execute(sql`update users set lingua = 'en' where id = ${english.id}`);
    expect((await call(ctx.app, english, 'GET', '/api/admin/rastrelliera?sedeId=999')).json()).toMatchObject({ message: 'Location not found' });
    await db().execute(sql`delete from sedi where id = ${archived}`);
  });

  it('the QR labels of one sede, or of every bike', async () => {
    expect(labelled(await labels(`?sedeId=${nord}`))).toEqual(['N01', 'N02']);
    expect(labelled(await labels(`?sedeId=${first}`))).toEqual(['C01', 'C02']);
    expect(labelled(await labels())).toEqual(['C01', 'C02', 'N01', 'N02']);
  });

  it('the statistics: each sede’s totals add up to the install’s, before and after the fold', async () => {
    for (const fold of [false, true]) {
      if (fold) await foldStatsDelta(db());
      const s = await stats();
      expect(s.sedi).toEqual([
        { sedeId: first, nome: 'Residenza Centrale', rides: 2, hours: 3, revenueCents: 250, cancellations: 1, ticketsOpened: 0, ticketsClosed: 0, repairMedianHours: null },
        { sedeId: nord, nome: 'Residenza Nord', rides: 1, hours: 0.5, revenueCents: 250, cancellations: 1, ticketsOpened: 0, ticketsClosed: 0, repairMedianHours: null },
      ]);
      for (const key of ['rides', 'revenueCents', 'cancellations'] as const) {
        expect(s.sedi.reduce((n, r) => n + r[key], 0), key).toBe(s.totals[key]);
      }
    }
  });

  it('the CSV names each booking’s sede in a last column; back to one sede, the file is as before, byte for byte', async () => {
    const lines = (await csv()).replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]!.endsWith(';"Pagamento";"Sede"')).toBe(true);
    expect(lines.slice(1).map((l) => l.slice(l.lastIndexOf(';') + 1))).toEqual([
      '"Residenza Centrale"',
      '"Residenza Centrale"',
      '"Residenza Centrale"',
      '"Residenza Nord"',
      '"Residenza Nord"',
    ]);
    // Nord archived (its bookings deleted first): one open sede, the file as it was, byte for byte.
    await db().execute(sql`delete from pagamenti where prenotazione_id in (select id from prenotazioni where sede_id = ${nord})`);
    await db().execute(sql`delete from prenotazioni where sede_id = ${nord}`);
    await db().execute(sql`update sedi set archiviata_at = now() where id = ${nord}`);
    try {
      expect(await csv()).toBe(oneSedeCsv);
    } finally {
      await db().execute(sql`update sedi set archiviata_at = null where id = ${nord}`);
    }
  });

  it('the nightly PDF names each sede and the total, in the reader’s language', async () => {
    const [n1] = (await db().execute<{ id: number }>(sql`select id from biciclette where numero = 'N01'`)).rows;
    const [user] = await reportUsers(db(), 1, { residente: false });
    await seedBookings(db(), [{ userId: user!, biciId: n1!.id, date: today, start: '17:00', end: '18:00', stato: 'completata', payment: 'completed' }]);
    const it = (await pdfPages(await renderReport(reportDeps(), today, 'it'))).join(' ');
    expect(it).toContain('Per sede');
    expect(it).toContain('Residenza Centrale: 3 prenotazioni (1 cancellata), incasso netto 2,50');
    expect(it).toContain('Residenza Nord: 1 prenotazione (0 cancellate), incasso netto 2,50');
    expect(it).toContain('Totale: 4 prenotazioni (1 cancellata), incasso netto 5,00');
    const en = (await pdfPages(await renderReport(reportDeps(), today, 'en'))).join(' ');
    expect(en).toContain('By location');
    expect(en).toContain('Residenza Nord: 1 booking (0 cancelled), net revenue');
    expect(en).toContain('Total: 4 bookings (1 cancelled)');
  });
});
