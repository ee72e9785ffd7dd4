import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chiusure, interventi, manutenzioni, passkeys } from '../../src/server/schema.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { createTestApp, type RouteEntry, type TestContext } from '../helpers/app.js';
import { addBike, bookThroughApi } from '../helpers/booking-fixtures.js';
import { tableDigests, WRITTEN_BY_REFUSALS } from '../helpers/db-digest.js';
import { createUser } from '../helpers/factories.js';
import { multipartText } from '../helpers/multipart.js';

/**
 * Issue 19, "Strict ids": an id in a path or a body is a canonical positive integer. Before,
 * `DELETE /api/admin/prenotazioni/%201` (a space and 1) deleted booking 1: the id was
 * coerced. Every route with a path parameter must be named below, so a new one cannot be
 * forgotten; every integer id is refused in every other spelling, and nothing changes.
 */
let ctx: TestContext & { routes: RouteEntry[] };
let cookies: { admin: string; owner: string; external: string };
let ids: {
  ticket: number;
  booking: number;
  externalBooking: number;
  user: number;
  bike: number;
  closure: number;
  maintenance: number;
  wait: number;
  sede: number;
  passkey: number;
};

type Role = keyof typeof cookies;
interface IdRoute {
  role: Role;
  /** The id of a thing that exists, so that a lenient parser would find it. */
  id: () => number;
  payload?: object | string;
  /** A multipart body's content type (the tickets' forms, issue 48). */
  headers?: Record<string, string>;
}

const MAINTENANCE = { dal: '2026-12-01T08:00', al: '2026-12-01T12:00', motivo: 'Revisione' };
/** An offline ride action's fields (issue 22): its id made on the device, the device's time. */
const DEVICE_ACTION = { idAzione: '5f0c7c1e-2a4b-4c8d-9e6f-0a1b2c3d4e5f', oraDispositivo: '2026-11-21T08:59:00.000Z' };

/** Routes whose path parameter is an integer id. */
const ID_ROUTES: Record<string, IdRoute> = {
  'DELETE /api/prenotazioni/:id': { role: 'owner', id: () => ids.booking },
  // With a device's action (decision 026): a malformed path id applies nothing, whatever the body.
  'POST /api/prenotazioni/:id/ritiro': { role: 'owner', id: () => ids.booking, payload: DEVICE_ACTION },
  'POST /api/prenotazioni/:id/riconsegna': { role: 'owner', id: () => ids.booking, payload: DEVICE_ACTION },
  'GET /api/prenotazioni/:id/calendario.ics': { role: 'owner', id: () => ids.booking },
  'GET /api/prenotazioni/:id/codice': { role: 'owner', id: () => ids.booking },
  'POST /api/prenotazioni/:id/problema': { role: 'owner', id: () => ids.booking, payload: { categoria: 'freni', descrizione: 'Freno rotto' } },
  'POST /api/prenotazioni/:id/aspetta': { role: 'owner', id: () => ids.booking },
  'GET /api/prenotazioni/:id/prolunga': { role: 'owner', id: () => ids.booking },
  'POST /api/prenotazioni/:id/prolunga': { role: 'owner', id: () => ids.booking, payload: { minuti: 30 } },
  'POST /api/external-bookings/:bookingId/payment': { role: 'external', id: () => ids.externalBooking },
  'GET /api/reports/download/:id': { role: 'admin', id: () => 1 },
  'DELETE /api/admin/prenotazioni/:id': { role: 'admin', id: () => ids.booking },
  'POST /api/admin/prenotazioni/:id/rilascia': { role: 'admin', id: () => ids.booking },
  'PUT /api/admin/users/:id': {
    role: 'admin',
    id: () => ids.user,
    payload: { nome: 'Cambiato', cognome: 'Nome', email: 'cambiato@example.it', ruolo: 'user', isResidente: false, attiva: true },
  },
  'DELETE /api/admin/users/:id': { role: 'admin', id: () => ids.user },
  'PUT /api/admin/biciclette/:id': { role: 'admin', id: () => ids.bike, payload: { stato: 'fuori_servizio' } },
  'PUT /api/admin/biciclette/:id/lucchetto': { role: 'admin', id: () => ids.bike, payload: { tipo: 'combinazione', codice: '4821' } },
  'POST /api/admin/danni/:id/risolta': { role: 'admin', id: () => 1 },
  'DELETE /api/admin/chiusure/:id': { role: 'admin', id: () => ids.closure },
  'DELETE /api/admin/manutenzioni/:id': { role: 'admin', id: () => ids.maintenance },
  'POST /api/admin/biciclette/:id/manutenzioni': { role: 'admin', id: () => ids.bike, payload: MAINTENANCE },
  'POST /api/admin/biciclette/:id/manutenzioni/anteprima': { role: 'admin', id: () => ids.bike, payload: MAINTENANCE },
  'POST /api/admin/users/:id/revoca-sospensione': { role: 'admin', id: () => ids.user },
  // The desk (issue 48): a booking's detail, a pick-up and a return on the person's behalf.
  'GET /api/admin/prenotazioni/:id': { role: 'admin', id: () => ids.booking },
  'POST /api/admin/prenotazioni/:id/ritiro': { role: 'admin', id: () => ids.booking },
  'POST /api/admin/prenotazioni/:id/riconsegna': { role: 'admin', id: () => ids.booking },
  'DELETE /api/attese/:id': { role: 'owner', id: () => ids.wait },
  // /admin → Sedi (issue 47): the install's first sede (its archive is refused: the last open one).
  'PUT /api/admin/sedi/:id': { role: 'admin', id: () => ids.sede, payload: { nome: 'Sede rinominata' } },
  'POST /api/admin/sedi/:id/archivia': { role: 'admin', id: () => ids.sede },
  'POST /api/admin/sedi/:id/riattiva': { role: 'admin', id: () => ids.sede },
  'POST /api/attese/:id/accetta': { role: 'owner', id: () => ids.wait },
  'POST /api/attese/:id/rinuncia': { role: 'owner', id: () => ids.wait },
  'GET /api/admin/sedi/:id/orari': { role: 'admin', id: () => ids.sede },
  'PUT /api/admin/sedi/:id/orari': { role: 'admin', id: () => ids.sede, payload: { orari: null } },
  // Repair tickets (issue 48): the owner's report; the admin works on it (multipart bodies for the note).
  'GET /api/interventi/:id': { role: 'owner', id: () => ids.ticket },
  'PATCH /api/interventi/:id': { role: 'admin', id: () => ids.ticket, payload: { stato: 'riparata' } },
  'POST /api/interventi/:id/note': { role: 'admin', id: () => ids.ticket, ...multipartText({ testo: 'Nota', minuti: '5' }) },
  'GET /api/interventi/:id/foto/:fotoId': { role: 'owner', id: () => ids.ticket },
  // A passkey of the owner (issue 49).
  'DELETE /api/passkeys/:id': { role: 'owner', id: () => ids.passkey },
};

/** Routes whose path parameter is not an integer: each has its own strict format, tested with its feature. */
const OTHER_PARAM_ROUTES = [
  'GET /api/validate-sigla/:code', // a resident code (accounts tests)
  'GET /api/calendario/:token', // the private feed's token (calendar tests)
  'GET /api/rastrelliera/:token', // the rack board's token (rack tests)
  'GET /api/rastrelliera/:token/eventi',
  'POST /api/payments/simulated/intents/:intentId/confirm', // pi_sim_… (payments tests)
  'GET /api/payments/simulated/checkout/:sessionId', // cs_sim_…
  'POST /api/payments/simulated/checkout/:sessionId/pay',
  'GET /api/biciclette/numero/:numero', // a bike's number, 1 to 20 characters (bike-page tests)
];

/** Every spelling of `n` that is not the canonical one, and ids out of range. */
const malformed = (n: number) => [
  `%20${n}`,
  `${n}%20`,
  `%09${n}`,
  `+${n}`,
  `0${n}`,
  `${n}.0`,
  `${n}e0`,
  `0x${n.toString(16)}`,
  `%E2%80%8B${n}`,
  `${n}a`,
  `-${n}`,
  '0',
  '2147483648',
  '99999999999999999999',
];

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const admin = await createUser(db, { email: 'admin.ids@example.it', ruolo: 'admin' });
  const owner = await createUser(db, { email: 'owner.ids@example.it', isResidente: true });
  const external = await createUser(db, { email: 'external.ids@example.it', isResidente: false });
  const target = await createUser(db, { email: 'target.ids@example.it' });
  const cookie = async (id: number) => `bicielis_session=${(await createSession(db, id, 'session', now)).token}`;
  cookies = { admin: await cookie(admin.id), owner: await cookie(owner.id), external: await cookie(external.id) };
  const bike = await addBike(db);
  const otherBike = await addBike(db);
  ids = {
    ticket: (
      await db
        .insert(interventi)
        .values({ biciId: bike, segnalatoDa: owner.id, origine: 'segnalazione', categoria: 'freni', descrizione: 'Freno rotto' })
        .returning({ id: interventi.id })
    )[0]!.id,
    booking: await bookThroughApi(ctx.app, { id: owner.id, cookie: cookies.owner }, bike),
    externalBooking: await bookThroughApi(ctx.app, { id: external.id, cookie: cookies.external }, otherBike),
    user: target.id,
    bike,
    closure: (await db.insert(chiusure).values({ dal: '2027-01-10', al: '2027-01-11', motivo: 'Inventario' }).returning({ id: chiusure.id }))[0]!.id,
    maintenance: (
      await db
        .insert(manutenzioni)
        .values({ biciId: otherBike, inizio: new Date('2026-12-05T08:00:00Z'), fine: new Date('2026-12-05T10:00:00Z'), motivo: 'Freni' })
        .returning({ id: manutenzioni.id })
    )[0]!.id,
    wait: (
      await db.execute<{ id: number }>(sql`
        insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, created_at)
        values (${owner.id}, '2026-11-22', '10:00', '12:00', '2026-11-22T09:00:00Z', '2026-11-22T11:00:00Z', ${now.toISOString()}::timestamptz)
        returning id`)
    ).rows[0]!.id,
    sede: (await db.execute<{ id: number }>(sql`select min(id)::int as id from sedi`)).rows[0]!.id,
    passkey: (
      await db
        .insert(passkeys)
        .values({ userId: owner.id, credentialId: 'aWRzLXN0cmV0dGk', chiavePubblica: Buffer.from([1]), nome: 'Chrome su Linux' })
        .returning({ id: passkeys.id })
    )[0]!.id,
  };
});
afterAll(async () => ctx?.close());

/**
 * The waitlist's offers are made and announced after the answer that freed the time (the
 * freed-time dispatcher, decision 035: an email must not hold the canceller's answer), the
 * announcement by an UPDATE of the offer's row. The admin's deletion below frees a window the owner waits for: a digest taken while its
 * announcement is still on its way would see that UPDATE land. Waits for the state, not a time.
 */
async function offersAnnounced(): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { rows } = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from prenotazioni where stato = 'offerta' and offerta_avvisata_at is null`,
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('an offer was never announced');
}

const methodOf = (key: string) => key.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const pathOf = (key: string) => key.split(' ')[1]!;

describe('every route with a path parameter is named here', () => {
  it('the app registers no parameterised route this test does not know', () => {
    const known = new Set([...Object.keys(ID_ROUTES), ...OTHER_PARAM_ROUTES]);
    const withParams = [...new Set(ctx.routes.filter((r) => r.url.includes('/:') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`))];
    expect(withParams.filter((r) => !known.has(r))).toEqual([]);
    expect([...known].filter((r) => !withParams.includes(r))).toEqual([]);
  });
});

describe('an integer id in a path: only its canonical spelling', () => {
  for (const [key, route] of Object.entries(ID_ROUTES)) {
    it(`${key}: 14 other spellings are 400 or 404 in Italian, and change nothing`, async () => {
      await offersAnnounced();
      const before = await tableDigests(ctx.database.db, WRITTEN_BY_REFUSALS);
      for (const bad of malformed(route.id())) {
        const url = pathOf(key).replace(/:[A-Za-z]+/, bad);
        const res = await ctx.app.inject({
          method: methodOf(key),
          url,
          headers: { cookie: cookies[route.role], ...route.headers },
          ...(route.payload ? { payload: route.payload } : {}),
        });
        expect([400, 404], `${key} with ${bad}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
        const body = res.json<{ message: string }>();
        expect(body.message, url).toMatch(/^[A-ZÈ][^\n]{3,}$/);
        expect(res.body, url).not.toMatch(/select|insert|delete|at \w+ \(|node_modules|Error:/i);
      }
      expect(await tableDigests(ctx.database.db, WRITTEN_BY_REFUSALS)).toEqual(before);
    });
  }

  it('the issue\'s case: DELETE /api/admin/prenotazioni/%20<id> leaves the booking; the canonical id deletes it', async () => {
    const exists = async () =>
      (await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where id = ${ids.booking}`)).rows[0]!.n;
    const spaced = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/prenotazioni/%20${ids.booking}`, headers: { cookie: cookies.admin } });
    expect(spaced.statusCode).toBe(400);
    expect(await exists()).toBe(1);
    const canonical = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/prenotazioni/${ids.booking}`, headers: { cookie: cookies.admin } });
    expect(canonical.statusCode).toBe(200);
    expect(await exists()).toBe(0);
  });
});

describe('an integer id in a JSON body: a JSON integer from 1 to 2147483647', () => {
  const bodies = (field: string, n: number) => [
    `"${n}"`,
    `" ${n}"`,
    `${n}.5`,
    '0',
    `-${n}`,
    '1e400',
    '2147483648',
    'true',
    'null',
    `[${n}]`,
  ].map((v) => ({ value: v, json: (rest: Record<string, unknown>) => `{${Object.entries(rest).map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).concat(`"${field}":${v}`).join(',')}}` }));

  it('POST /api/prenotazioni: biciId in any other form is 400 with the field named, and nothing is booked', async () => {
    const bike = await addBike(ctx.database.db, 'IDS-BODY');
    const user = await createUser(ctx.database.db, { email: 'body.ids@example.it', isResidente: true });
    const cookie = `bicielis_session=${(await createSession(ctx.database.db, user.id, 'session', ctx.clock.now())).token}`;
    await offersAnnounced();
    const before = await tableDigests(ctx.database.db, WRITTEN_BY_REFUSALS);
    for (const { value, json } of bodies('biciId', bike)) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/prenotazioni',
        headers: { cookie, 'content-type': 'application/json' },
        payload: json({ dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00' }),
      });
      expect(res.statusCode, `biciId ${value}: ${res.body}`).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toHaveProperty('biciId');
    }
    expect(await tableDigests(ctx.database.db, WRITTEN_BY_REFUSALS)).toEqual(before);
    // The canonical form books.
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/prenotazioni',
      headers: { cookie },
      payload: { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00', biciId: bike },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('a sedeId (issue 47) in any other form is 400 with the field named, and nothing changes: a bike moved, a bike made, the desk', async () => {
    const first = (await ctx.database.db.execute<{ id: number }>(sql`select id from sedi order by id limit 1`)).rows[0]!.id;
    const routes: { method: 'PUT' | 'POST'; url: string; rest: Record<string, unknown> }[] = [
      { method: 'PUT', url: `/api/admin/biciclette/${ids.bike}`, rest: {} },
      { method: 'POST', url: '/api/admin/biciclette', rest: { numero: 'IDS-SEDE', modello: 'City Bike' } },
      {
        method: 'POST',
        url: '/api/admin/prenotazioni',
        rest: { userId: ids.user, biciId: ids.bike, dataPrenotazione: '2026-11-23', orarioInizio: '10:00', orarioFine: '11:00', destinazione: null },
      },
    ];
    await offersAnnounced();
    const before = await tableDigests(ctx.database.db, WRITTEN_BY_REFUSALS);
    for (const route of routes) {
      for (const { value, json } of bodies('sedeId', first)) {
        const res = await ctx.app.inject({
          method: route.method,
          url: route.url,
          headers: { cookie: cookies.admin, 'content-type': 'application/json' },
          payload: json(route.rest),
        });
        expect(res.statusCode, `${route.url} sedeId ${value}: ${res.body}`).toBe(400);
        expect(res.json<{ fields: Record<string, string> }>().fields).toHaveProperty('sedeId');
      }
    }
    expect(await tableDigests(ctx.database.db, WRITTEN_BY_REFUSALS)).toEqual(before);
  });

  it('POST /api/biciclette/available: sedeId (issue 47) in any other form is 400 with the field named', async () => {
    for (const { value, json } of bodies('sedeId', ids.sede)) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/biciclette/available',
        headers: { cookie: cookies.owner, 'content-type': 'application/json' },
        payload: json({ dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00' }),
      });
      expect(res.statusCode, `sedeId ${value}: ${res.body}`).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toHaveProperty('sedeId');
    }
    // And in a query string (GET /api/biciclette?sedeId=, GET /api/regole?sedeId=): only the canonical spelling.
    for (const url of ['/api/biciclette', '/api/regole']) {
      for (const bad of malformed(ids.sede)) {
        const res = await ctx.app.inject({ method: 'GET', url: `${url}?sedeId=${bad}`, headers: { cookie: cookies.owner } });
        expect(res.statusCode, `${url}?sedeId=${bad}: ${res.body}`).toBe(400);
      }
    }
  });

  it('POST /api/create-payment-intent and /api/confirm-payment: bookingId in any other form is 400', async () => {
    for (const url of ['/api/create-payment-intent', '/api/confirm-payment']) {
      for (const { value, json } of bodies('bookingId', ids.externalBooking)) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { cookie: cookies.external, 'content-type': 'application/json' },
          payload: json(url.endsWith('confirm-payment') ? { paymentIntentId: 'pi_sim_abcdefgh' } : {}),
        });
        expect(res.statusCode, `${url} bookingId ${value}: ${res.body}`).toBe(400);
        expect(res.json<{ fields: Record<string, string> }>().fields).toHaveProperty('bookingId');
      }
    }
  });
});
