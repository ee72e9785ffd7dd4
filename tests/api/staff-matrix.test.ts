import { gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, chiusure, incarichi, interventi, interventiFoto, manutenzioni } from '../../src/server/schema.js';
import { ROLE_CAPABILITIES, type StaffCapability, type StaffRole } from '../../src/shared/staff.js';
import { capturingMailer, person, truncateAll } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, type RouteEntry, type TestContext } from '../helpers/app.js';
import { installWriteLog, type WriteLog } from '../helpers/db-digest.js';
import { multipartText } from '../helpers/multipart.js';

/**
 * Issue 48's authorisation matrix: every /api/admin route (the statistics' and the rack link's
 * included) and every route of the repair tickets (/api/interventi) × {admin, Portineria of sede A, Officina of sede A, both roles at A, a user,
 * anonymous} × {a resource of sede A, of sede B}, each with the expected status, and nothing
 * changed on a refusal. The table is written by hand from the issue: only the admin manages
 * users, the import, the install's rules, sedi, payments and the audit log; a role outside its
 * capabilities is 403; in its role but on another sede's resource, 404.
 */

type Who = 'admin' | 'portineria' | 'officina' | 'both' | 'user' | 'anonymous';
const WHO: Who[] = ['admin', 'portineria', 'officina', 'both', 'user', 'anonymous'];
type Side = 'A' | 'B';
const SIDES: Side[] = ['A', 'B'];

/** What each person holds at sede A. */
const ROLES_OF: Record<Who, StaffRole[]> = { admin: [], portineria: ['portineria'], officina: ['officina'], both: ['portineria', 'officina'], user: [], anonymous: [] };

interface SedeFixtures {
  sedeId: number;
  /** A bike with nothing on it. */
  bikeId: number;
  /** A completed booking of a user. */
  doneId: number;
  /** A ride in progress (picked up at its start). */
  rideId: number;
  /** A booking starting now, not picked up. */
  pickupId: number;
  /** A repair ticket (the return's damage report) and a photo of it. */
  damageId: number;
  photoId: number;
  closureId: number;
  maintenanceId: number;
}

interface Fixtures {
  cookies: Record<Who, string | null>;
  ids: Record<Who, number>;
  adminId: number;
  userId: number;
  deskUserId: number;
  /** A third sede, open and empty (the sedi routes), and a fourth, archived. */
  spareSedeId: number;
  archivedSedeId: number;
  sede: Record<Side, SedeFixtures>;
}

interface Req {
  url: string;
  payload?: object | string;
  headers?: Record<string, string>;
}

/** The route answers admins only. */
interface AdminRow {
  kind: 'admin';
  ok: number;
  request: (f: Fixtures, s: SedeFixtures) => Req;
}
/** The route answers to a capability; `scoped`: the request is about a sede's resource (B: 404). */
interface CapRow {
  kind: 'cap';
  capability: StaffCapability;
  scoped: boolean;
  ok: number;
  request: (f: Fixtures, s: SedeFixtures) => Req;
}
/**
 * A route of the repair tickets (issue 48) open beyond staff: `loggedIn`, anyone logged in reports
 * (`POST /api/interventi`); `reporterOrStaff`, a ticket and its photos, which a user who is not
 * its reporter is told do not exist (404), staff of another sede too.
 */
interface TicketRow<K extends 'loggedIn' | 'reporterOrStaff' = 'loggedIn' | 'reporterOrStaff'> {
  kind: K;
  ok: number;
  request: (f: Fixtures, s: SedeFixtures) => Req;
}
type Row = AdminRow | CapRow | TicketRow<'loggedIn'> | TicketRow<'reporterOrStaff'>;

const admin = (request: AdminRow['request'], ok = 200): AdminRow => ({ kind: 'admin', ok, request });
const scoped = (capability: StaffCapability, request: CapRow['request'], ok = 200): CapRow => ({ kind: 'cap', capability, scoped: true, ok, request });
const loggedIn = (request: TicketRow['request'], ok = 200): TicketRow<'loggedIn'> => ({ kind: 'loggedIn', ok, request });
const reporterOrStaff = (request: TicketRow['request'], ok = 200): TicketRow<'reporterOrStaff'> => ({ kind: 'reporterOrStaff', ok, request });
const anySede = (capability: StaffCapability, request: CapRow['request'], ok = 200): CapRow => ({ kind: 'cap', capability, scoped: false, ok, request });

const RULES = {
  orari: Array.from({ length: 7 }, () => ({ apertura: '07:00', chiusura: '23:00' })),
  durataMassimaMinuti: 240,
  prenotazioniSettimanaliMax: 5,
  preavvisoMinimoMinuti: null,
  orizzonteGiorni: 30,
  attesaPagamentoMinuti: 30,
  mancatoRitiroMinuti: 30,
  offertaMinuti: 15,
  sospensione: { soglia: 3, finestraGiorni: 30, giorni: 7 },
};
const MAINTENANCE = { dal: '2026-12-01T08:00', al: '2026-12-01T12:00', motivo: 'Revisione' };
const closure = (sedeId: number) => ({ dal: '2026-12-24', al: '2026-12-26', motivo: 'Chiusura natalizia', sedeId });

/** The table, by hand, from the words. */
const MATRIX: Record<string, Row> = {
  // prenotazioni: the sede's bookings (list, detail, cancel), today's waitlists, late rides.
  'GET /api/admin/summary': anySede('prenotazioni', () => ({ url: '/api/admin/summary' })),
  'GET /api/admin/attese': scoped('prenotazioni', (_f, s) => ({ url: `/api/admin/attese?sedeId=${s.sedeId}` })),
  'GET /api/admin/prenotazioni': scoped('prenotazioni', (_f, s) => ({ url: `/api/admin/prenotazioni?page=1&pageSize=10&sedeId=${s.sedeId}` })),
  'GET /api/admin/prenotazioni/:id': scoped('prenotazioni', (_f, s) => ({ url: `/api/admin/prenotazioni/${s.doneId}` })),
  'DELETE /api/admin/prenotazioni/:id': scoped('prenotazioni', (_f, s) => ({ url: `/api/admin/prenotazioni/${s.doneId}` })),
  'GET /api/admin/ritardi': scoped('prenotazioni', (_f, s) => ({ url: `/api/admin/ritardi?sedeId=${s.sedeId}` })),
  'POST /api/admin/prenotazioni/:id/rilascia': scoped('prenotazioni', (_f, s) => ({ url: `/api/admin/prenotazioni/${s.rideId}/rilascia` })),
  // banco: the desk's booking, a pick-up and a return on a person's behalf.
  'POST /api/admin/prenotazioni': scoped(
    'banco',
    (f, s) => ({
      url: '/api/admin/prenotazioni',
      payload: { userId: f.deskUserId, dataPrenotazione: '2026-11-23', orarioInizio: '10:00', orarioFine: '12:00', destinazione: null, biciId: s.bikeId },
    }),
    201,
  ),
  'POST /api/admin/prenotazioni/:id/ritiro': scoped('banco', (_f, s) => ({ url: `/api/admin/prenotazioni/${s.pickupId}/ritiro` })),
  'POST /api/admin/prenotazioni/:id/riconsegna': scoped('banco', (_f, s) => ({ url: `/api/admin/prenotazioni/${s.rideId}/riconsegna` })),
  // biciclette: the bikes' list and states, their labels; a new bike is the admins'.
  'GET /api/admin/biciclette': scoped('biciclette', (_f, s) => ({ url: `/api/admin/biciclette?sedeId=${s.sedeId}` })),
  'GET /api/admin/biciclette/etichette.pdf': scoped('biciclette', (_f, s) => ({ url: `/api/admin/biciclette/etichette.pdf?sedeId=${s.sedeId}` })),
  'PUT /api/admin/biciclette/:id': scoped('biciclette', (_f, s) => ({ url: `/api/admin/biciclette/${s.bikeId}`, payload: { stato: 'manutenzione' } })),
  'POST /api/admin/biciclette': admin(() => ({ url: '/api/admin/biciclette', payload: { numero: 'M-1', modello: 'City Bike' } }), 201),
  // lucchetti: the bikes' locks.
  'PUT /api/admin/biciclette/:id/lucchetto': scoped('lucchetti', (_f, s) => ({ url: `/api/admin/biciclette/${s.bikeId}/lucchetto`, payload: { tipo: 'combinazione', codice: '4821' } })),
  // interventi: the damage reports, now tickets (the tickets' own routes are /api/interventi).
  'GET /api/admin/danni': scoped('interventi', (_f, s) => ({ url: `/api/admin/danni?sedeId=${s.sedeId}` })),
  'POST /api/admin/danni/:id/risolta': scoped('riparazioni', (_f, s) => ({ url: `/api/admin/danni/${s.damageId}/risolta` })),
  // chiusure: closures and planned maintenance of the sede.
  'GET /api/admin/chiusure': anySede('chiusure', () => ({ url: '/api/admin/chiusure' })),
  'POST /api/admin/chiusure/anteprima': scoped('chiusure', (_f, s) => ({ url: '/api/admin/chiusure/anteprima', payload: closure(s.sedeId) })),
  'POST /api/admin/chiusure': scoped('chiusure', (_f, s) => ({ url: '/api/admin/chiusure', payload: closure(s.sedeId) }), 201),
  'DELETE /api/admin/chiusure/:id': scoped('chiusure', (_f, s) => ({ url: `/api/admin/chiusure/${s.closureId}` })),
  'GET /api/admin/manutenzioni': anySede('chiusure', () => ({ url: '/api/admin/manutenzioni' })),
  'POST /api/admin/biciclette/:id/manutenzioni/anteprima': scoped('chiusure', (_f, s) => ({ url: `/api/admin/biciclette/${s.bikeId}/manutenzioni/anteprima`, payload: MAINTENANCE })),
  'POST /api/admin/biciclette/:id/manutenzioni': scoped('chiusure', (_f, s) => ({ url: `/api/admin/biciclette/${s.bikeId}/manutenzioni`, payload: MAINTENANCE }), 201),
  'DELETE /api/admin/manutenzioni/:id': scoped('chiusure', (_f, s) => ({ url: `/api/admin/manutenzioni/${s.maintenanceId}` })),
  // rastrelliera: the rack board's link.
  'POST /api/admin/rastrelliera': scoped('rastrelliera', (_f, s) => ({ url: `/api/admin/rastrelliera?sedeId=${s.sedeId}` }), 201),
  'GET /api/admin/rastrelliera': scoped('rastrelliera', (_f, s) => ({ url: `/api/admin/rastrelliera?sedeId=${s.sedeId}` })),
  'DELETE /api/admin/rastrelliera': scoped('rastrelliera', (_f, s) => ({ url: `/api/admin/rastrelliera?sedeId=${s.sedeId}` }), 204),
  // The repair tickets (issue 48): seen by either role at the sede, worked on by the workshop
  // (riparazioni); reported by anyone logged in; a ticket and its photos: its reporter and staff.
  'GET /api/interventi': scoped('interventi', (_f, s) => ({ url: `/api/interventi?sedeId=${s.sedeId}&stato=tutti` })),
  'POST /api/interventi': loggedIn(
    (_f, s) => ({ url: '/api/interventi', ...multipartText({ biciId: String(s.bikeId), categoria: 'freni', descrizione: 'Il freno anteriore non frena' }) }),
    201,
  ),
  'GET /api/interventi/:id': reporterOrStaff((_f, s) => ({ url: `/api/interventi/${s.damageId}` })),
  'GET /api/interventi/:id/foto/:fotoId': reporterOrStaff((_f, s) => ({ url: `/api/interventi/${s.damageId}/foto/${s.photoId}` })),
  'PATCH /api/interventi/:id': scoped('riparazioni', (_f, s) => ({ url: `/api/interventi/${s.damageId}`, payload: { stato: 'in_lavorazione' } })),
  'POST /api/interventi/:id/note': scoped(
    'riparazioni',
    (_f, s) => ({ url: `/api/interventi/${s.damageId}/note`, ...multipartText({ testo: 'Pastiglie cambiate', minuti: '20' }) }),
    201,
  ),
  // statistiche: the sede's statistics and its report.
  'GET /api/admin/stats': scoped('statistiche', (_f, s) => ({ url: `/api/admin/stats?period=7&sedeId=${s.sedeId}` })),
  'GET /api/admin/stats/export.csv': scoped('statistiche', (_f, s) => ({ url: `/api/admin/stats/export.csv?period=30&sedeId=${s.sedeId}` })),
  // Only the admin: users, the import, the install's rules, sedi, payments, the audit log.
  // The desk finds the person it books for (banco); changing people stays the admins'.
  'GET /api/admin/users': anySede('banco', () => ({ url: '/api/admin/users?page=1&pageSize=10' })),
  'PUT /api/admin/users/:id': admin((f) => ({
    url: `/api/admin/users/${f.userId}`,
    payload: { nome: 'Cambiato', cognome: 'Nome', email: 'cambiato@example.it', ruolo: 'user', isResidente: true, attiva: true },
  })),
  'DELETE /api/admin/users/:id': admin((f) => ({ url: `/api/admin/users/${f.userId}` })),
  'POST /api/admin/users/:id/revoca-sospensione': admin((f) => ({ url: `/api/admin/users/${f.userId}/revoca-sospensione` })),
  'POST /api/admin/import-residents': admin(() => ({ url: '/api/admin/import-residents' })),
  'GET /api/admin/regole': admin(() => ({ url: '/api/admin/regole' })),
  'PUT /api/admin/regole': admin(() => ({ url: '/api/admin/regole', payload: RULES })),
  'GET /api/admin/sedi/:id/orari': admin((_f, s) => ({ url: `/api/admin/sedi/${s.sedeId}/orari` })),
  'PUT /api/admin/sedi/:id/orari': admin((_f, s) => ({ url: `/api/admin/sedi/${s.sedeId}/orari`, payload: { orari: RULES.orari } })),
  'GET /api/admin/sedi': admin(() => ({ url: '/api/admin/sedi' })),
  'POST /api/admin/sedi': admin(() => ({ url: '/api/admin/sedi', payload: { nome: 'Residenza Nuova', indirizzo: 'Via Roma 1' } }), 201),
  'PUT /api/admin/sedi/:id': admin((f) => ({ url: `/api/admin/sedi/${f.spareSedeId}`, payload: { nome: 'Residenza Ricambio', notaRastrelliera: 'Cortile' } })),
  'POST /api/admin/sedi/:id/archivia': admin((f) => ({ url: `/api/admin/sedi/${f.spareSedeId}/archivia` })),
  'POST /api/admin/sedi/:id/riattiva': admin((f) => ({ url: `/api/admin/sedi/${f.archivedSedeId}/riattiva` })),
  'GET /api/admin/audit': admin(() => ({ url: '/api/admin/audit?page=1&pageSize=10' })),
  'GET /api/admin/audit.csv': admin(() => ({ url: '/api/admin/audit.csv' })),
  'GET /api/admin/audit/admins': admin(() => ({ url: '/api/admin/audit/admins' })),
};

/** The expected status of a row for a person at a side. */
function expected(row: Row, who: Who, side: Side): number {
  if (who === 'anonymous') return 401;
  if (who === 'admin') return row.ok;
  if (row.kind === 'loggedIn') return row.ok;
  if (row.kind === 'reporterOrStaff') return ROLES_OF[who].length > 0 && side === 'A' ? row.ok : 404;
  if (row.kind === 'admin') return 403;
  const may = ROLES_OF[who].some((r) => ROLE_CAPABILITIES[r].includes(row.capability));
  if (!may) return 403;
  return row.scoped && side === 'B' ? 404 : row.ok;
}

let ctx: TestContext & { routes: RouteEntry[] };
/** Every row written, noted by triggers: one indexed read tells whether a request wrote (db-digest.ts). */
let writes: WriteLog;
const adminRoutes = () => ctx.routes.filter((r) => (r.url.startsWith('/api/admin') || r.url.startsWith('/api/interventi')) && r.method !== 'HEAD');
const key = (r: RouteEntry) => `${r.method} ${r.url}`;
const settled = async () => {
  await ctx.app.freedTime.settled();
  await ctx.app.pins.settled();
};

beforeAll(async () => {
  ctx = await createTestApp({ env: { RESIDENT_INITIAL_PASSWORD: 'Iniziale-Staff-2026' }, deps: { mailer: capturingMailer() } });
  writes = await installWriteLog(ctx.database.db);
});
afterAll(async () => {
  await ctx?.close();
});

async function sedeFixtures(sedeId: number, userId: number): Promise<SedeFixtures> {
  const db = ctx.database.db;
  const bike = async () => {
    const id = await insertBike(db);
    await db.execute(sql`update biciclette set sede_id = ${sedeId} where id = ${id}`);
    return id;
  };
  const bikeId = await bike();
  const rideBike = await bike();
  const rider = await person(ctx);
  const picker = await person(ctx);
  const doneId = await insertBooking(db, { userId, biciId: rideBike, date: '2026-11-20', from: '10:00', to: '11:00', stato: 'completata' });
  const rideId = await insertBooking(db, { userId: rider.id, biciId: rideBike, date: '2026-11-21', from: '09:30', to: '11:00', ritirataAt: new Date('2026-11-21T08:30:00Z') });
  const pickupId = await insertBooking(db, { userId: picker.id, biciId: await bike(), date: '2026-11-21', from: '10:00', to: '11:00' });
  const [damage] = await db
    .insert(interventi)
    .values({ prenotazioneId: doneId, biciId: rideBike, segnalatoDa: userId, origine: 'riconsegna', categoria: 'luci', descrizione: 'Luce posteriore rotta' })
    .returning({ id: interventi.id });
  const [photo] = await db
    .insert(interventiFoto)
    .values({ interventoId: damage!.id, mime: 'image/jpeg', dati: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), larghezza: 1, altezza: 1 })
    .returning({ id: interventiFoto.id });
  const [closureRow] = await db.insert(chiusure).values({ dal: '2027-01-10', al: '2027-01-11', motivo: 'Inventario', sedeId }).returning({ id: chiusure.id });
  const [maintenance] = await db
    .insert(manutenzioni)
    .values({ biciId: bikeId, inizio: new Date('2026-12-05T08:00:00Z'), fine: new Date('2026-12-05T10:00:00Z'), motivo: 'Freni' })
    .returning({ id: manutenzioni.id });
  return { sedeId, bikeId, doneId, rideId, pickupId, damageId: damage!.id, photoId: photo!.id, closureId: closureRow!.id, maintenanceId: maintenance!.id };
}

async function fixtures(): Promise<Fixtures> {
  const db = ctx.database.db;
  await truncateAll(db);
  await db.execute(sql`truncate orari_sede, rastrelliera_link restart identity`);
  await db.execute(sql`delete from sedi where id <> (select min(id) from sedi) and nome not in ('Sede B', 'Sede Ricambio', 'Sede Archiviata')`);
  await db.execute(sql`insert into sedi (nome) values ('Sede B'), ('Sede Ricambio'), ('Sede Archiviata') on conflict do nothing`);
  await db.execute(sql`update sedi set indirizzo = '', nota_rastrelliera = null,
    archiviata_at = case when nome = 'Sede Archiviata' then '2026-11-01T00:00:00Z'::timestamptz end`);
  const sedeNamed = async (nome: string) => (await db.execute<{ id: number }>(sql`select id from sedi where nome = ${nome}`)).rows[0]!.id;
  const sedeA = (await db.execute<{ id: number }>(sql`select min(id) as id from sedi`)).rows[0]!.id;
  const sedeB = await sedeNamed('Sede B');
  const people = {} as Record<Who, { id: number; cookie: string } | null>;
  people.admin = await person(ctx, { ruolo: 'admin' });
  for (const who of ['portineria', 'officina', 'both', 'user'] as const) {
    const p = await person(ctx);
    people[who] = p;
    const roles = ROLES_OF[who];
    if (roles.length) await db.insert(incarichi).values(roles.map((ruolo) => ({ userId: p.id, sedeId: sedeA, ruolo })));
  }
  people.anonymous = null;
  const user = await person(ctx);
  return {
    cookies: Object.fromEntries(WHO.map((w) => [w, people[w]?.cookie ?? null])) as Record<Who, string | null>,
    ids: Object.fromEntries(WHO.map((w) => [w, people[w]?.id ?? 0])) as Record<Who, number>,
    adminId: people.admin.id,
    userId: user.id,
    deskUserId: (await person(ctx)).id,
    spareSedeId: await sedeNamed('Sede Ricambio'),
    archivedSedeId: await sedeNamed('Sede Archiviata'),
    sede: { A: await sedeFixtures(sedeA, user.id), B: await sedeFixtures(sedeB, user.id) },
  };
}

describe('issue 48: staff roles per sede × every /api/admin and /api/interventi route', () => {
  it('has a row for every /api/admin route the app registers (statistics and rack link included), and none for a route it does not', () => {
    const registered = new Set(adminRoutes().map(key));
    expect(registered.size).toBeGreaterThan(40);
    expect([...registered].filter((k) => !(k in MATRIX)), 'routes without a row').toEqual([]);
    expect(Object.keys(MATRIX).filter((k) => !registered.has(k)), 'rows without a route').toEqual([]);
  });

  it('the expectations follow the issue: outside the role 403, another sede 404, admins everything', () => {
    const row = MATRIX['POST /api/admin/prenotazioni/:id/ritiro']!;
    expect(WHO.map((w) => expected(row, w, 'A'))).toEqual([200, 200, 403, 200, 403, 401]);
    expect(WHO.map((w) => expected(row, w, 'B'))).toEqual([200, 404, 403, 404, 403, 401]);
    expect(WHO.map((w) => expected(MATRIX['GET /api/admin/audit']!, w, 'A'))).toEqual([200, 403, 403, 403, 403, 401]);
    expect(WHO.map((w) => expected(MATRIX['PUT /api/admin/biciclette/:id/lucchetto']!, w, 'B'))).toEqual([200, 404, 404, 404, 403, 401]);
  });

  it('answers each route × person × sede with the expected status; a refusal changes nothing; staff actions are audited with their role', async () => {
    const db = ctx.database.db;
    const failures: string[] = [];
    let checked = 0;
    // The fixtures are made again only when a request wrote something since they were made.
    let current: { f: Fixtures; mark: number } | undefined;
    for (const route of adminRoutes()) {
      const row = MATRIX[key(route)];
      if (!row) continue;
      for (const who of WHO) {
        for (const side of SIDES) {
          if (!current || (await writes.writtenSince(current.mark)).length > 0) {
            const f = await fixtures();
            await settled();
            current = { f, mark: await writes.mark() };
          }
          const f = current.f;
          const req = row.request(f, f.sede[side]);
          const cookie = f.cookies[who];
          const lastEntry = (await db.execute<{ id: string | null }>(sql`select max(id)::text as id from audit_log`)).rows[0]!.id ?? '0';
          const res = await ctx.app.inject({
            method: route.method as 'GET',
            url: req.url,
            headers: { ...req.headers, ...(cookie ? { cookie } : {}) },
            ...(req.payload !== undefined ? { payload: req.payload } : {}),
          });
          // What a change leads to in the background (the waitlist’s offers, the locks’ PINs) is done before the log is read.
          await settled();
          checked += 1;
          const label = `${route.method} ${req.url} as ${who} (${side})`;
          const want = expected(row, who, side);
          if (res.statusCode !== want) {
            failures.push(`${label}: ${res.statusCode} (expected ${want}) ${res.body.slice(0, 160)}`);
            continue;
          }
          if (res.statusCode >= 400) {
            const message = (res.json() as { message?: unknown }).message;
            if (typeof message !== 'string' || message.length === 0) failures.push(`${label}: no message`);
            const written = await writes.writtenSince(current.mark);
            if (written.length > 0) failures.push(`${label}: a refused request wrote to the database (${written.join(', ')})`);
            continue;
          }
          const roles = await db.select({ ruolo: auditLog.actorRuolo, actorId: auditLog.actorId }).from(auditLog).where(gt(auditLog.id, Number(lastEntry)));
          const mine = roles.filter((r) => r.actorId === f.ids[who]);
          if (who === 'portineria' && mine.some((r) => r.ruolo !== 'portineria')) failures.push(`${label}: audited as ${JSON.stringify(mine)}`);
          if (who === 'officina' && mine.some((r) => r.ruolo !== 'officina')) failures.push(`${label}: audited as ${JSON.stringify(mine)}`);
          if (who === 'admin' && mine.some((r) => r.ruolo !== 'admin')) failures.push(`${label}: audited as ${JSON.stringify(mine)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBe(Object.keys(MATRIX).length * WHO.length * SIDES.length);
  }, 900_000);
});
