import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { openDays, withE2eDatabase } from './database';
import { expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, notice, test } from './fixtures';

/*
 * The waitlist (issue 21) at 375 px: a user waits for a window with no bike free, another
 * cancels, the first sees the offer first on the dashboard and books it; another user
 * declines an offer and leaves a line. Each test registers its own people and fills its own
 * window (every bike taken at 06:00–06:30 of a day nobody else books: the people filling it
 * are written into the database); the spec runs after the others, alone (playwright.config.ts),
 * so no bike added by another spec can free the window meanwhile.
 */

const TIME_ZONE = 'Europe/Rome';
const PHONE = { width: 375, height: 812 };
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
/** `12/12` as the offer's sentence writes a date. */
const dayMonth = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

test.use({ viewport: PHONE });

interface Person {
  email: string;
  context: BrowserContext;
}

/**
 * A resident with a session, written into the database (registering through the API would
 * meet its per-address limit: the whole suite registers from 127.0.0.1), in a phone-sized
 * context of their own whose cookie is that session.
 */
async function resident(browser: Browser, baseURL: string | undefined, nome: string): Promise<Person> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, locale: 'it-IT', timezoneId: TIME_ZONE });
  const email = `attesa-${unique()}@bicielis.test`;
  const token = randomBytes(32).toString('base64url');
  await withE2eDatabase((db) =>
    db.query(
      `with u as (insert into users (nome, cognome, email, password_hash, is_residente) values ($1, 'Attesa', $2, 'x', true) returning id)
       insert into sessions (token_hash, user_id, kind, expires_at) select $3, u.id, 'session', now() + interval '1 day' from u`,
      [nome, email, createHash('sha256').update(token).digest('hex')],
    ),
  );
  await context.addCookies([{ name: 'bicielis_session', value: token, url: baseURL!, httpOnly: true, sameSite: 'Lax' }]);
  return { email, context };
}

/**
 * Every bike taken at 06:00–06:30 on `date`: one booking per bike, by people written into
 * the database, except the first bookable bike, booked by `owner` (when given). Returns the
 * owner's booking id.
 */
async function fillWindow(date: string, owner?: string): Promise<number | null> {
  return withE2eDatabase(async (db) => {
    const tag = unique();
    const { rows } = await db.query<{ id: number; email: string }>(
      `with bikes as (
         -- The owner's bike (n = 1) is one an offer can give: bookable, no ride in ritardo on
         -- it. Specs running beside this one may leave a bike in maintenance or out on a ride.
         select b.id, row_number() over (
                  order by (b.stato in ('disponibile', 'prenotata')
                            and not exists (select 1 from prenotazioni r where r.bici_id = b.id and r.stato = 'attiva'
                                               and r.ritirata_at is not null)) desc, b.id) as n
           from biciclette b
       ), holders as (
         insert into users (nome, cognome, email, password_hash, is_residente)
         select 'Pieno', 'N' || n, 'pieno-' || $2 || '-' || n || '@bicielis.test', 'x', true from bikes where n > 1 or $3::text is null
         returning id, email
       ), people as (
         select h.id as uid, bikes.id as bid from holders h join bikes on h.email = 'pieno-' || $2 || '-' || bikes.n || '@bicielis.test'
         union all
         select u.id, bikes.id from users u, bikes where u.email = $3 and bikes.n = 1
       )
       insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato)
       select uid, bid, $1::date, '06:00', '06:30', ($1 || ' 06:00')::timestamp at time zone 'Europe/Rome',
              ($1 || ' 06:30')::timestamp at time zone 'Europe/Rome', 'Lista di prova', 'attiva' from people
       on conflict do nothing
       returning id, (select email from users where id = user_id) as email`,
      [date, tag, owner ?? null],
    );
    return rows.find((r) => r.email === owner)?.id ?? null;
  });
}

async function openDashboard(person: Person): Promise<Page> {
  const page = await person.context.newPage();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /^Benvenuto/ })).toBeVisible();
  return page;
}

/** The form on `date`, 06:00–06:30: no bike is free there. */
async function chooseFullWindow(page: Page, date: string) {
  await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
  await page.getByLabel('Data', { exact: true }).fill(date);
  await page.getByLabel('Ora di inizio').fill('06:00');
  await page.getByLabel('Ora di fine').fill('06:30');
  await expect(page.getByText('Nessuna bicicletta disponibile in questa fascia oraria.')).toBeVisible();
}

async function cancelThroughApi(request: APIRequestContext, id: number) {
  const res = await request.delete(`/api/prenotazioni/${id}`);
  expect(res.status(), await res.text()).toBe(200);
}

test.describe('the waitlist', () => {
  test.describe.configure({ mode: 'serial' });
  /** Three days the rules allow at 06:00–06:30, from 9 days ahead (past the other specs' days): one for each full window. */
  let days: string[] = [];
  test.beforeAll(async () => {
    days = await openDays({ from: 9, count: 3, windows: [{ orarioInizio: '06:00', orarioFine: '06:30' }] });
  });

  test('A waits for a full window, B cancels, A sees the offer first and books the bike', async ({ browser, baseURL }) => {
    test.slow();
    const date = days[0]!;
    const anna = await resident(browser, baseURL, 'Anna');
    const bruno = await resident(browser, baseURL, 'Bruno');
    try {
      const brunoBooking = (await fillWindow(date, bruno.email))!;
      expect(brunoBooking).not.toBeNull();

      const page = await openDashboard(anna);
      await chooseFullWindow(page, date);
      await page.getByLabel(/Destinazione/).fill('Palestra');
      const join = page.getByRole('button', { name: 'Avvisami se si libera una bici' });
      await expectNoSeriousA11yViolations(page);
      await join.click();
      await expect(notice(page, "Sei in lista d'attesa")).toBeVisible();
      const waiting = page.getByRole('region', { name: "In lista d'attesa" });
      await expect(waiting.getByRole('heading', { name: "In lista d'attesa" })).toBeFocused();
      const item = waiting.getByRole('listitem');
      await expect(item).toHaveCount(1);
      await expect(item).toContainText('06:00–06:30');
      await expect(item).toContainText('1° in lista');
      await expect(item).toContainText('Destinazione: Palestra');
      await expect(item.getByRole('button', { name: /^Esci dalla lista di / })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);

      // Bruno cancels: the bike is held for Anna, who opens the dashboard (the email's link).
      await cancelThroughApi(bruno.context.request, brunoBooking);
      // The offer is made just after the cancel's commit (decision 035): wait for it, then open.
      await expect
        .poll(async () => ((await (await anna.context.request.get('/api/attese')).json()) as { stato: string }[])[0]?.stato)
        .toBe('offerta');
      await page.reload();
      const offer = page.getByRole('region', { name: `Una bici si è liberata per il ${dayMonth(date)} dalle 06:00 alle 06:30` });
      await expect(offer).toBeVisible();
      await expect(offer).toContainText(/Tenuta per te ancora 1?\d:\d\d/);
      await expect(offer).toContainText('per Palestra');
      // The offer stands first: before the summary cards.
      const offerBox = (await offer.boundingBox())!;
      const summaryBox = (await page.getByRole('region', { name: 'Riepilogo' }).boundingBox())!;
      expect(offerBox.y).toBeLessThan(summaryBox.y);
      await expect(page.getByRole('region', { name: "In lista d'attesa" })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);

      await offer.getByRole('button', { name: 'Prenota' }).click();
      await expect(notice(page, 'Prenotazione creata!')).toBeVisible();
      await expect(offer).toHaveCount(0);
      const active = page.getByRole('region', { name: 'Le tue prenotazioni attive' });
      await expect(active.getByRole('heading', { level: 3 })).toHaveCount(1);
      await expect(active).toContainText('06:00–06:30');
      await expectNoSeriousA11yViolations(page);

      // Cleaned: Anna's booking cancelled.
      const own = (await (await anna.context.request.get('/api/prenotazioni/user')).json()) as { id: number; stato: string }[];
      for (const b of own.filter((x) => x.stato === 'attiva')) await cancelThroughApi(anna.context.request, b.id);
    } finally {
      await anna.context.close();
      await bruno.context.close();
    }
  });

  test('declining passes the bike on; leaving a line takes the wait away', async ({ browser, baseURL }) => {
    test.slow();
    const [first, second] = [days[1]!, days[2]!];
    const carla = await resident(browser, baseURL, 'Carla');
    const dario = await resident(browser, baseURL, 'Dario');
    const elena = await resident(browser, baseURL, 'Elena');
    try {
      const darioBooking = (await fillWindow(first, dario.email))!;
      await fillWindow(second);
      // Carla waits for both windows; Elena for the first, after her.
      const page = await openDashboard(carla);
      for (const date of [first, second]) {
        await chooseFullWindow(page, date);
        await page.getByRole('button', { name: 'Avvisami se si libera una bici' }).click();
        await expect(notice(page, "Sei in lista d'attesa").first()).toBeVisible();
      }
      await expect(page.getByRole('region', { name: "In lista d'attesa" }).getByRole('listitem')).toHaveCount(2);
      const elenaJoin = await elena.context.request.post('/api/attese', {
        data: { dataPrenotazione: first, orarioInizio: '06:00', orarioFine: '06:30', destinazione: null },
      });
      expect(elenaJoin.status(), await elenaJoin.text()).toBe(201);
      expect(await elenaJoin.json()).toMatchObject({ posizione: 2 });

      await cancelThroughApi(dario.context.request, darioBooking);
      // The offer is made just after the cancel's commit (decision 035): wait for it, then open.
      await expect
        .poll(async () => ((await (await carla.context.request.get('/api/attese')).json()) as { stato: string }[]).some((w) => w.stato === 'offerta'))
        .toBe(true);
      await page.reload();
      const offer = page.getByRole('region', { name: new RegExp(`^Una bici si è liberata per il ${dayMonth(first)}`) });
      await expect(offer).toBeVisible();
      await offer.getByRole('button', { name: 'Rinuncia' }).click();
      await expect(notice(page, 'Hai rinunciato alla bici')).toBeVisible();
      await expect(offer).toHaveCount(0);
      // The bike went to Elena, next in line.
      await expect
        .poll(async () => ((await (await elena.context.request.get('/api/attese')).json()) as { stato: string }[])[0]?.stato)
        .toBe('offerta');

      // Carla leaves her other line.
      const list = page.getByRole('region', { name: "In lista d'attesa" });
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expectNoSeriousA11yViolations(page);
      await list.getByRole('button', { name: /^Esci dalla lista di / }).click();
      await expect(notice(page, "Sei uscito dalla lista d'attesa")).toBeVisible();
      await expect(page.getByRole('region', { name: "In lista d'attesa" })).toHaveCount(0);
      expect(await (await carla.context.request.get('/api/attese')).json()).toEqual([]);
      // Elena declines too: nobody is left, the bike is free again.
      const [elenaWait] = (await (await elena.context.request.get('/api/attese')).json()) as { id: number }[];
      expect((await elena.context.request.post(`/api/attese/${elenaWait!.id}/rinuncia`)).status()).toBe(204);
    } finally {
      for (const p of [carla, dario, elena]) await p.context.close();
    }
  });
});
