import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TicketDto, TicketSummaryDto } from '../../src/shared/schemas/interventi.js';
import type { StatsResponse } from '../../src/shared/schemas/stats.js';
import { auditLog, biciclette, incarichi } from '../../src/server/schema.js';
import type { PushPayload } from '../../src/server/modules/notifications/notify.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { formBody } from '../helpers/multipart.js';

/**
 * Repair tickets (issue 48): who may open, see, take and close one, what each state does to
 * the bike, and the notices (once each). Two sedi: A (the first, open) and B.
 */
let ctx: TestContext;
const mailer = capturingMailer();
const pushed: { userId: number; payload: PushPayload }[] = [];
let sedeA: number;
let sedeB: number;

beforeAll(async () => {
  ctx = await createTestApp({
    deps: {
      mailer,
      push: {
        async send(userId, payload) {
          pushed.push({ userId, payload });
        },
      },
    },
  });
  const { rows } = await ctx.database.db.execute<{ id: number }>(sql`select id from sedi order by id limit 1`);
  sedeA = rows[0]!.id;
  const made = await ctx.database.db.execute<{ id: number }>(sql`insert into sedi (nome, indirizzo) values ('Residenza Nord', 'Via Nord 1') returning id`);
  sedeB = made.rows[0]!.id;
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.db;
let admin: Person;
let reporter: Person;
let mechanic: Person;
let porter: Person;
let bikeA: number;
let bikeB: number;

async function bike(numero: string, sedeId: number): Promise<number> {
  const [made] = await db().insert(biciclette).values({ numero, modello: 'City Bike', stato: 'disponibile', sedeId }).returning({ id: biciclette.id });
  return made!.id;
}
const bikeState = async (id: number) => (await db().select({ stato: biciclette.stato }).from(biciclette).where(eq(biciclette.id, id)))[0]!.stato;

async function staff(ruolo: 'portineria' | 'officina', sedeId: number, extra: Partial<Parameters<typeof person>[1]> = {}): Promise<Person> {
  const p = await person(ctx, extra);
  await db().insert(incarichi).values({ userId: p.id, sedeId, ruolo });
  return p;
}

async function report(who: Person, biciId: number, extra: Record<string, string> = {}) {
  const body = await formBody({ biciId: String(biciId), categoria: 'freni', descrizione: 'Il freno posteriore non frena', ...extra });
  return ctx.app.inject({ method: 'POST', url: '/api/interventi', headers: { cookie: who.cookie, ...body.headers }, payload: body.payload });
}
const patch = (who: Person, id: number, payload: object) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/interventi/${id}`, headers: { cookie: who.cookie }, payload });

beforeEach(async () => {
  await truncateAll(db());
  mailer.sent.length = 0;
  pushed.length = 0;
  admin = await person(ctx, { ruolo: 'admin', email: 'admin@test.it' });
  reporter = await person(ctx, { email: 'maria@test.it', nome: 'Maria', cognome: 'Rossi' });
  mechanic = await staff('officina', sedeA, { email: 'meccanico@test.it' });
  porter = await staff('portineria', sedeA, { email: 'portiere@test.it' });
  bikeA = await bike('03', sedeA);
  bikeB = await bike('51', sedeB);
});

describe('opening a ticket', () => {
  it('anyone logged in reports a problem: 201, at the bike’s sede, the sede’s workshop told once (not the admins)', async () => {
    const res = await report(reporter, bikeA);
    expect(res.statusCode).toBe(201);
    const t = res.json<TicketDto>();
    expect(t).toMatchObject({ sedeId: sedeA, biciNumero: '03', stato: 'aperto', origine: 'segnalazione', nonUtilizzabile: false, categoria: 'freni' });
    expect(t.segnalatoDa).toEqual({ id: reporter.id, nome: 'Maria Rossi' });
    expect(t.assegnabili).toEqual([]);
    expect(mailer.sent.map((m) => m.to)).toEqual(['meccanico@test.it']);
    expect(pushed.map((p) => p.userId)).toEqual([mechanic.id]);
    expect(mailer.sent[0]!.subject).toContain('03');
  });

  it('a sede with no workshop: every admin is told instead', async () => {
    expect((await report(reporter, bikeB)).statusCode).toBe(201);
    expect(mailer.sent.map((m) => m.to)).toEqual(['admin@test.it']);
  });

  it('the sede is the bike’s whatever the insert says (trigger)', async () => {
    await db().execute(sql`insert into interventi (sede_id, bici_id, origine, categoria, descrizione) values (${sedeB}, ${bikeA}, 'staff', 'luci', 'x')`);
    const { rows } = await db().execute<{ sede_id: number }>(sql`select sede_id from interventi`);
    expect(rows[0]!.sede_id).toBe(sedeA);
  });

  it('refuses an unknown bike (404), a bad category or an empty description (400, in English when asked), nothing written', async () => {
    expect((await report(reporter, 999_999)).statusCode).toBe(404);
    expect((await report(reporter, bikeA, { categoria: 'sella' })).statusCode).toBe(400);
    const english = await person(ctx);
    await db().execute(sql`update users set lingua = 'en' where id = ${english.id}`);
    const en = await report(english, bikeA, { descrizione: '   ' });
    expect(en.statusCode).toBe(400);
    expect(en.json<{ message: string }>().message).toBe('Describe the problem (1 to 500 characters)');
    expect((await db().execute(sql`select 1 from interventi`)).rows).toHaveLength(0);
    expect(mailer.sent).toHaveLength(0);
  });

  it('anonymous: 401; a JSON body: 415', async () => {
    const body = await formBody({ biciId: String(bikeA), categoria: 'freni', descrizione: 'x' });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/interventi', headers: body.headers, payload: body.payload })).statusCode).toBe(401);
    expect((await call(ctx.app, reporter, 'POST', '/api/interventi', { biciId: bikeA, categoria: 'freni', descrizione: 'x' })).statusCode).toBe(415);
  });
});

describe('seeing tickets', () => {
  it('the list is staff’s, of their sedi, newest first; a user is refused (403); the reporter sees their own ticket', async () => {
    const first = (await report(reporter, bikeA)).json<TicketDto>();
    ctx.clock.set(new Date(ctx.clock.now().getTime() + 60_000));
    const second = (await report(reporter, bikeA, { categoria: 'luci' })).json<TicketDto>();
    const inB = (await report(reporter, bikeB)).json<TicketDto>();
    const list = await call(ctx.app, porter, 'GET', '/api/interventi');
    expect(list.statusCode).toBe(200);
    expect(list.json<TicketSummaryDto[]>().map((t) => t.id)).toEqual([second.id, first.id]);
    expect((await call(ctx.app, admin, 'GET', '/api/interventi')).json<TicketSummaryDto[]>()).toHaveLength(3);
    expect((await call(ctx.app, porter, 'GET', `/api/interventi?sedeId=${sedeB}`)).statusCode).toBe(404);
    expect((await call(ctx.app, reporter, 'GET', '/api/interventi')).statusCode).toBe(403);
    expect((await call(ctx.app, reporter, 'GET', `/api/interventi/${inB.id}`)).statusCode).toBe(200);
    expect((await call(ctx.app, mechanic, 'GET', `/api/interventi/${inB.id}`)).statusCode).toBe(404);
    const detail = (await call(ctx.app, mechanic, 'GET', `/api/interventi/${first.id}`)).json<TicketDto>();
    expect(detail.assegnabili).toEqual([{ id: mechanic.id, nome: expect.any(String) }]);
    const stranger = await person(ctx);
    expect((await call(ctx.app, stranger, 'GET', `/api/interventi/${first.id}`)).statusCode).toBe(404);
  });
});

describe('the bike follows its tickets', () => {
  async function openUnusable(): Promise<number> {
    const id = (await report(reporter, bikeA)).json<TicketDto>().id;
    expect((await patch(mechanic, id, { nonUtilizzabile: true })).statusCode).toBe(200);
    return id;
  }

  it('Non utilizzabile → manutenzione; in lavorazione keeps it; riparata → disponibile, the reporter told once', async () => {
    // One open sede: the notice's words are exactly the (no sede named).
    await db().execute(sql`update sedi set archiviata_at = now() where id = ${sedeB}`);
    const id = await openUnusable();
    expect(await bikeState(bikeA)).toBe('manutenzione');
    const taken = await patch(mechanic, id, { stato: 'in_lavorazione', assegnatarioId: mechanic.id });
    expect(taken.json<TicketDto>()).toMatchObject({ stato: 'in_lavorazione', assegnatario: { id: mechanic.id } });
    expect(await bikeState(bikeA)).toBe('manutenzione');
    mailer.sent.length = 0;
    const done = await patch(mechanic, id, { stato: 'riparata' });
    expect(done.json<TicketDto>().chiusoAt).not.toBeNull();
    expect(await bikeState(bikeA)).toBe('disponibile');
    expect(mailer.sent.map((m) => [m.to, m.text])).toEqual([['maria@test.it', 'La bici n. 03 è stata riparata. Grazie per la segnalazione']]);
    expect((await patch(mechanic, id, { stato: 'riparata' })).statusCode).toBe(200);
    expect(mailer.sent).toHaveLength(1);
    expect(pushed.filter((p) => p.userId === reporter.id)).toHaveLength(1);
    await db().execute(sql`update sedi set archiviata_at = null where id = ${sedeB}`);
  });

  it('with several sedi the notice names the bike’s sede; in English for an English reader', async () => {
    await db().execute(sql`update users set lingua = 'en' where id = ${reporter.id}`);
    const id = await openUnusable();
    mailer.sent.length = 0;
    await patch(mechanic, id, { stato: 'riparata' });
    expect(mailer.sent.map((m) => m.text)).toEqual([expect.stringMatching(/^Bike no\. 03 · .+ has been repaired\. Thank you for reporting it$/)]);
  });

  it('non riparabile → fuori servizio', async () => {
    const id = (await report(reporter, bikeA)).json<TicketDto>().id;
    expect((await patch(mechanic, id, { stato: 'non_riparabile' })).statusCode).toBe(200);
    expect(await bikeState(bikeA)).toBe('fuori_servizio');
  });

  it('a ticket not marked Non utilizzabile leaves the bike as it is', async () => {
    await report(reporter, bikeA);
    expect(await bikeState(bikeA)).toBe('disponibile');
  });

  it('two open tickets on one bike: it stays out until the second is closed', async () => {
    const one = await openUnusable();
    const two = await openUnusable();
    await patch(mechanic, one, { stato: 'riparata' });
    expect(await bikeState(bikeA)).toBe('manutenzione');
    await patch(mechanic, two, { stato: 'riparata' });
    expect(await bikeState(bikeA)).toBe('disponibile');
  });

  it('two tickets closed at once: the bike is free once both are (its row locked first)', async () => {
    const one = await openUnusable();
    const two = await openUnusable();
    await Promise.all([patch(mechanic, one, { stato: 'riparata' }), patch(admin, two, { stato: 'riparata' })]);
    expect(await bikeState(bikeA)).toBe('disponibile');
  });
});

describe('who may work on a ticket', () => {
  it('a porter is refused (403), another sede’s workshop gets 404, an assignee without Officina there is 400; nothing changes', async () => {
    const id = (await report(reporter, bikeA)).json<TicketDto>().id;
    const mechanicB = await staff('officina', sedeB);
    expect((await patch(porter, id, { stato: 'riparata' })).statusCode).toBe(403);
    expect((await patch(mechanicB, id, { stato: 'riparata' })).statusCode).toBe(404);
    expect((await patch(reporter, id, { stato: 'riparata' })).statusCode).toBe(403);
    expect((await patch(mechanic, id, { assegnatarioId: porter.id })).statusCode).toBe(400);
    expect((await patch(mechanic, id, { assegnatarioId: mechanicB.id })).statusCode).toBe(400);
    const t = (await call(ctx.app, admin, 'GET', `/api/interventi/${id}`)).json<TicketDto>();
    expect(t).toMatchObject({ stato: 'aperto', assegnatario: null });
  });

  it('state changes and assignments are audited with the actor and the role they acted in', async () => {
    const id = (await report(reporter, bikeA)).json<TicketDto>().id;
    await patch(mechanic, id, { stato: 'in_lavorazione', assegnatarioId: mechanic.id });
    await patch(admin, id, { stato: 'riparata' });
    const rows = await db().select().from(auditLog).where(eq(auditLog.action, 'ticket.update')).orderBy(auditLog.id);
    expect(rows.map((r) => [r.actorId, r.actorRuolo, r.sedeId, (r.after as { stato: string }).stato])).toEqual([
      [mechanic.id, 'officina', sedeA, 'in_lavorazione'],
      [admin.id, 'admin', sedeA, 'riparata'],
    ]);
  });

  it('a note: text, minutes, in time order; it needs text or a photo; a porter is refused', async () => {
    const id = (await report(reporter, bikeA)).json<TicketDto>().id;
    const note = async (who: Person, fields: Record<string, string>) => {
      const body = await formBody(fields);
      return ctx.app.inject({ method: 'POST', url: `/api/interventi/${id}/note`, headers: { cookie: who.cookie, ...body.headers }, payload: body.payload });
    };
    expect((await note(mechanic, { testo: 'Pastiglie cambiate', minuti: '30' })).statusCode).toBe(201);
    const second = await note(mechanic, { testo: 'Provata', minuti: '5' });
    expect(second.json<TicketDto>()).toMatchObject({ minutiTotali: 35, note: [{ testo: 'Pastiglie cambiate' }, { testo: 'Provata' }] });
    expect((await note(mechanic, { testo: '' })).statusCode).toBe(400);
    expect((await note(mechanic, { testo: 'x', minuti: '1441' })).statusCode).toBe(400);
    expect((await note(mechanic, { testo: 'x', minuti: '-1' })).statusCode).toBe(400);
    expect((await note(porter, { testo: 'x' })).statusCode).toBe(403);
  });
});

describe('the statistics', () => {
  it('count the tickets opened and closed, and the median hours to repair, per sede and in all', async () => {
    const start = ctx.clock.now();
    const later = (hours: number) => ctx.clock.set(new Date(start.getTime() + hours * 3_600_000));
    const ids: number[] = [];
    for (const b of [bikeA, bikeA, bikeA, bikeB]) ids.push((await report(reporter, b)).json<TicketDto>().id);
    later(2);
    await patch(mechanic, ids[0]!, { stato: 'riparata' });
    later(4);
    await patch(mechanic, ids[1]!, { stato: 'riparata' });
    await patch(mechanic, ids[2]!, { stato: 'non_riparabile' });
    const stats = (await call(ctx.app, admin, 'GET', '/api/admin/stats?period=7')).json<StatsResponse>();
    expect(stats.totals).toMatchObject({ ticketsOpened: 4, ticketsClosed: 3, repairMedianHours: 3 });
    expect(stats.sedi.find((s) => s.sedeId === sedeA)).toMatchObject({ ticketsOpened: 3, ticketsClosed: 3, repairMedianHours: 3 });
    expect(stats.sedi.find((s) => s.sedeId === sedeB)).toMatchObject({ ticketsOpened: 1, ticketsClosed: 0, repairMedianHours: null });
  });
});
