import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gzipAfterHead, keptHead } from '../../src/server/http/precompressed.js';
import { fillTemplate, plainBikeNumber, splitTemplate, type PageRenderer } from '../../src/server/pages/server-render.js';
import type { BookingDto } from '../../src/shared/schemas/booking.js';
import { biciclette, incarichi, interventi } from '../../src/server/schema.js';
import { SERVER_STATE_ELEMENT_ID } from '../../src/shared/server-page.js';
import { renderPage } from '../../src/web/boot/entry-server.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { collectedLogLines } from '../helpers/leak-scan.js';

/**
 * Issue 22 (decision 027): /dashboard and /admin rendered on the server with the user's data,
 * by the app's own renderer (src/web/boot/entry-server.tsx, loaded here through Vitest's Vite as
 * the build's dist/ssr would be), into the built page's `#root`. TEST_NOW is Saturday
 * 2026-11-21 10:00 in Rome.
 */
const LOADING = '<main class="loading"><div role="status">Caricamento BiciElis...</div></main>';
const page = (screen: string) =>
  '<!doctype html><html lang="it"><head><title>BiciElis</title><script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '<style>body{margin:0}</style><link rel="preload" href="/api/current-user" as="fetch" crossorigin="use-credentials">' +
  `<link rel="modulepreload" crossorigin href="/assets/dashboard-page-abc.js"></head><body><noscript>JavaScript</noscript>` +
  `<div id="root" data-prerendered="${screen}">${LOADING}</div>\n</body></html>`;

let webRoot: string;
let ctx: TestContext;
/** What the app renders with: the real renderer unless a test breaks it. */
let renderer: PageRenderer = { renderPage };
const db = () => ctx.database.db;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-ssr-'));
  const files = [['index.html', 'loading'], ['login.html', 'login'], ['dashboard.html', 'loading'], ['admin.html', 'loading'], ['bici.html', 'loading'], ['officina.html', 'loading'], ['intervento.html', 'loading']];
  for (const [file, screen] of files) {
    await fs.writeFile(path.join(webRoot, file!), page(screen!));
  }
  ctx = await createTestApp({ deps: { webRoot, pageRenderer: { renderPage: (input) => renderer.renderPage(input) } } });
});
afterAll(async () => {
  await ctx.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});
beforeEach(async () => {
  renderer = { renderPage };
  ctx.clock.set(TEST_NOW);
  await truncateAll(db());
  await db().execute(sql`truncate attese restart identity cascade`);
});

const get = (url: string, who?: Person | null, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...(who ? { cookie: who.cookie } : {}), ...headers } });

/** The text of the HTML as a reader sees it: React's `<!-- -->` separators between text parts dropped. */
const text = (html: string) => html.replaceAll('<!-- -->', '');

/** The state the page carries for the browser, parsed as main.tsx does. */
function stateOf(html: string): { user: { id: number }; now: number; queries: { queries: { queryKey: unknown[]; state: { data: unknown } }[] } } {
  const match = new RegExp(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">(.*?)</script>`, 's').exec(html);
  expect(match, 'the state script').not.toBeNull();
  return JSON.parse(match![1]!);
}

/** Marta with tomorrow's booking on bike 17 and a ride done last week; Bianca, another resident, with her own. */
async function twoResidents() {
  const marta = await person(ctx, { nome: 'Marta', cognome: 'Ruota' });
  const bianca = await person(ctx, { nome: 'Bianca', cognome: 'Segreta', email: 'bianca.segreta@test.it' });
  const bike17 = await insertBike(db(), { numero: '17', modello: 'Graziella Blu' });
  const bike23 = await insertBike(db(), { numero: '23', modello: 'Mountain Verde' });
  const active = await insertBooking(db(), { userId: marta.id, biciId: bike17, date: '2026-11-22', from: '10:00', to: '12:00', destinazione: 'Stazione Termini' });
  await insertBooking(db(), {
    userId: marta.id,
    biciId: bike17,
    date: '2026-11-14',
    from: '09:00',
    to: '11:00',
    stato: 'completata',
    destinazione: 'Villa Borghese',
    ritirataAt: new Date('2026-11-14T08:00:00Z'),
  });
  await insertBooking(db(), { userId: bianca.id, biciId: bike23, date: '2026-11-23', from: '15:00', to: '17:00', destinazione: 'Casa di Bianca' });
  return { marta, bianca, active };
}

describe('GET /dashboard for a logged-in user', () => {
  it('is the user’s dashboard in the HTML: the welcome line, the booking, its buttons, the past ride; and nothing of anybody else', async () => {
    const { marta, active } = await twoResidents();
    const res = await get('/dashboard', marta);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(String(res.headers.vary)).toMatch(/\bCookie\b/i);
    const html = res.body;
    const shown = text(html);
    expect(html).toContain('data-prerendered="server"');
    expect(html).not.toContain(LOADING);
    expect(shown).toContain('Benvenuto, Marta Ruota');
    expect(shown).toContain('Bici 17 · Graziella Blu');
    expect(shown).toContain('Stazione Termini');
    expect(shown).toContain('domenica 22 novembre 2026');
    // The next step and the deletion, with the hint of when the pick-up opens (10 minutes early).
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-describedby="ritiro-\d+-hint"[^>]*>.*?Ritirata<\/button>/s);
    expect(shown).toContain('Potrai ritirarla dalle 09:50');
    expect(shown).toMatch(/>Elimina<\/button>/);
    expect(shown).toContain('Villa Borghese');
    expect(html).toContain(`/api/prenotazioni/${active}/calendario.ics`);
    // Nobody else's name, address or booking; the session's preload is gone (the page brings its user).
    for (const other of ['Bianca', 'Segreta', 'bianca.segreta@test.it', 'Casa di Bianca']) expect(html).not.toContain(other);
    expect(html).not.toContain('/api/current-user');
    // The page's own parts stay: stylesheet, entry, modulepreloads.
    expect(html).toContain('<style>body{margin:0}</style>');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/dashboard-page-abc.js">');
    // The state: the user, the server's clock, the answers under the screen's query keys.
    const state = stateOf(html);
    expect(state.user.id).toBe(marta.id);
    expect(state.now).toBe(TEST_NOW.getTime());
    const keys = state.queries.queries.map((q) => JSON.stringify(q.queryKey)).sort();
    expect(keys).toEqual(['["/api/attese"]', '["/api/biciclette"]', '["/api/config"]', '["/api/prenotazioni","user"]', '["/api/regole"]']);
    // The same answers the API gives.
    const own = state.queries.queries.find((q) => JSON.stringify(q.queryKey) === '["/api/prenotazioni","user"]')!.state.data;
    expect(own).toEqual((await get('/api/prenotazioni/user', marta)).json());
  });

  it('keeps the strict CSP: the state is a JSON script, not executed', async () => {
    const { marta } = await twoResidents();
    const res = await get('/dashboard', marta);
    expect(String(res.headers['content-security-policy'])).toMatch(/script-src 'self';/);
    expect(res.body).toMatch(new RegExp(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">`));
    // The only other scripts are the page's own files.
    const scripts = [...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.every((tag) => tag.includes('type="application/json"') || /src="\/assets\//.test(tag))).toBe(true);
  });

  it('writes text that could close the script escaped, and the state reads it back as it was', async () => {
    const marta = await person(ctx, { nome: 'Marta', cognome: 'Ruota' });
    const bike = await insertBike(db(), { numero: '17', modello: 'Graziella Blu' });
    const nasty = 'Bar </script><script>alert(1)</script> <!-- & \u2028';
    await insertBooking(db(), { userId: marta.id, biciId: bike, date: '2026-11-22', from: '10:00', to: '12:00', destinazione: nasty });
    const html = (await get('/dashboard', marta)).body;
    expect(html).not.toContain('<script>alert(1)');
    const own = stateOf(html).queries.queries.find((q) => JSON.stringify(q.queryKey) === '["/api/prenotazioni","user"]')!.state.data as BookingDto[];
    expect(own[0]!.destinazione).toBe(nasty);
  });

  it('gives an anonymous visitor, or a stale cookie, the pre-rendered page', async () => {
    for (const who of [null, { id: 0, email: '', cookie: 'bicielis_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }]) {
      const res = await get('/dashboard', who);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(page('loading'));
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers.vary)).toMatch(/\bCookie\b/i);
    }
  });

  it('falls back to the pre-rendered page, and logs, when the render fails', async () => {
    const { marta } = await twoResidents();
    renderer = {
      renderPage: () => Promise.reject(new Error('render rotto di prova')),
    };
    const logged = collectedLogLines.length;
    const res = await get('/dashboard', marta);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(page('loading'));
    expect(res.headers['cache-control']).toBe('no-cache');
    const lines = collectedLogLines.slice(logged).filter((line) => line.includes('render sul server non riuscito'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('render rotto di prova');
  });

  it('renders at the address asked for, query string included, and HEAD gets the pre-rendered page', async () => {
    const { marta } = await twoResidents();
    const res = await get('/dashboard/?da=notifica', marta);
    expect(text(res.body)).toContain('Benvenuto, Marta Ruota');
    const head = await ctx.app.inject({ method: 'HEAD', url: '/dashboard', headers: { cookie: marta.cookie } });
    expect(head.headers['cache-control']).toBe('no-cache');
  });

  it('leaves compressed for a browser that takes it, as every answer over 1 KB (issue 33: it went out whole)', async () => {
    const { marta } = await twoResidents();
    const plain = await get('/dashboard', marta);
    for (const [encoding, unpack] of [['br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]] as const) {
      const res = await get('/dashboard', marta, { 'accept-encoding': `${encoding}` });
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/\bCookie\b.*accept-encoding|accept-encoding.*\bCookie\b/i);
      const html = unpack(res.rawPayload).toString();
      expect(text(html)).toContain('Benvenuto, Marta Ruota');
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    }
  });

  it('goes as gzip to a browser that takes gzip and brotli alike, its head’s deflate made once (decision 073), brotli to one that prefers it', async () => {
    const { marta } = await twoResidents();
    // Each render stamps its state with the time it was read.
    const stamped = (html: string) => html.replace(/"dehydratedAt":\d+/gu, '"dehydratedAt":0');
    const plain = stamped((await get('/dashboard', marta)).body);
    const head = Buffer.from(plain.slice(0, plain.indexOf('</head>')));
    const { gzip: kept } = keptHead(head);
    expect(kept).not.toBeNull();
    for (const accept of ['gzip, deflate, br, zstd', 'br, gzip', '*']) {
      const res = await get('/dashboard', marta, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      // The bytes after gzip's 10-byte header are the head's kept deflate, then the answer's own.
      expect(res.rawPayload.subarray(10, 10 + kept!.deflated.length).equals(kept!.deflated), accept).toBe(true);
      expect(stamped(zlib.gunzipSync(res.rawPayload).toString()), accept).toBe(plain);
    }
    const br = await get('/dashboard', marta, { 'accept-encoding': 'gzip;q=0.5, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(stamped(zlib.brotliDecompressSync(br.rawPayload).toString())).toBe(plain);
  });
});

describe('GET /admin', () => {
  it('is the summary cards, the sections and the bookings tab’s first page, with the answers the API gives', async () => {
    await twoResidents();
    const admin = await person(ctx, { ruolo: 'admin', nome: 'Ada', cognome: 'Capo' });
    const res = await get('/admin', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const shown = text(res.body);
    expect(shown).toContain('Dashboard Amministratore');
    const card = (label: string) => new RegExp(`${label}(<svg.*?</svg>)?</dt><dd[^>]*>([^<]*)</dd>`, 's').exec(shown)?.[2];
    expect(card('Utenti totali')).toBe('3');
    expect(card('Bici disponibili')).toBe('2 di 2');
    expect(card('Completate Oggi')).toBe('0');
    expect(card('Danni da controllare')).toBe('0');
    // The sections say what they hold, not that they are loading; the table has the bookings.
    expect(shown).toContain('Nessuna bicicletta in ritardo');
    expect(shown).toContain('Oggi nessuno è in lista d&#x27;attesa');
    expect(shown).toContain('Nessun intervento aperto');
    // The one `Caricamento` is in the hidden panel of `Biciclette`: that tab's first screen, its
    // rows loading, shown by a tap before the page has hydrated (decision 039).
    const hiddenPanel = /<div role="tabpanel"[^>]*hidden=""[^>]*data-state="inactive"[^>]*>/.exec(shown);
    expect(hiddenPanel).not.toBeNull();
    expect(shown.split('Caricamento').length - 1).toBe(1);
    expect(shown.indexOf('Caricamento')).toBeGreaterThan(hiddenPanel!.index);
    expect(shown.slice(hiddenPanel!.index)).toContain('aria-label="Biciclette"');
    for (const who of ['Marta Ruota', 'Bianca Segreta']) expect(shown).toContain(who);
    // The same answers the API gives, under the keys the screen reads.
    const state = stateOf(res.body);
    const data = (key: unknown[]) => state.queries.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(key))?.state.data;
    expect(data(['admin', 'summary'])).toEqual((await get('/api/admin/summary', admin)).json());
    expect(data(['/api/config'])).toEqual((await get('/api/config', admin)).json());
    expect(data(['admin', 'ritardi'])).toEqual((await get('/api/admin/ritardi', admin)).json());
    expect(data(['admin', 'danni'])).toEqual((await get('/api/admin/danni', admin)).json());
    expect(data(['interventi', 'list', { stato: 'aperti' }])).toEqual((await get('/api/interventi?stato=aperti', admin)).json());
    expect(data(['admin', 'attese'])).toEqual((await get('/api/admin/attese', admin)).json());
    const page = await get('/api/admin/prenotazioni?stato=tutti&page=1&pageSize=50', admin);
    expect(data(['admin', 'prenotazioni', { q: '', stato: 'tutti', page: 1 }])).toEqual({ items: page.json(), total: Number(page.headers['x-total-count']) });
  });

  it('holds the first 10 rows of the bookings’ first page and a row keeping the others’ height; the state holds them all', async () => {
    const marta = await person(ctx, { nome: 'Marta', cognome: 'Ruota' });
    const admin = await person(ctx, { ruolo: 'admin' });
    const bike = await insertBike(db(), { numero: '17' });
    for (let day = 1; day <= 13; day++)
      await insertBooking(db(), { userId: marta.id, biciId: bike, date: `2026-12-${String(day).padStart(2, '0')}`, from: '10:00', to: '12:00', stato: 'completata', destinazione: `Meta ${day}` });
    const res = await get('/admin', admin);
    const table = /aria-label="Prenotazioni"[^>]*><table.*?<\/table>/s.exec(res.body)?.[0] ?? '';
    const body = /<tbody.*?<\/tbody>/s.exec(table)?.[0] ?? '';
    expect(body.match(/<tr data-slot="table-row"/g)).toHaveLength(10);
    expect(body).toMatch(/<tr aria-hidden="true" data-pending-rows="3"><td colSpan="8"[^>]*><\/td><\/tr><\/tbody>/i);
    expect(body.match(/>Meta \d+</g)).toHaveLength(10);
    const state = stateOf(res.body);
    const first = state.queries.queries.find((q) => q.queryKey[1] === 'prenotazioni')?.state.data as { items: unknown[]; total: number };
    expect(first.items).toHaveLength(13);
    expect(first.total).toBe(13);
  });

  it('writes instants on the college’s clock, whatever the server’s time zone (this process runs in UTC)', async () => {
    const { marta } = await twoResidents();
    const admin = await person(ctx, { ruolo: 'admin' });
    const [bike] = await db().select({ id: biciclette.id }).from(biciclette).limit(1);
    // Issue 48: a repair ticket in `Danni da controllare`, its instant under its age.
    await db().insert(interventi).values({ biciId: bike!.id, segnalatoDa: marta.id, origine: 'riconsegna', categoria: 'freni', descrizione: 'Il freno fischia', createdAt: new Date('2026-11-20T16:30:00Z') });
    const shown = text((await get('/admin', admin)).body);
    expect(shown).toContain('Il freno fischia');
    expect(shown).toMatch(/<time dateTime="2026-11-20T16:30:00\.000Z" title="20\/11\/2026 17:30">/);
  });

  it('shows the tab of the address; a tab other than the bookings loads in the browser', async () => {
    const admin = await person(ctx, { ruolo: 'admin', nome: 'Ada', cognome: 'Capo' });
    const res = await get('/admin?tab=utenti', admin);
    expect(res.body).toMatch(/role="tab" aria-selected="true"[^>]*>Utenti</);
    expect(text(res.body)).toContain('Caricamento');
  });

  it('is the pre-rendered page for a user who is not an admin', async () => {
    const { marta } = await twoResidents();
    const res = await get('/admin', marta);
    expect(res.body).toBe(page('loading'));
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('is the pre-rendered page for a staff member too (issue 48): no admin’s data; the browser loads their sedi’s', async () => {
    const { marta } = await twoResidents();
    await db().execute(sql`insert into incarichi (user_id, sede_id, ruolo) select ${marta.id}, min(id), 'portineria' from sedi`);
    const res = await get('/admin', marta);
    expect(res.body).toBe(page('loading'));
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('GET /bici/{numero} (decision 068)', () => {
  it('is the bike’s page in the HTML, with its state now and the report’s early fields, and the answer in the state', async () => {
    const { bianca } = await twoResidents();
    const res = await get('/bici/17', bianca);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const html = res.body;
    expect(html).toContain('data-prerendered="server"');
    const shown = text(html);
    expect(shown).toContain('Bici 17');
    expect(shown).toContain('Stato ora');
    expect(shown).toContain('Prenota questa bici');
    // `Segnala un problema` opens its first fields natively (an empty manual popover holds "opened").
    expect(html).toMatch(/<button[^>]*popovertarget="([^"]+-aperto)"[^>]*data-early-open=""[^>]*>.*?Segnala un problema<\/button>/is);
    expect(html).toMatch(/<div id="[^"]+-aperto" popover="manual" data-early-switch=""><\/div><div data-early-booking="">/);
    expect(html).toMatch(/<select[^>]*data-early-field="categoria"/);
    expect(shown).toContain('Che cosa non va');
    // Nothing of Marta's booking of this bike: its state and its times only.
    expect(shown).not.toContain('Stazione Termini');
    expect(shown).not.toContain('Marta');
    const state = stateOf(html);
    expect(state.user.id).toBe(bianca.id);
    const bike = state.queries.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(['/api/biciclette', 'numero', '17']));
    const api = await ctx.app.inject({ method: 'GET', url: '/api/biciclette/numero/17', headers: { cookie: bianca.cookie } });
    expect(bike?.state.data).toEqual(api.json());
  });

  it('is the holder’s booking card with its steps, as the dashboard shows it', async () => {
    const { marta } = await twoResidents();
    // Marta's booking of bike 17 is tomorrow 10:00: its pick-up window opens 15 minutes before.
    ctx.clock.set(new Date('2026-11-22T08:50:00Z'));
    const shown = text((await get('/bici/17', marta)).body);
    expect(shown).toContain('La tua prenotazione');
    expect(shown).toContain('Stazione Termini');
    expect(shown).toContain('Ritirata');
  });

  it('is the pre-rendered page for a bike that is not there, an odd number, an anonymous visitor', async () => {
    const { marta } = await twoResidents();
    const logged = collectedLogLines.length;
    for (const [url, who] of [['/bici/99', marta], ['/bici/%31%37', marta], ['/bici/17', null]] as const) {
      const res = await get(url, who);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(page('loading'));
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // No error logged for them: a bike that is not there is no failed render.
    expect(collectedLogLines.slice(logged).filter((line) => line.includes('render sul server non riuscito'))).toEqual([]);
  });

  it('reads the number as the page keys it: a plain segment only', () => {
    expect(plainBikeNumber('/bici/07')).toBe('07');
    expect(plainBikeNumber('/bici/A-3/')).toBe('A-3');
    expect(plainBikeNumber('/bici/%31%37')).toBeUndefined();
    expect(plainBikeNumber('/bici/%E0%A4%A')).toBeUndefined();
    expect(plainBikeNumber('/bici/')).toBeUndefined();
    expect(plainBikeNumber('/bici/1/2')).toBeUndefined();
    expect(plainBikeNumber(`/bici/${'9'.repeat(21)}`)).toBeUndefined();
  });
});

describe('GET /officina and /officina/{id} (decision 070)', () => {
  /** Two sedi: the first (the install's own) and Residenza Nord; a bike and an open ticket in each, and a mechanic of the first. */
  async function workshop() {
    const { rows: first } = await db().execute<{ id: number }>(sql`select id from sedi order by id limit 1`);
    const sedeA = first[0]!.id;
    // truncateAll keeps the sedi: Residenza Nord is made once.
    const { rows: made } = await db().execute<{ id: number }>(sql`
      with made as (insert into sedi (nome, indirizzo) select 'Residenza Nord', 'Via Nord 1' where not exists (select 1 from sedi where nome = 'Residenza Nord') returning id)
      select id from made union all select id from sedi where nome = 'Residenza Nord'`);
    const sedeB = made[0]!.id;
    const [bikeA] = await db().insert(biciclette).values({ numero: '31', modello: 'City Bike', sedeId: sedeA }).returning({ id: biciclette.id });
    const [bikeB] = await db().insert(biciclette).values({ numero: '42', modello: 'City Bike', sedeId: sedeB }).returning({ id: biciclette.id });
    const mechanic = await person(ctx, { nome: 'Michele', cognome: 'Chiave', email: 'michele.chiave@test.it' });
    await db().insert(incarichi).values({ userId: mechanic.id, sedeId: sedeA, ruolo: 'officina' });
    const reporter = await person(ctx, { nome: 'Marta', cognome: 'Ruota' });
    const ticket = async (biciId: number, sedeId: number, descrizione: string) =>
      (await db().insert(interventi).values({ biciId, sedeId, segnalatoDa: reporter.id, origine: 'segnalazione', categoria: 'freni', descrizione }).returning({ id: interventi.id }))[0]!.id;
    const here = await ticket(bikeA!.id, sedeA, 'Il freno fischia in discesa');
    const there = await ticket(bikeB!.id, sedeB, 'Freno della sede nord');
    return { mechanic, reporter, here, there };
  }

  it('is the workshop’s list in the HTML, each ticket a link to its page, its sedi’s tickets only, as the API lists them', async () => {
    const { mechanic, here } = await workshop();
    const res = await get('/officina', mechanic);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const html = res.body;
    expect(html).toContain('data-prerendered="server"');
    // A link works before the app has started: the tap opens the ticket's page, rendered too.
    expect(html).toContain(`href="/officina/${here}"`);
    const shown = text(html);
    expect(shown).toContain('Il freno fischia in discesa');
    expect(shown).not.toContain('Freno della sede nord');
    const state = stateOf(html);
    expect(state.user.id).toBe(mechanic.id);
    const list = state.queries.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(['interventi', 'list', { stato: 'aperti' }]));
    const api = await ctx.app.inject({ method: 'GET', url: '/api/interventi?stato=aperti', headers: { cookie: mechanic.cookie } });
    expect(list?.state.data).toEqual(api.json());
  });

  it('is a ticket’s page with its report, in the state as GET /api/interventi/{id} answers it', async () => {
    const { mechanic, here } = await workshop();
    const res = await get(`/officina/${here}`, mechanic);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('data-prerendered="server"');
    expect(res.body).toMatch(/<section aria-labelledby="ticket-segnalazione"/);
    const shown = text(res.body);
    expect(shown).toContain('Il freno fischia in discesa');
    expect(shown).toContain('Marta Ruota');
    const ticket = stateOf(res.body).queries.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(['interventi', 'one', here]));
    const api = await ctx.app.inject({ method: 'GET', url: `/api/interventi/${here}`, headers: { cookie: mechanic.cookie } });
    expect(ticket?.state.data).toEqual(api.json());
  });

  it('an admin gets every sede’s tickets rendered', async () => {
    const { there } = await workshop();
    const admin = await person(ctx, { ruolo: 'admin' });
    const shown = text((await get('/officina', admin)).body);
    expect(shown).toContain('Il freno fischia in discesa');
    expect(shown).toContain('Freno della sede nord');
    expect(text((await get(`/officina/${there}`, admin)).body)).toContain('Freno della sede nord');
  });

  it('is the pre-rendered page for someone the router does not let in, another sede’s ticket, an odd id, an anonymous visitor', async () => {
    const { mechanic, reporter, here, there } = await workshop();
    const logged = collectedLogLines.length;
    const cases = [
      // The reporter sees their ticket through the API, but the workshop's screen is not theirs.
      ['/officina', reporter],
      [`/officina/${here}`, reporter],
      [`/officina/${there}`, mechanic],
      ['/officina/999999', mechanic],
      ['/officina/abc', mechanic],
      [`/officina/%3${String(here).slice(-1)}`, mechanic],
      ['/officina', null],
      [`/officina/${here}`, null],
    ] as const;
    for (const [url, who] of cases) {
      const res = await get(url, who);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(page('loading'));
      expect(res.body, url).not.toContain('Freno della sede nord');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect(collectedLogLines.slice(logged).filter((line) => line.includes('render sul server non riuscito'))).toEqual([]);
  });
});

describe('a page’s gzip after its kept head (decision 073)', () => {
  it('decodes to the head then the answer, whether the head is shorter or longer than deflate’s 32 KB window', () => {
    const styles = (n: number) => Array.from({ length: n }, (_, i) => `.c${i % 997}{margin:${i % 13}px}`).join('');
    for (const head of [Buffer.from('<head>'), Buffer.from(styles(200)), Buffer.from(styles(9000))]) {
      expect(head.length < 32 * 1024 || head.length > 64 * 1024).toBe(true);
      // The answer repeats the head's text (its class names), so it leans on the dictionary.
      const rest = Buffer.from(`</head><body>${head.subarray(-5000).toString()}<p>${'é'.repeat(300)}</p></body>`);
      const kept = keptHead(head);
      expect(kept.gzip).not.toBeNull();
      const out = gzipAfterHead(kept, rest)!;
      expect(zlib.gunzipSync(out).equals(Buffer.concat([head, rest]))).toBe(true);
      // What the answer adds over the kept head (and gzip's 18 bytes) is smaller than deflating its
      // own part alone: the head's last 32 KB are its dictionary.
      if (head.length > 1000) expect(out.length - 18 - kept.gzip!.deflated.length).toBeLessThan(zlib.deflateRawSync(rest).length / 2);
    }
  });
});

describe('the built page around the render', () => {
  it('is cut at #root, whatever its pre-rendered screen holds, and refilled with the render and the state after it', () => {
    const template = splitTemplate(page('loading'));
    expect(template).not.toBeNull();
    const html = fillTemplate(template!, { html: '<div><p>Ciao</p></div>', state: '{"a":1}' });
    expect(html).toContain('<div id="root" data-prerendered="server"><div><p>Ciao</p></div></div>');
    expect(html).toContain(`</div><script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">{"a":1}</script>\n</body></html>`);
    expect(html).not.toContain('api/current-user');
    expect(splitTemplate('<html><body><div id="app"></div></body></html>')).toBeNull();
    expect(splitTemplate('<div id="root" data-prerendered="loading"><div>')).toBeNull();
  });

  it('asks in its head for the lock code of each box that waits for one (decision 067), by the booking’s id only', () => {
    const template = splitTemplate(page('loading'));
    const box = (id: number) => `<div class="group/code contents" data-early-code="${id}" data-state="pending"><span data-early-digits="">····</span></div>`;
    const html = fillTemplate(template!, { html: `<div>${box(41)}${box(7)}${box(41)}</div>`, state: '{}' });
    const head = html.slice(0, html.indexOf('</head>'));
    const preloads = [...head.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" crossorigin="use-credentials">/g)].map((m) => m[1]);
    expect(preloads).toEqual(['/api/prenotazioni/41/codice', '/api/prenotazioni/7/codice']);
    // No box, no question.
    const plain = fillTemplate(template!, { html: '<div><p>Ciao</p></div>', state: '{}' });
    expect(plain).not.toContain('/codice');
  });
});
