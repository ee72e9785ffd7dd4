import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExportSchema } from '../../src/shared/schemas/privacy.js';
import { ANONYMOUS_MARKER } from '../../src/server/modules/privacy/audit-redact.js';
import { searchableEmail } from '../../src/server/integrations/outbox-forget.js';
import { generateReport } from '../../src/server/modules/reports/service.js';
import { retentionJob } from '../../src/server/jobs/app-jobs.js';
import { totpCode } from '../../src/server/modules/two-factor/totp.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { call, person } from '../helpers/admin-fixtures.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { bookThroughApi, payThroughApi } from '../helpers/booking-fixtures.js';
import { createResident, createUser, loginAs } from '../helpers/factories.js';
import { collectedLogLines, collectingLogger } from '../helpers/leak-scan.js';
import { pdfPages } from '../helpers/pdf-text.js';

/** Issue 23 (decision 029): `Scarica i miei dati`, `Elimina il mio account`, the retention. */

let ctx: TestContext;
let dataDir: string;
const outbox = () => path.join(dataDir, 'outbox');
const db = () => ctx.database.db;
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-privacy-'));
  // The real file outbox (SMTP_URL unset), in a folder of this file's own.
  ctx = await createTestApp({ env: { DATA_DIR: dataDir }, sessionCache: true });
});
afterAll(async () => {
  await ctx?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function register(body: { nome: string; cognome: string; email: string; password: string; siglaResidente: string | null }) {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: body, headers: { 'user-agent': ANDROID } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = /bicielis_session=[^;]+/.exec(String(res.headers['set-cookie']))![0];
  return { id: res.json().id as number, cookie };
}

/** Every text or JSON column of every table of the public schema, from the catalogue (a new table is covered by itself). */
async function textColumns(): Promise<{ table: string; column: string }[]> {
  const { rows } = await db().execute<{ table_name: string; column_name: string }>(sql`
    select c.table_name, c.column_name
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
       and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED')
     order by 1, 2`);
  return rows.map((r) => ({ table: r.table_name, column: r.column_name }));
}

/** Where any of `terms` appears (case-insensitively) in the database; `allow` excludes rows by a condition. */
async function traces(terms: string[], allow: Record<string, ReturnType<typeof sql>> = {}): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of await textColumns()) {
    for (const term of terms) {
      const extra = allow[table] ? sql` and not (${allow[table]})` : sql``;
      const { rows } = await db().execute<{ n: number }>(sql`
        select count(*)::int as n from ${sql.identifier(table)}
         where position(lower(${term}) in lower(${sql.identifier(column)}::text)) > 0 ${extra}`);
      if (rows[0]!.n > 0) found.push(`${table}.${column} ∋ ${term} (${rows[0]!.n})`);
    }
  }
  return found;
}

/** The outbox's emails that name any of `terms`, each as a person reads it (every encoding undone, lower-case). */
async function outboxFilesNaming(terms: string[]): Promise<string[]> {
  const names = await fs.readdir(outbox()).catch(() => [] as string[]);
  const hits: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml'))) {
    const text = searchableEmail(await fs.readFile(path.join(outbox(), name), 'utf8'));
    if (terms.some((t) => text.includes(t.toLowerCase()))) hits.push(text);
  }
  return hits;
}

describe('the scan itself (it can fail)', () => {
  it('finds a term in a text column, a JSON column and an email of the outbox', async () => {
    const marker = `tracciadiprova${process.pid}`;
    await db().execute(sql`insert into impostazioni (chiave, valore) values (${`prova-${marker}`}, 'x')`);
    await db().execute(sql`insert into audit_log (action, entity, after) values ('user.update', 'user', ${JSON.stringify({ nome: marker })}::jsonb)`);
    const found = await traces([marker]);
    expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/^impostazioni\.chiave/), expect.stringMatching(/^audit_log\.after/)]));
    await db().execute(sql`delete from impostazioni where chiave = ${`prova-${marker}`}`);
    await db().execute(sql`delete from audit_log where after->>'nome' = ${marker}`);
    expect(await traces([marker])).toEqual([]);
  });
});

describe('Scarica i miei dati (GET /api/profilo/dati)', () => {
  it('one JSON file in the documented format, with everything the database holds of the person', async () => {
    const password = 'Esporta-Dati-2026';
    const me = await register({ nome: 'Ottavia', cognome: 'Esportini', email: `ottavia${process.pid}@example.it`, password, siglaResidente: null });
    const bikeId = await insertBike(db());
    const past = await insertBooking(db(), { userId: me.id, biciId: bikeId, date: '2026-11-10', from: '10:00', to: '11:00', stato: 'completata', destinazione: 'Centro' });
    await db().execute(sql`update prenotazioni set promemoria_inizio_at = '2026-11-10T08:45:00Z', ritirata_at = '2026-11-10T09:00:00Z',
                                  riconsegnata_at = '2026-11-10T09:55:00Z' where id = ${past}`);
    await db().execute(sql`insert into interventi (prenotazione_id, bici_id, segnalato_da, origine, categoria, descrizione)
                           values (${past}, ${bikeId}, ${me.id}, 'riconsegna', 'freni', 'Freno anteriore lento')`);
    const future = await bookThroughApi(ctx.app, me, bikeId);
    await payThroughApi(ctx.app, db(), me, future);
    expect((await call(ctx.app, me, 'POST', '/api/profilo/calendario')).statusCode).toBe(200);
    expect(
      (await call(ctx.app, me, 'POST', '/api/push/iscrizioni', {
        endpoint: 'https://push.example.net/esporta/1',
        expirationTime: Date.parse('2027-06-01T00:00:00Z'),
        keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
      })).statusCode,
    ).toBe(201);
    const second = await loginAs(ctx.app, `ottavia${process.pid}@example.it`, password);

    const res = await call(ctx.app, me, 'GET', '/api/profilo/dati');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="bicielis-dati-2026-11-21.json"');
    expect(res.headers['cache-control']).toBe('no-store');
    const data = dataExportSchema.parse(JSON.parse(res.body));

    const [account] = (await db().execute<{ email: string; nome: string; created_at: Date }>(sql`select email, nome, created_at from users where id = ${me.id}`)).rows;
    expect(data.account).toMatchObject({ id: me.id, email: account!.email, nome: 'Ottavia', cognome: 'Esportini', isResidente: false, siglaResidente: null });
    expect(data.generatoIl).toBe(TEST_NOW.toISOString());
    const bookingIds = (await db().execute<{ id: number }>(sql`select id from prenotazioni where user_id = ${me.id} order by inizio desc, id desc`)).rows.map((r) => r.id);
    expect(data.prenotazioni.map((b) => b.id)).toEqual(bookingIds);
    const paid = data.prenotazioni.find((b) => b.id === future)!;
    const [payment] = (await db().execute<{ id: number; provider_payment_id: string; completed_at: Date }>(sql`
      select id, provider_payment_id, completed_at from pagamenti where prenotazione_id = ${future}`)).rows;
    expect(paid.pagamento).toEqual({
      id: payment!.id,
      fornitore: 'simulated',
      riferimentoFornitore: payment!.provider_payment_id,
      importoCentesimi: 250,
      valuta: 'eur',
      stato: 'completed',
      creatoIl: expect.any(String),
      pagatoIl: new Date(payment!.completed_at).toISOString(),
      rimborsatoIl: null,
    });
    const ride = data.prenotazioni.find((b) => b.id === past)!;
    expect(ride).toMatchObject({ stato: 'completata', destinazione: 'Centro', corsa: { ritirataIl: '2026-11-10T09:00:00.000Z', riconsegnataIl: '2026-11-10T09:55:00.000Z' } });
    expect(data.avvisi).toEqual([{ tipo: 'promemoria_inizio', prenotazioneId: past, inviatoIl: '2026-11-10T08:45:00.000Z' }]);
    expect(data.segnalazioniDanni).toEqual([
      expect.objectContaining({ prenotazioneId: past, categoria: 'freni', descrizione: 'Freno anteriore lento', risoltaIl: null }),
    ]);
    const sessionCount = (await db().execute<{ n: number }>(sql`select count(*)::int as n from sessions where user_id = ${me.id}`)).rows[0]!.n;
    expect(data.sessioni).toHaveLength(sessionCount);
    expect(sessionCount).toBe(2);
    expect(data.sessioni.filter((s) => s.questaSessione)).toHaveLength(1);
    // Registered from Android; the second login came from a client no browser names.
    expect(data.sessioni.map((s) => s.dispositivo).sort()).toEqual(['Chrome su Android', 'Dispositivo sconosciuto']);
    expect(data.notifichePush).toEqual([{ endpoint: 'https://push.example.net/esporta/1', creataIl: TEST_NOW.toISOString(), scadeIl: '2027-06-01T00:00:00.000Z' }]);
    expect(data.calendario).toEqual({ promemoria: true, linkAttivo: true, aggiornatoIl: TEST_NOW.toISOString() });
    // Another user's export holds nothing of this one.
    expect((await call(ctx.app, { cookie: second }, 'GET', '/api/profilo/dati')).json().account.id).toBe(me.id);
    const other = await person(ctx);
    const theirs = (await call(ctx.app, other, 'GET', '/api/profilo/dati')).body;
    expect(theirs).not.toContain('Esportini');
    expect(dataExportSchema.parse(JSON.parse(theirs)).prenotazioni).toEqual([]);
  });

  it('401 without a session', async () => {
    const res = await call(ctx.app, null, 'GET', '/api/profilo/dati');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Non autenticato');
  });
});

describe('Elimina il mio account (DELETE /api/profilo)', () => {
  it('leaves no trace of the person anywhere but the last email; the statistics keep their rows; email and sigla can register again', async () => {
    const sigla = `ZQ${process.pid}`;
    const email = `zebedeo.quaglierini${process.pid}@example.it`;
    const nome = 'Zebedeo';
    const cognome = 'Quaglierini';
    const password = 'Elimina-Tutto-2026';
    await createResident(db(), { sigla, nome, cognome, corsoDiStudi: 'Ingegneria', annoCorso: 2 });
    const me = await register({ nome, cognome, email, password, siglaResidente: sigla });
    // A failed login keeps a counter keyed by the email.
    expect((await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Sbagliata-123' } })).statusCode).toBe(401);
    const bikeId = await insertBike(db());
    const past = await insertBooking(db(), { userId: me.id, biciId: bikeId, date: '2026-11-12', from: '09:00', to: '10:00', stato: 'completata', destinazione: `Casa ${cognome}` });
    await db().execute(sql`insert into interventi (prenotazione_id, bici_id, segnalato_da, origine, categoria, descrizione)
                           values (${past}, ${bikeId}, ${me.id}, 'riconsegna', 'luci', 'Luce spenta')`);
    await db().execute(sql`insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, created_at)
                           values (${me.id}, '2026-11-23', '10:00', '11:00', '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', ${`Da ${nome}`}, ${TEST_NOW.toISOString()}::timestamptz)`);
    const future = await bookThroughApi(ctx.app, me, bikeId, { orarioInizio: '15:00', orarioFine: '16:00' });
    expect((await call(ctx.app, me, 'POST', '/api/profilo/calendario')).statusCode).toBe(200);
    expect(
      (await call(ctx.app, me, 'POST', '/api/push/iscrizioni', { endpoint: 'https://push.example.net/zq/1', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }))
        .statusCode,
    ).toBe(201);
    // An admin edits the person (the audit keeps before/after) and deletes one of their bookings.
    const admin = await person(ctx, { ruolo: 'admin' });
    const edit = await call(ctx.app, admin, 'PUT', `/api/admin/users/${me.id}`, { nome, cognome: `${cognome}-Vecchio`, email, ruolo: 'user', isResidente: true, attiva: true });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await call(ctx.app, admin, 'PUT', `/api/admin/users/${me.id}`, { nome, cognome, email, ruolo: 'user', isResidente: true, attiva: true })).statusCode).toBe(200);
    const deletedByAdmin = await insertBooking(db(), { userId: me.id, biciId: bikeId, date: '2026-11-05', from: '09:00', to: '10:00', stato: 'completata' });
    expect((await call(ctx.app, admin, 'DELETE', `/api/admin/prenotazioni/${deletedByAdmin}`)).statusCode).toBe(200);
    // The nightly report of the past booking's day names the person.
    await generateReport({ db: db(), clock: ctx.clock, mailer: ctx.app.deps.mailer, config: ctx.config, log: ctx.app.log }, '2026-11-12');
    const reportText = async () =>
      (await pdfPages((await db().execute<{ pdf: Buffer }>(sql`select pdf from reports where report_date = '2026-11-12'`)).rows[0]!.pdf)).join('\n');
    expect(await reportText()).toContain(cognome);
    await ctx.app.deps.mailer.idle();
    expect((await outboxFilesNaming([email])).length).toBeGreaterThan(0);
    const terms = [email, nome, cognome, sigla];
    expect((await traces(terms)).length).toBeGreaterThan(5);
    const bookingsBefore = (await db().execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where stato <> 'offerta'`)).rows[0]!.n;
    const statsBefore = (await call(ctx.app, admin, 'GET', '/api/admin/stats?period=30')).json();

    // What the screen says first.
    const preview = (await call(ctx.app, me, 'GET', '/api/profilo/eliminazione')).json();
    expect(preview).toMatchObject({
      corsaInCorso: null,
      ultimoAmministratore: false,
      annullate: [{ id: future, dataPrenotazione: '2026-11-22', orarioInizio: '15:00', orarioFine: '16:00', rimborso: false }],
      anonimizzate: 2,
      attese: 1,
      sessioni: 1,
      notifichePush: 1,
      calendario: true,
      email,
    });

    // A wrong password changes nothing.
    const wrong = await call(ctx.app, me, 'DELETE', '/api/profilo', { password: 'Non-La-Mia-2026' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'La password non è corretta', fields: { password: 'La password non è corretta' } });
    expect((await call(ctx.app, me, 'GET', '/api/profilo')).statusCode).toBe(200);

    const res = await call(ctx.app, me, 'DELETE', '/api/profilo', { password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Il tuo account è stato eliminato', annullate: 1, rimborsate: 0, anonimizzate: 2 });
    expect(String(res.headers['set-cookie'])).toMatch(/bicielis_session=;/);
    // Every session ended: the cookie no longer opens anything.
    expect((await call(ctx.app, me, 'GET', '/api/profilo')).statusCode).toBe(401);

    // No trace in any table: the college's own roster row of the code (residenti) is the one
    // thing allowed to keep it, so the code can be registered again.
    expect(await traces(terms, { residenti: sql`sigla = ${sigla}` })).toEqual([]);
    // The outbox: only the last email.
    await ctx.app.deps.mailer.idle();
    const left = await outboxFilesNaming([email, `${nome} ${cognome}`, sigla]);
    expect(left).toHaveLength(1);
    expect(left[0]).toContain('il tuo account bicielis è stato eliminato');
    // The bookings stay, anonymous and concluded; the statistics did not move.
    const rows = (await db().execute<{ id: number; user_id: number | null; stato: string; destinazione: string | null }>(sql`
      select id, user_id, stato, destinazione from prenotazioni where id in (${past}, ${future}) order by id`)).rows;
    expect(rows).toEqual([
      { id: past, user_id: null, stato: 'completata', destinazione: null },
      { id: future, user_id: null, stato: 'cancellata', destinazione: null },
    ]);
    expect((await db().execute<{ n: number }>(sql`select count(*)::int as n from prenotazioni where stato <> 'offerta'`)).rows[0]!.n).toBe(bookingsBefore);
    const statsAfter = (await call(ctx.app, admin, 'GET', '/api/admin/stats?period=30')).json();
    expect(statsBefore.totals.rides).toBeGreaterThan(0);
    expect(statsAfter.totals.rides).toBe(statsBefore.totals.rides);
    // The audit entries stay (who, what, when) with the person's values replaced.
    const audit = (await db().execute<{ action: string; actor_id: number | null; before: unknown; after: unknown }>(sql`
      select action, actor_id, before, after from audit_log where entity = 'user' and entity_id = ${String(me.id)} order by id`)).rows;
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ['user.update', admin.id],
      ['user.update', admin.id],
    ]);
    expect(audit[0]!.before).toMatchObject({ email: ANONYMOUS_MARKER, nome: ANONYMOUS_MARKER, cognome: ANONYMOUS_MARKER, sigla: ANONYMOUS_MARKER });
    expect(audit[0]!.after).toMatchObject({ cognome: ANONYMOUS_MARKER, ruolo: 'user', isResidente: true });
    // The stored report was drawn again without the name, its booking still counted.
    const redrawn = await reportText();
    expect(redrawn).not.toContain(cognome);
    expect(redrawn).toContain('Utente anonimo');
    // Nothing of the person in this file's log lines either: ids only.
    expect(collectedLogLines.filter((l) => terms.some((t) => l.toLowerCase().includes(t.toLowerCase())))).toEqual([]);

    // The email and the sigla are free again.
    const again = await register({ nome, cognome, email, password, siglaResidente: sigla });
    expect(again.id).not.toBe(me.id);
  });

  it('refunds a paid booking not yet started, as a cancel would', async () => {
    const password = 'Rimborso-Conto-2026';
    const me = await register({ nome: 'Rosalba', cognome: 'Rimborsi', email: `rosalba${process.pid}@example.it`, password, siglaResidente: null });
    const bikeId = await insertBike(db());
    const booking = await bookThroughApi(ctx.app, me, bikeId, { orarioInizio: '17:00', orarioFine: '18:00' });
    await payThroughApi(ctx.app, db(), me, booking);
    const preview = (await call(ctx.app, me, 'GET', '/api/profilo/eliminazione')).json();
    expect(preview.annullate).toEqual([expect.objectContaining({ id: booking, rimborso: true })]);
    const res = await call(ctx.app, me, 'DELETE', '/api/profilo', { password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ annullate: 1, rimborsate: 1 });
    const [pay] = (await db().execute<{ status: string; prenotazione_id: number; refunded_at: Date | null }>(sql`
      select status, prenotazione_id, refunded_at from pagamenti where prenotazione_id = ${booking}`)).rows;
    expect(pay).toMatchObject({ status: 'refunded', prenotazione_id: booking });
    expect(pay!.refunded_at).not.toBeNull();
  });

  it('a ride in progress must be returned first (409, nothing changes)', async () => {
    const user = await createUser(db(), { nome: 'Rocco', cognome: 'Ruotalibera' });
    const cookie = await loginAs(ctx.app, user.email, user.password);
    const bikeId = await insertBike(db());
    await insertBooking(db(), { userId: user.id, biciId: bikeId, date: '2026-11-21', from: '09:30', to: '11:00', ritirataAt: new Date('2026-11-21T08:30:00Z') });
    const preview = (await call(ctx.app, { cookie }, 'GET', '/api/profilo/eliminazione')).json();
    expect(preview.corsaInCorso).toMatchObject({ biciNumero: expect.any(String) });
    const res = await call(ctx.app, { cookie }, 'DELETE', '/api/profilo', { password: user.password });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'RIDE_IN_PROGRESS', message: 'Hai una bici ritirata: riconsegnala prima di eliminare l’account' });
    expect((await call(ctx.app, { cookie }, 'GET', '/api/profilo')).statusCode).toBe(200);
  });

  it('an admin may leave unless the last active one; the rules and the audit forget their email', async () => {
    const solo = await createUser(db(), { ruolo: 'admin', nome: 'Adalgisa', cognome: 'Adalgisetti' });
    await db().execute(sql`update users set attiva = false where ruolo = 'admin' and id <> ${solo.id}`);
    const cookie = await loginAs(ctx.app, solo.email, solo.password);
    const rules = (await call(ctx.app, { cookie }, 'GET', '/api/admin/regole')).json();
    const { updatedAt: _u, updatedBy: _b, ...body } = rules;
    expect((await call(ctx.app, { cookie }, 'PUT', '/api/admin/regole', body)).statusCode).toBe(200);
    const last = await call(ctx.app, { cookie }, 'DELETE', '/api/profilo', { password: solo.password });
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('LAST_ADMIN');
    const other = await person(ctx, { ruolo: 'admin' });
    const res = await call(ctx.app, { cookie }, 'DELETE', '/api/profilo', { password: solo.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await traces([solo.email, 'Adalgisetti'])).toEqual([]);
    const [row] = (await db().execute<{ updated_by: string }>(sql`select updated_by from regole`)).rows;
    expect(row!.updated_by).toBe(ANONYMOUS_MARKER);
    expect((await call(ctx.app, other, 'GET', '/api/admin/regole')).json().updatedBy).toBe(ANONYMOUS_MARKER);
  });
});

describe('an admin with a second factor (decision 030)', () => {
  it('the export says since when and how many recovery codes are left, and lists the pending code step; the deletion leaves nothing of either', async () => {
    ctx.clock.set(TEST_NOW);
    const admin = await createUser(db(), { ruolo: 'admin', nome: 'Totpina', cognome: 'Duefattori' });
    await person(ctx, { ruolo: 'admin' });
    const cookie = await loginAs(ctx.app, admin.email, admin.password);
    const started = await call(ctx.app, { cookie }, 'POST', '/api/due-fattori/attivazione');
    expect(started.statusCode, started.body).toBe(200);
    const { segreto } = started.json() as { segreto: string };
    const confirmed = await call(ctx.app, { cookie }, 'POST', '/api/due-fattori/conferma', { codice: totpCode(segreto, ctx.clock.now()) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // A password step from another device: the pending state, a session row of its own kind.
    const pending = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: admin.email, password: admin.password }, remoteAddress: '10.29.0.1' });
    expect(pending.json().code).toBe('TWO_FACTOR_REQUIRED');

    const res = await call(ctx.app, { cookie }, 'GET', '/api/profilo/dati');
    expect(res.statusCode, res.body).toBe(200);
    const data = dataExportSchema.parse(JSON.parse(res.body));
    expect(data.account.verificaInDuePassaggi).toEqual({ attivaDal: TEST_NOW.toISOString(), codiciDiRecuperoRimasti: 10 });
    expect(data.sessioni.map((s) => s.tipo).sort()).toEqual(['session', 'two_factor']);
    expect(res.body).not.toContain(segreto);

    const gone = await call(ctx.app, { cookie }, 'DELETE', '/api/profilo', { password: admin.password });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await traces([admin.email, 'Duefattori'])).toEqual([]);
    const left = await db().execute<{ n: number }>(sql`
      select (select count(*) from codici_recupero where user_id = ${admin.id}) + (select count(*) from sessions where user_id = ${admin.id}) as n`);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});

describe('the nightly retention (job privacy-retention)', () => {
  it('anonymises what is older than the rules’ months, at the chosen instant; removes expired sessions, reset tokens, dead push subscriptions', async () => {
    const user = await createUser(db(), { nome: 'Teodolinda', cognome: 'Conserva' });
    const bikeId = await insertBike(db());
    const old = await insertBooking(db(), { userId: user.id, biciId: bikeId, date: '2024-10-01', from: '10:00', to: '11:00', stato: 'completata', destinazione: 'Vecchia' });
    const recent = await insertBooking(db(), { userId: user.id, biciId: bikeId, date: '2025-06-01', from: '10:00', to: '11:00', stato: 'cancellata', destinazione: 'Recente' });
    const current = await insertBooking(db(), { userId: user.id, biciId: bikeId, date: '2026-11-25', from: '10:00', to: '11:00' });
    await db().execute(sql`update prenotazioni set promemoria_inizio_at = inizio - interval '15 minutes' where id = ${old}`);
    await db().execute(sql`insert into interventi (prenotazione_id, bici_id, segnalato_da, origine, categoria, descrizione, created_at) values
      (${old}, ${bikeId}, ${user.id}, 'riconsegna', 'ruote', 'Gomma a terra', '2024-10-01T09:30:00Z'),
      (${recent}, ${bikeId}, ${user.id}, 'riconsegna', 'ruote', 'Gomma molle', '2025-06-01T09:30:00Z')`);
    await db().execute(sql`insert into attese (user_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at, ended_at) values
      (${user.id}, '2024-09-01', '10:00', '11:00', '2024-09-01T08:00:00Z', '2024-09-01T09:00:00Z', 'scaduta', '2024-08-30T10:00:00Z', '2024-09-01T08:00:00Z')`);
    await db().execute(sql`insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at) values
      ('scaduta-${sql.raw(String(user.id))}', ${user.id}, '2026-10-01T00:00:00Z', '2026-10-01T00:00:00Z', '2026-10-15T00:00:00Z'),
      ('valida-${sql.raw(String(user.id))}', ${user.id}, '2026-11-20T00:00:00Z', '2026-11-20T00:00:00Z', '2026-12-20T00:00:00Z')`);
    await db().execute(sql`update users set temp_password_hash = 'x', temp_password_expires_at = '2026-11-21T08:00:00Z' where id = ${user.id}`);
    await db().execute(sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, scade_at) values
      (${user.id}, 'https://push.example.net/r/scaduta', 'p', 'a', '2026-11-01T00:00:00Z'),
      (${user.id}, 'https://push.example.net/r/viva', 'p', 'a', null)`);
    const admin = await person(ctx, { ruolo: 'admin' });
    const rules = (await call(ctx.app, admin, 'GET', '/api/admin/regole')).json();
    expect(rules.conservazioneMesi).toBe(24);
    const job = retentionJob({ database: ctx.database, clock: ctx.clock, mailer: ctx.app.deps.mailer, config: ctx.config, log: collectingLogger() });
    const state = async () =>
      (await db().execute<{ id: number; user_id: number | null; destinazione: string | null }>(sql`
        select id, user_id, destinazione from prenotazioni where id in (${old}, ${recent}, ${current}) order by id`)).rows;

    const first = await job();
    expect(first).toMatchObject({ bookings: 1, waits: 1, damages: 1, sessions: expect.any(Number), resetTokens: 1, pushSubscriptions: 1 });
    expect(await state()).toEqual([
      { id: old, user_id: null, destinazione: null },
      { id: recent, user_id: user.id, destinazione: 'Recente' },
      { id: current, user_id: user.id, destinazione: null },
    ]);
    const damages = (await db().execute<{ prenotazione_id: number; user_id: number | null }>(sql`
      select prenotazione_id, segnalato_da as user_id from interventi where prenotazione_id in (${old}, ${recent}) order by prenotazione_id`)).rows;
    expect(damages).toEqual([{ prenotazione_id: old, user_id: null }, { prenotazione_id: recent, user_id: user.id }]);
    const sessionsLeft = (await db().execute<{ token_hash: string }>(sql`select token_hash from sessions where user_id = ${user.id}`)).rows.map((r) => r.token_hash);
    expect(sessionsLeft).toEqual([`valida-${user.id}`]);
    expect((await db().execute<{ t: string | null }>(sql`select temp_password_hash as t from users where id = ${user.id}`)).rows[0]!.t).toBeNull();
    expect((await db().execute<{ endpoint: string }>(sql`select endpoint from push_subscriptions where user_id = ${user.id}`)).rows.map((r) => r.endpoint)).toEqual([
      'https://push.example.net/r/viva',
    ]);

    // An admin shortens the period: the next night, the 2025 booking goes too; an active one never.
    const saved = await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...rules, conservazioneMesi: 12 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().conservazioneMesi).toBe(12);
    expect((await call(ctx.app, admin, 'PUT', '/api/admin/regole', { ...rules, conservazioneMesi: 0 })).json().fields).toEqual({
      conservazioneMesi: 'Conservazione dei dati non valida (da 1 a 120 mesi)',
    });
    ctx.clock.set(new Date('2026-11-22T02:40:00Z'));
    try {
      const second = await job();
      expect(second).toMatchObject({ bookings: 1, damages: 1, cutoff: '2025-11-22T02:40:00.000Z' });
      expect(await state()).toEqual([
        { id: old, user_id: null, destinazione: null },
        { id: recent, user_id: null, destinazione: null },
        { id: current, user_id: user.id, destinazione: null },
      ]);
      // Far in the future, the active booking (not over) still keeps its owner.
      ctx.clock.set(new Date('2030-01-01T03:40:00Z'));
      await job();
      expect((await state())[2]).toEqual({ id: current, user_id: user.id, destinazione: null });
    } finally {
      ctx.clock.set(TEST_NOW);
    }
  });
});
