import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hash } from '@node-rs/argon2';
import { expect as baseExpect, type APIRequestContext, type BrowserContext, type Page, type Request, type Route } from '@playwright/test';
import { zonedClock, zonedToday } from '../../src/shared/time.js';
import type { BookingDto } from '../../src/shared/schemas/booking.js';
import { sessionFor, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/*
 * The offline app (issue 22), on a phone's width (playwright.config.ts `chromium-offline`):
 * the dashboard opens with no network on the data last synced; `Ritirata` and `Riconsegnata`
 * tapped offline wait on the device and reach the server once the network is back; a refusal
 * is told; logout leaves nothing behind; a new version is announced, and applied on `Aggiorna`.
 *
 * The network is cut per browser context (`context.setOffline`), after the service worker
 * controls the page. Each test registers its own resident and adds its own bike; a ride that
 * can be picked up now is written into the database, as in ride.spec.ts.
 */

const TIME_ZONE = 'Europe/Rome';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OFFLINE_BANNER = "Sei offline: stai vedendo i dati dell'ultimo aggiornamento";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/**
 * A resident with a session, written into the database (registering through the API would
 * meet its per-address limit: the whole suite registers from 127.0.0.1), whose cookie goes
 * into `context`: the test's page and its `page.request` are that person. Their email.
 */
async function resident(context: BrowserContext, baseURL: string | undefined, nome: string, cognome: string): Promise<string> {
  const email = `offline-${unique()}@bicielis.test`;
  const token = randomBytes(32).toString('base64url');
  await withE2eDatabase((db) =>
    db.query(
      `with u as (insert into users (nome, cognome, email, password_hash, is_residente) values ($1, $2, $3, 'x', true) returning id)
       insert into sessions (token_hash, user_id, kind, expires_at) select $4, u.id, 'session', now() + interval '1 day' from u`,
      [nome, cognome, email, createHash('sha256').update(token).digest('hex')],
    ),
  );
  await context.addCookies([{ name: 'bicielis_session', value: token, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
  return email;
}

/** A resident who logs in with a password, through the form (the test's own: no session yet). */
async function residentWithPassword(nome: string, cognome: string): Promise<{ email: string; password: string }> {
  const email = `offline-${unique()}@bicielis.test`;
  const password = `Bici-${unique()}-2026`;
  const passwordHash = await hash(password);
  await withE2eDatabase((db) =>
    db.query(`insert into users (nome, cognome, email, password_hash, is_residente) values ($1, $2, $3, $4, true)`, [nome, cognome, email, passwordHash]),
  );
  return { email, password };
}

/** A bike of its own for one test; its number. */
async function addBike(prefix: string): Promise<string> {
  const numero = `${prefix}${unique()}`.slice(0, 12);
  await withE2eDatabase((db) => db.query(`insert into biciclette (numero, modello) values ($1, 'Gravel Test')`, [numero]));
  return numero;
}

/**
 * An `attiva` booking of `email` on bike `numero` whose bike can be picked up now (it starts
 * 5 minutes from now, the pick-up opens 10 minutes before), optionally already picked up.
 */
async function seedRide(email: string, numero: string, pickedUp: boolean): Promise<number> {
  const startAt = new Date(Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000);
  const start = zonedClock(startAt, TIME_ZONE);
  const [h, m] = start.split(':').map(Number) as [number, number];
  const endMinutes = Math.min(23 * 60 + 59, h * 60 + m + 60);
  const end = `${String(Math.floor(endMinutes / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
  const date = zonedToday(startAt, TIME_ZONE);
  return withE2eDatabase(async (db) => {
    const { rows } = await db.query<{ id: number }>(
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, ritirata_at, created_at, updated_at)
       select u.id, b.id, $3::date, $4, $5,
              ($3 || ' ' || $4)::timestamp at time zone 'Europe/Rome', ($3 || ' ' || $5)::timestamp at time zone 'Europe/Rome',
              'Cortile interno', 'attiva',
              case when $6 then now() - interval '5 minutes' end,
              now() - interval '1 day', now() - interval '1 day'
         from users u, biciclette b
        where u.email = $1 and b.numero = $2
       returning id`,
      [email, numero, date, start, end, pickedUp],
    );
    baseExpect(rows).toHaveLength(1);
    return rows[0]!.id;
  });
}

/** The card of the bike in a list of the dashboard. */
function card(page: Page, list: 'Le tue prenotazioni attive' | 'Prenotazioni passate', numero: string) {
  return page
    .getByRole('region', { name: list })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: `Bici ${numero} · Gravel Test` }) });
}

/** What the device keeps, read from its IndexedDB `bicielis` (never created by this read). */
interface DeviceData {
  utente: boolean;
  cache: boolean;
  azioni: { idAzione: string; tipo: string; oraDispositivo: string; stato: string; messaggio?: string }[];
  mark: boolean;
  pagesCache: boolean;
}

function deviceData(page: Page): Promise<DeviceData> {
  return page.evaluate(async () => {
    const mark = localStorage.getItem('bicielis:dati-offline') !== null;
    const pagesCache = (await caches.keys()).includes('bicielis-pagine');
    if (!(await indexedDB.databases()).some((d) => d.name === 'bicielis')) return { utente: false, cache: false, azioni: [], mark, pagesCache };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('bicielis');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const read = <T,>(store: string, what: (s: IDBObjectStore) => IDBRequest) =>
      new Promise<T>((resolve, reject) => {
        const request = what(db.transaction(store, 'readonly').objectStore(store));
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error);
      });
    try {
      const keys = await read<IDBValidKey[]>('dati', (s) => s.getAllKeys());
      const azioni = await read<DeviceData['azioni']>('azioni', (s) => s.getAll());
      return { utente: keys.includes('utente'), cache: keys.includes('cache'), azioni, mark, pagesCache };
    } finally {
      db.close();
    }
  });
}

/** The service worker controls the page: from now on the app shell comes from it. */
async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * The dashboard of the context's user, online, with `numero`'s booking on it, the service worker
 * in control and the user's data kept on the device: ready to lose the network.
 */
async function openDashboardReadyForOffline(page: Page, numero: string): Promise<void> {
  await page.goto('/dashboard');
  await expect(card(page, 'Le tue prenotazioni attive', numero)).toBeVisible();
  await serviceWorkerInControl(page);
  await expect.poll(async () => {
    const data = await deviceData(page);
    return data.utente && data.cache && data.mark;
  }).toBe(true);
}

/** The line a page painted from the device's copy shows until the server has answered (decision 028). */
function refreshLine(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Aggiornamento in corso…' });
}

/**
 * The dashboard opened twice online: the second open goes through the service worker, which
 * keeps the server's page as the device's copy. From then on a repeat open paints that copy.
 */
async function openDashboardWithDeviceCopy(page: Page, numero: string): Promise<void> {
  await openDashboardReadyForOffline(page, numero);
  await page.reload();
  await expect(card(page, 'Le tue prenotazioni attive', numero)).toBeVisible();
  await expect.poll(async () => (await deviceData(page)).pagesCache).toBe(true);
  await expect(refreshLine(page)).toHaveCount(0);
}

/**
 * Holds the page's own request for `/dashboard`, `/admin` or `/officina` (the refresh behind a copy: not a navigation)
 * until `release()`; `asked` resolves once it was made. A navigation to /dashboard that reached
 * the network would be held too, and the page would never paint.
 */
async function holdPageRefresh(context: BrowserContext, pathname: '/dashboard' | '/admin' | '/officina' = '/dashboard') {
  const address = new RegExp(`${pathname}(\\?.*)?$`);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked!: () => void;
  const wasAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  let continued: Promise<void> = Promise.resolve();
  let navigations = 0;
  const handler = (route: Route) => {
    // The worker's own request for a navigation (the page asked of the server first), not the page's refresh.
    if (route.request().serviceWorker() !== null) navigations++;
    asked();
    continued = released.then(() => route.continue());
    return continued;
  };
  await context.route(address, handler);
  return {
    asked: wasAsked,
    /** How many held requests the service worker made: none when it painted the page from the device's copy. */
    navigations: () => navigations,
    release: async () => {
      release();
      await continued;
      await context.unroute(address, handler);
    },
  };
}

/** The ride steps the browser sends (from the page or from the service worker), with their bodies. */
function rideRequests(context: BrowserContext): { url: string; body: Record<string, unknown>; at: number }[] {
  const seen: { url: string; body: Record<string, unknown>; at: number }[] = [];
  const record = (request: Request) => {
    if (request.method() !== 'POST' || !/\/api\/prenotazioni\/\d+\/(ritiro|riconsegna)$/.test(request.url())) return;
    seen.push({ url: new URL(request.url()).pathname, body: (request.postDataJSON() ?? {}) as Record<string, unknown>, at: Date.now() });
  };
  context.on('request', record);
  return seen;
}

async function ownBooking(request: APIRequestContext, id: number): Promise<BookingDto | undefined> {
  const res = await request.get('/api/prenotazioni/user');
  baseExpect(res.ok()).toBe(true);
  return ((await res.json()) as BookingDto[]).find((b) => b.id === id);
}

/**
 * The e2e server seen through a site of its own (another origin, so another service worker
 * and other storage than every other test's), whose `deploy()` is a new release: from then on
 * its /sw.js is the built worker with one more line, as a server would send a new version.
 * Playwright's routing does not see the browser's update checks of a worker's script.
 */
async function startDeploySite(target: string) {
  let release: string | null = null;
  const served: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const isWorker = (req.url ?? '').split('?')[0] === '/sw.js';
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          // Plain bodies (the proxy may append to one); the worker always whole, never a 304.
          if (name === 'host' || name === 'accept-encoding' || (isWorker && name.startsWith('if-'))) continue;
          if (typeof value === 'string') headers.set(name, value);
        }
        const upstream = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method,
          headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
          redirect: 'manual',
        });
        let body = Buffer.from(await upstream.arrayBuffer());
        if (isWorker && release !== null) {
          body = Buffer.concat([body, Buffer.from(`\n// ${release}\n`)]);
          served.push('nuova');
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'etag', 'last-modified'].includes(name)) return;
          out[name] = value;
        });
        res.writeHead(upstream.status, out);
        res.end(body);
      })().catch(() => {
        res.writeHead(502);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    deploy: () => {
      release = `nuova versione ${unique()}`;
    },
    /** Which versions of the worker were served since the deploy (each update check asks for it). */
    workerVersionsServed: () => [...new Set(served)],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe('the app offline', () => {
  test('opens on the bookings last synced, says it is offline and since when, and which screens need the network', async ({ page, context, baseURL }) => {
    const numero = await addBike('O');
    const email = await resident(context, baseURL, 'Olga', 'Cantina');
    await seedRide(email, numero, false);
    const before = Date.now();
    await openDashboardReadyForOffline(page, numero);
    // Online, no banner.
    await expect(page.getByText(OFFLINE_BANNER)).toHaveCount(0);

    const offlineAt = Date.now();
    await context.setOffline(true);
    await page.reload();
    const banner = page.getByRole('status').filter({ hasText: OFFLINE_BANNER });
    await expect(banner).toBeVisible();
    const lastSync = banner.getByText(/^Ultimo aggiornamento alle \d\d:\d\d$/);
    await expect(lastSync).toBeVisible();
    // The time of a sync made while the page was open online, on the college's clock.
    const shown = (await lastSync.textContent())!.slice(-5);
    const minutesOnline = new Set<string>();
    for (let t = before - 60_000; t <= offlineAt + 60_000; t += 30_000) minutesOnline.add(zonedClock(new Date(t), TIME_ZONE));
    expect([...minutesOnline]).toContain(shown);
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await expect(ride).toBeVisible();
    await expect(ride.getByText('Da ritirare', { exact: true })).toBeVisible();
    await expect(ride.getByText('Cortile interno')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Benvenuto, Olga Cantina');
    // Booking needs the server: said, not a spinner.
    await expect(page.getByText('Per prenotare serve la connessione')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nuova prenotazione' })).toBeDisabled();
    // What only the server can do is not offered offline.
    await expect(ride.getByRole('button', { name: 'Elimina' })).toHaveCount(0);
    await expect(ride.getByRole('link', { name: 'Aggiungi al calendario' })).toHaveCount(0);
    await expectNoSidewaysScroll(page, 'the offline dashboard');
    await expectNoSeriousA11yViolations(page);

    // A screen that needs the server says so.
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profilo' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sei offline' })).toBeVisible();
    await expect(page.getByText('Per vedere e modificare il profilo serve la connessione.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Torna alla dashboard' }).click();
    await expect(card(page, 'Le tue prenotazioni attive', numero)).toBeVisible();

    // Back online: the banner goes, the section reads the rules again (one active booking: no second one).
    await context.setOffline(false);
    await expect(page.getByText(OFFLINE_BANNER)).toHaveCount(0);
    await expect(page.getByText('Per prenotare serve la connessione')).toHaveCount(0);
    await expect(page.getByText('Hai già una prenotazione attiva')).toBeVisible();
    await expect(card(page, 'Le tue prenotazioni attive', numero).getByRole('button', { name: 'Elimina' })).toBeVisible();
  });

  test('a pick-up tapped offline waits on the device, then reaches the server with its id and time', async ({ page, context, baseURL }) => {
    const numero = await addBike('P');
    const email = await resident(context, baseURL, 'Piero', 'Scantinato');
    const id = await seedRide(email, numero, false);
    await openDashboardReadyForOffline(page, numero);
    const sent = rideRequests(context);

    await context.setOffline(true);
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await ride.getByRole('button', { name: 'Ritirata' }).click();
    await expect(notice(page, 'Ritiro salvato su questo dispositivo')).toBeVisible();
    await expect(ride.getByText('In attesa di invio')).toBeVisible();
    await expect(ride.getByText(/Ritiro segnato alle \d\d:\d\d/)).toBeVisible();
    // The ride goes on offline: the return is offered at once.
    await expect(ride.getByRole('button', { name: 'Riconsegnata' })).toBeVisible();
    await expect.poll(async () => (await deviceData(page)).azioni.length).toBe(1);
    const [queued] = (await deviceData(page)).azioni;
    expect(queued).toMatchObject({ tipo: 'ritiro', stato: 'in_attesa', idAzione: expect.stringMatching(UUID) });
    expect((await ownBooking(page.request, id))?.ritirataAt).toBeNull();
    await expectNoSeriousA11yViolations(page);

    await context.setOffline(false);
    await expect(ride.getByText('In attesa di invio')).toHaveCount(0);
    await expect(ride.getByText('In corso', { exact: true })).toBeVisible();
    await expect.poll(async () => (await ownBooking(page.request, id))?.ritirataAt ?? null).not.toBeNull();
    // Sent (by the page, the service worker, or both) always as the tap: its id and its time.
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const request of sent) {
      expect(request).toMatchObject({
        url: `/api/prenotazioni/${id}/ritiro`,
        body: { idAzione: queued!.idAzione, oraDispositivo: queued!.oraDispositivo },
      });
    }
    await expect.poll(async () => (await deviceData(page)).azioni).toEqual([]);
  });

  test('the server records the pick-up at the time of the tap, not of the sync', async ({ page, context, baseURL }) => {
    const numero = await addBike('T');
    const email = await resident(context, baseURL, 'Tina', 'Orario');
    const id = await seedRide(email, numero, false);
    await openDashboardReadyForOffline(page, numero);
    const sent = rideRequests(context);

    await context.setOffline(true);
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await ride.getByRole('button', { name: 'Ritirata' }).click();
    await expect(ride.getByText('In attesa di invio')).toBeVisible();
    const tappedAt = Date.parse((await deviceData(page)).azioni[0]!.oraDispositivo);
    // The subject of this test is the gap between the tap and the sync: it must be longer
    // than the tolerance below, whatever the machine's speed.
    await expect.poll(() => Date.now() - tappedAt, { intervals: [500] }).toBeGreaterThan(3_000);

    await context.setOffline(false);
    await expect(ride.getByText('In attesa di invio')).toHaveCount(0);
    await expect.poll(async () => (await ownBooking(page.request, id))?.ritirataAt ?? null).not.toBeNull();
    const ritirataAt = Date.parse((await ownBooking(page.request, id))!.ritirataAt!);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    const syncedAt = Math.min(...sent.map((r) => r.at));
    expect(syncedAt - tappedAt).toBeGreaterThan(3_000);
    expect(Math.abs(ritirataAt - tappedAt)).toBeLessThanOrEqual(1_000);
    expect(ritirataAt).toBeLessThan(syncedAt);
  });

  test('a return with a damage report tapped offline is applied once the network is back, once', async ({ page, context, baseURL }) => {
    const numero = await addBike('R');
    const email = await resident(context, baseURL, 'Rita', 'Garage');
    const id = await seedRide(email, numero, true);
    await openDashboardReadyForOffline(page, numero);
    const sent = rideRequests(context);
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await expect(ride.getByText('In corso', { exact: true })).toBeVisible();

    await context.setOffline(true);
    await ride.getByRole('button', { name: 'Riconsegnata' }).click();
    const dialog = page.getByRole('dialog', { name: 'Riconsegna della bicicletta' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('switch', { name: 'Segnala un danno' }).check();
    await dialog.getByLabel('Tipo di danno').selectOption({ label: 'Freni' });
    const text = `Il freno anteriore fischia ${unique()}`;
    await dialog.getByLabel('Descrizione del danno').fill(text);
    await dialog.getByRole('button', { name: 'Conferma riconsegna' }).click();
    await expect(dialog).toBeHidden();
    await expect(notice(page, 'Riconsegna salvata su questo dispositivo')).toBeVisible();
    await expect(ride.getByText('In attesa di invio')).toBeVisible();
    await expect(ride.getByText(/Riconsegna segnata alle \d\d:\d\d/)).toBeVisible();
    await expect(ride.getByRole('button', { name: 'Riconsegnata' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await context.setOffline(false);
    const returned = card(page, 'Prenotazioni passate', numero);
    await expect(returned.getByText(/^Riconsegnata alle \d\d:\d\d$/)).toBeVisible();
    await expect(card(page, 'Le tue prenotazioni attive', numero)).toHaveCount(0);
    await expect.poll(async () => (await ownBooking(page.request, id))?.stato).toBe('completata');
    expect((await ownBooking(page.request, id))?.danno).toEqual({ categoria: 'freni', descrizione: text });
    // Applied once: one report, no refusal shown, every request the same action.
    const reports = await withE2eDatabase((db) => db.query('select count(*)::int as n from interventi where prenotazione_id = $1', [id]));
    expect(reports.rows[0]).toEqual({ n: 1 });
    await expect(page.getByText('Riconsegna non registrata', { exact: false })).toHaveCount(0);
    expect(new Set(sent.map((r) => r.body.idAzione)).size).toBe(1);
    expect(sent[0]).toMatchObject({
      url: `/api/prenotazioni/${id}/riconsegna`,
      body: { idAzione: expect.stringMatching(UUID), oraDispositivo: expect.any(String), danno: { categoria: 'freni', descrizione: text } },
    });
    await expect.poll(async () => (await deviceData(page)).azioni).toEqual([]);
  });

  test('the lock code stays readable offline; a pick-up and a return made offline give the lock the code drawn on the device', async ({ page, context, baseURL }) => {
    const numero = await addBike('K');
    await withE2eDatabase((db) =>
      db.query(`insert into lucchetti (bici_id, tipo, codice) select id, 'combinazione', '6284' from biciclette where numero = $1`, [numero]),
    );
    const email = await resident(context, baseURL, 'Katia', 'Lucchetto');
    const id = await seedRide(email, numero, false);
    await openDashboardReadyForOffline(page, numero);
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await expect(ride.getByText('Codice del lucchetto: 6284')).toBeVisible();
    const kept = () =>
      page.evaluate(async (key) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open('bicielis');
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        try {
          return await new Promise<unknown>((resolve, reject) => {
            const request = db.transaction('dati', 'readonly').objectStore('dati').get(key);
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
        } finally {
          db.close();
        }
      }, `codice:${id}`);
    await expect.poll(async () => String(await kept())).toContain('6284');

    // No network at the rack: the code is still there, said to come from the device.
    await context.setOffline(true);
    await page.reload();
    await expect(ride.getByText('Codice del lucchetto: 6284')).toBeVisible();
    await expect(ride.getByText('Codice salvato su questo dispositivo')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Picked up and returned offline: the new code was drawn on the device, never the old one.
    await ride.getByRole('button', { name: 'Ritirata' }).click();
    await expect(notice(page, 'Ritiro salvato su questo dispositivo')).toBeVisible();
    await ride.getByRole('button', { name: 'Riconsegnata' }).click();
    await page.getByRole('dialog', { name: 'Riconsegna della bicicletta' }).getByRole('button', { name: 'Conferma riconsegna' }).click();
    const done = page.getByRole('dialog', { name: 'Bicicletta riconsegnata' });
    const message = done.getByText(/^Chiudi il lucchetto con il nuovo codice \d{4}$/);
    await expect(message).toBeVisible();
    const newCode = /(\d{4})$/.exec((await message.textContent()) ?? '')![1]!;
    expect(newCode).not.toBe('6284');
    await done.getByRole('button', { name: 'Fatto' }).click();
    // Shown, the ride's codes leave the device.
    await expect.poll(kept).toBeUndefined();

    // Back online, both steps reach the server and the lock gets the code the rider set.
    await context.setOffline(false);
    await expect.poll(async () => (await ownBooking(page.request, id))?.stato).toBe('completata');
    const lock = await withE2eDatabase((db) =>
      db.query<{ codice: string }>(`select l.codice from lucchetti l join biciclette b on b.id = l.bici_id where b.numero = $1`, [numero]),
    );
    expect(lock.rows[0]?.codice).toBe(newCode);
  });

  test('a step the server refuses once it arrives is told in plain Italian, and leaves only when read', async ({ page, context, baseURL }) => {
    const numero = await addBike('N');
    const email = await resident(context, baseURL, 'Nino', 'Tardi');
    const id = await seedRide(email, numero, false);
    await openDashboardReadyForOffline(page, numero);

    await context.setOffline(true);
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await ride.getByRole('button', { name: 'Ritirata' }).click();
    await expect(ride.getByText('In attesa di invio')).toBeVisible();
    // Meanwhile the booking was released as a no-show.
    await withE2eDatabase((db) =>
      db.query(`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'mancato_ritiro', updated_at = now() where id = $1`, [id]),
    );

    await context.setOffline(false);
    const refusal = page.getByRole('alert').filter({ hasText: 'Ritiro non registrato: La prenotazione è stata annullata per mancato ritiro prima che il ritiro arrivasse al server' });
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText(`Bici ${numero}`);
    await expect(card(page, 'Le tue prenotazioni attive', numero)).toHaveCount(0);
    await expect(card(page, 'Prenotazioni passate', numero).getByText('Non ritirata')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // Kept until read, even across a reload.
    await page.reload();
    await expect(refusal).toBeVisible();
    expect((await deviceData(page)).azioni).toEqual([expect.objectContaining({ stato: 'rifiutata', messaggio: 'La prenotazione è stata annullata per mancato ritiro prima che il ritiro arrivasse al server' })]);
    await refusal.getByRole('button', { name: 'Ho capito' }).click();
    await expect(refusal).toHaveCount(0);
    await expect.poll(async () => (await deviceData(page)).azioni).toEqual([]);
  });

  test('logout leaves nothing of the user on the device: offline, the app then shows the login', async ({ page, context, baseURL }) => {
    const numero = await addBike('L');
    const email = await resident(context, baseURL, 'Lara', 'Uscita');
    await seedRide(email, numero, false);
    await openDashboardReadyForOffline(page, numero);
    // Opened again under the service worker: the page is kept for offline use too.
    await page.reload();
    await expect(card(page, 'Le tue prenotazioni attive', numero)).toBeVisible();
    await expect.poll(async () => (await deviceData(page)).pagesCache).toBe(true);

    await page.getByRole('button', { name: 'Esci' }).click();
    await expect(page).toHaveURL('/login');
    await expect(notice(page, 'Arrivederci!')).toBeVisible();
    expect(await deviceData(page)).toEqual({ utente: false, cache: false, azioni: [], mark: false, pagesCache: false });

    await context.setOffline(true);
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: `Bici ${numero} · Gravel Test` })).toHaveCount(0);
    await expect(page.getByText(OFFLINE_BANNER)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('a new version is announced, and applied only on Aggiorna', async ({ page, baseURL }) => {
    const site = await startDeploySite(baseURL!);
    try {
      await page.goto(`${site.url}/login`);
      await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
      await serviceWorkerInControl(page);
      // The first install is no "new version".
      await expect(page.getByText('Nuova versione disponibile')).toHaveCount(0);

      site.deploy();
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      const prompt = page.getByRole('status').filter({ hasText: 'Nuova versione disponibile' });
      await expect(prompt).toBeVisible();
      // Not applied without the person's consent: the new worker waits, the old one serves.
      await expect.poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(true);
      await expectNoSeriousA11yViolations(page);

      // The first interaction loads the toaster's chunk: done before, so that the reload cuts no import short.
      await page.getByLabel('Email').focus();
      await expect(page.getByRole('region', { name: /^Notifiche/ })).toBeAttached();
      await page.evaluate(() => {
        (window as { primaDellAggiornamento?: boolean }).primaDellAggiornamento = true;
      });
      // The page reloads under the new worker.
      const reloaded = page.waitForEvent('load');
      await page.getByRole('button', { name: 'Aggiorna' }).click();
      await reloaded;
      expect(await page.evaluate(() => (window as { primaDellAggiornamento?: boolean }).primaDellAggiornamento ?? false)).toBe(false);
      await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
      await expect(page.getByText('Nuova versione disponibile')).toHaveCount(0);
      const state = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { waiting: Boolean(registration?.waiting), controlled: navigator.serviceWorker.controller?.state };
      });
      expect(state).toEqual({ waiting: false, controlled: 'activated' });
      expect(site.workerVersionsServed()).toEqual(['nuova']);
    } finally {
      // Nothing of the page may still be talking to the site when it closes.
      await page.close();
      await site.close();
    }
  });
});

test.describe('a repeat open', () => {
  test('paints the bookings from the device at once, then the server’s state replaces them in place', async ({ page, context, baseURL }) => {
    const numero = await addBike('C');
    const email = await resident(context, baseURL, 'Carla', 'Copia');
    const id = await seedRide(email, numero, false);
    await openDashboardWithDeviceCopy(page, numero);

    // Nothing changed meanwhile: the server's answer replaces the copy's, and nothing moves.
    let refresh = await holdPageRefresh(context);
    await page.goto('/dashboard');
    const ride = card(page, 'Le tue prenotazioni attive', numero);
    await expect(ride).toBeVisible();
    await refresh.asked;
    const line = refreshLine(page);
    await expect(line).toBeVisible();
    await expect(line.getByText(/^Ultimo aggiornamento alle \d\d:\d\d$/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // The elements on screen now, and any layout shift from now on.
    await page.evaluate(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.shifts += (entry as unknown as { value: number }).value;
      }).observe({ type: 'layout-shift' });
      for (const h of document.querySelectorAll('#root h1, #root li h3')) (h as HTMLElement).dataset.e2eCopia = '';
    });
    await refresh.release();
    await expect(line).toHaveCount(0);
    await expect(ride.getByText('Da ritirare', { exact: true })).toBeVisible();
    // The same elements (not a new render of the page), and nothing moved.
    expect(await page.evaluate(() => document.querySelectorAll('#root [data-e2e-copia]').length)).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);

    // Cancelled from another device: the copy still has it; the server's answer takes it away.
    const cancelled = await page.request.delete(`/api/prenotazioni/${id}`, { headers: { origin: baseURL! } });
    expect(cancelled.ok()).toBe(true);
    refresh = await holdPageRefresh(context);
    await page.goto('/dashboard');
    await expect(ride).toBeVisible();
    await refresh.asked;
    await expect(refreshLine(page)).toBeVisible();
    await expect(ride.getByRole('button', { name: 'Elimina' })).toBeVisible();
    await refresh.release();
    await expect(ride).toHaveCount(0);
    await expect(refreshLine(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Benvenuto, Carla Copia');

    // The answer is the next copy: the next open paints the booking cancelled.
    refresh = await holdPageRefresh(context);
    await page.goto('/dashboard');
    await refresh.asked;
    await expect(refreshLine(page)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Benvenuto, Carla Copia');
    await expect(ride).toHaveCount(0);
    await refresh.release();
    await expect(refreshLine(page)).toHaveCount(0);
  });

  test('of /admin paints the admin’s page from the device at once, then the server’s figures replace it in place (decision 047)', async ({ page, context, baseURL }) => {
    const token = await sessionFor('admin@bicielis.demo');
    await context.addCookies([{ name: 'bicielis_session', value: token, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
    const users = page.locator('section[aria-labelledby="riepilogo-admin"] dl > div').filter({ hasText: 'Utenti totali' }).locator('dd');
    const count = async () => Number((await users.innerText()).replace(/\D+/g, ''));

    // Opened twice online: the second open goes through the worker, which keeps the page.
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
    await serviceWorkerInControl(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('bicielis-pagine')).keys()).some((r) => new URL(r.url).pathname === '/admin'))).toBe(true);
    await expect(refreshLine(page)).toHaveCount(0);
    await expect(users).toContainText(/\d/);
    const before = await count();

    // Someone registers meanwhile: the copy still counts them out, the server's answer in.
    await withE2eDatabase((db) =>
      db.query(`insert into users (nome, cognome, email, password_hash, is_residente) values ('Nuova', 'Iscritta', $1, 'x', false)`, [`offline-${unique()}@bicielis.test`]),
    );
    const refresh = await holdPageRefresh(context, '/admin');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
    await refresh.asked;
    await expect(refreshLine(page)).toBeVisible();
    // Painted from the copy at once: the only request held is the page's own refresh.
    expect(refresh.navigations()).toBe(0);
    expect(await count()).toBe(before);
    // The first tap works on the copy: the tab `Biciclette` shows its panel.
    await page.getByRole('tab', { name: 'Biciclette' }).click();
    await expect(page.getByRole('tabpanel').getByRole('region', { name: 'Biciclette' })).toBeVisible();
    await page.evaluate(() => {
      for (const h of document.querySelectorAll('#root h1')) (h as HTMLElement).dataset.e2eCopia = '';
    });
    await refresh.release();
    await expect(refreshLine(page)).toHaveCount(0);
    await expect.poll(count).toBe(before + 1);
    // The same page, updated in place (not rendered again), the tab still chosen.
    expect(await page.evaluate(() => document.querySelectorAll('#root h1[data-e2e-copia]').length)).toBe(1);
    await expect(page.getByRole('tab', { name: 'Biciclette' })).toHaveAttribute('aria-selected', 'true');
    await expectNoSeriousA11yViolations(page);
  });

  test('of /officina paints the workshop’s list from the device at once, then the server’s list replaces it in place (decision 070)', async ({ page, context, baseURL }) => {
    const token = await sessionFor('officina@bicielis.demo');
    await context.addCookies([{ name: 'bicielis_session', value: token, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
    const heading = page.getByRole('heading', { level: 1, name: 'Officina' });

    // Opened twice online: the second open goes through the worker, which keeps the page.
    await page.goto('/officina');
    await expect(heading).toBeVisible();
    await serviceWorkerInControl(page);
    await page.reload();
    await expect(heading).toBeVisible();
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('bicielis-pagine')).keys()).some((r) => new URL(r.url).pathname === '/officina'))).toBe(true);
    await expect(refreshLine(page)).toHaveCount(0);

    // A bike is reported meanwhile: the copy does not have it, the server's answer does.
    const numero = await addBike('O');
    await withE2eDatabase((db) =>
      db.query(`insert into interventi (bici_id, origine, categoria, descrizione) select id, 'staff', 'luci', 'Fanale spento' from biciclette where numero = $1`, [numero]),
    );
    const card = page.getByRole('link', { name: `Bici n. ${numero}: Luci, Aperto` });
    const refresh = await holdPageRefresh(context, '/officina');
    await page.goto('/officina');
    await expect(heading).toBeVisible();
    await refresh.asked;
    await expect(refreshLine(page)).toBeVisible();
    // Painted from the copy at once: the only request held is the page's own refresh.
    expect(refresh.navigations()).toBe(0);
    await expect(card).toHaveCount(0);
    await page.evaluate(() => {
      for (const h of document.querySelectorAll('#root h1')) (h as HTMLElement).dataset.e2eCopia = '';
    });
    await refresh.release();
    await expect(refreshLine(page)).toHaveCount(0);
    await expect(card).toBeVisible();
    // The same page, updated in place (not rendered again).
    expect(await page.evaluate(() => document.querySelectorAll('#root h1[data-e2e-copia]').length)).toBe(1);
    await expectNoSeriousA11yViolations(page);
  });

  test('after logout and another person’s login, never shows the first person’s page', async ({ page, context, baseURL }) => {
    const numeroA = await addBike('A');
    const emailA = await resident(context, baseURL, 'Anna', 'Prima');
    await seedRide(emailA, numeroA, false);
    await openDashboardWithDeviceCopy(page, numeroA);
    // From here on, any document showing Anna's bike is recorded, across navigations.
    await page.addInitScript((bike) => {
      const seen = () => {
        if (document.body?.textContent?.includes(bike)) sessionStorage.setItem('e2e-visto-a', '1');
      };
      new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true });
    }, `Bici ${numeroA}`);
    const sawAnna = () => page.evaluate(() => sessionStorage.getItem('e2e-visto-a') !== null);

    await page.getByRole('button', { name: 'Esci' }).click();
    await expect(page).toHaveURL('/login');
    await expect(notice(page, 'Arrivederci!')).toBeVisible();

    // Logged out: /dashboard is the login, online as offline.
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    expect(await sawAnna()).toBe(false);

    const bruno = await residentWithPassword('Bruno', 'Secondo');
    const numeroB = await addBike('B');
    await seedRide(bruno.email, numeroB, false);
    await loginViaForm(page, bruno);
    await expect(page).toHaveURL('/dashboard');
    await expect(card(page, 'Le tue prenotazioni attive', numeroB)).toBeVisible();
    // Opened again, and again (the second time from Bruno's own copy): Bruno's, never Anna's.
    await page.goto('/dashboard');
    await expect(card(page, 'Le tue prenotazioni attive', numeroB)).toBeVisible();
    await expect(refreshLine(page)).toHaveCount(0);
    await expect.poll(async () => (await deviceData(page)).pagesCache).toBe(true);
    await page.goto('/dashboard');
    await expect(card(page, 'Le tue prenotazioni attive', numeroB)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Benvenuto, Bruno Secondo');
    await expect(refreshLine(page)).toHaveCount(0);
    expect(await sawAnna()).toBe(false);
  });

  test('a session ended elsewhere: the server refuses, and the copy gives way to the login', async ({ page, context, baseURL }) => {
    const numero = await addBike('S');
    const email = await resident(context, baseURL, 'Sara', 'Scaduta');
    await seedRide(email, numero, false);
    await openDashboardWithDeviceCopy(page, numero);
    // The session ends on the server (another device changed the password, say), not here.
    await withE2eDatabase((db) => db.query(`delete from sessions where user_id = (select id from users where email = $1)`, [email]));

    const refresh = await holdPageRefresh(context);
    await page.goto('/dashboard');
    await refresh.asked;
    // The device's own last copy, said to be one; whatever is asked of the server is refused.
    await expect(refreshLine(page)).toBeVisible();
    expect(await page.evaluate(async () => (await fetch('/api/prenotazioni/user')).status)).toBe(401);
    await refresh.release();
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expect(card(page, 'Le tue prenotazioni attive', numero)).toHaveCount(0);
    await expect(refreshLine(page)).toHaveCount(0);
    await expect.poll(() => deviceData(page)).toEqual({ utente: false, cache: false, azioni: [], mark: false, pagesCache: false });

    // Opened again: the server's login, nothing of Sara.
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: `Bici ${numero} · Gravel Test` })).toHaveCount(0);
  });
});
