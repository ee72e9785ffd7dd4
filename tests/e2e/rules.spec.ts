import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { italianDate, weekdayIndex } from '../../src/shared/rules-text.js';
import { WEEKDAYS, type RulesDto } from '../../src/shared/schemas/rules.js';
import { addDays, zonedInstant, zonedToday } from '../../src/shared/time.js';
import { openDay, openDays, withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/*
 * The service's rules (issue 20) at 375 px, as the admins set them and the users meet them:
 * the hours of a day, a closure over a booking (shown before it is confirmed), a planned
 * maintenance that moves a booking to another bike, a booking made at the desk, a suspension
 * for no-shows and its lift. The rules reach every user, so this file runs in its own project,
 * after every other spec (playwright.config.ts), and puts the rules back as it found them.
 */

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const resident = DEMO_ACCOUNTS.find((a) => a.email === 'residente@bicielis.demo')!;
const external = DEMO_ACCOUNTS.find((a) => a.sigla === null && a.ruolo === 'user')!;
const TIME_ZONE = 'Europe/Rome';
const PHONE = { width: 375, height: 812 };

const today = () => zonedToday(new Date(), TIME_ZONE);
const weekday = (date: string) => WEEKDAYS[weekdayIndex(date)]!.toLowerCase();
const tag = () => Math.random().toString(36).slice(2, 7);

test.use({ viewport: PHONE });

async function openAdmin(page: Page, path: string) {
  await loginViaForm(page, admin);
  await expect(page).toHaveURL('/admin');
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Amministratore' })).toBeVisible();
}

/** A second browser at 375 px, logged in through the API as `account`. */
async function phoneContext(browser: Browser, baseURL: string | undefined, account: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, locale: 'it-IT', timezoneId: TIME_ZONE, viewport: PHONE });
  const res = await context.request.post('/api/login', { data: { email: account.email, password: account.password } });
  expect(res.ok(), await res.text()).toBe(true);
  return context;
}

/** Books bike `biciId` (or the first free one) on `date` 10:00–11:00 for whoever `request` is logged in as. */
async function book(request: APIRequestContext, date: string, biciId?: number): Promise<{ id: number; biciId: number; biciNumero: string }> {
  const window = { dataPrenotazione: date, orarioInizio: '10:00', orarioFine: '11:00' };
  let bike = biciId;
  if (bike === undefined) {
    const free = (await (await request.post('/api/biciclette/available', { data: window })).json()) as { id: number }[];
    bike = free[0]!.id;
  }
  const res = await request.post('/api/prenotazioni', { data: { ...window, destinazione: 'Prova regole', biciId: bike } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; biciId: number; biciNumero: string };
}

const closeAll = async (contexts: BrowserContext[]) => Promise.all(contexts.map((c) => c.close()));

/** The rules as they were, written back after each test (the admin's page is logged in). */
async function keepRules(page: Page): Promise<() => Promise<void>> {
  const before = (await (await page.request.get('/api/admin/regole')).json()) as RulesDto;
  const { updatedAt: _at, updatedBy: _by, ...rules } = before;
  return async () => {
    const res = await page.request.put('/api/admin/regole', { data: rules });
    expect(res.ok(), await res.text()).toBe(true);
  };
}

test.describe('the service rules', () => {
  test.describe.configure({ mode: 'serial' });

  test('an admin sets the hours and a closure and plans a maintenance; the booking form respects them', async ({ page, browser, baseURL }) => {
    test.slow();
    const t = tag();
    // Three days the rules allow now (tests/helpers/days.ts): this test changes the first one's hours, closes the second and plans a maintenance on the third.
    const [hoursDay, closedDay, maintenanceDay] = (await openDays({ count: 3 })) as [string, string, string];
    const residentContext = await phoneContext(browser, baseURL, resident);
    const cleanup: (() => Promise<unknown>)[] = [];
    try {
      await openAdmin(page, '/admin?tab=regole');
      cleanup.push(await keepRules(page));
      await expect(page.getByRole('tab', { name: 'Regole' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('heading', { name: 'Orari di apertura' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);

      // Hours: the first day's weekday 09:00–12:00 (a wrong closing time first), at most 2 hours.
      const day = weekday(hoursDay);
      await page.getByLabel(`Apertura ${day}`).fill('09:00');
      await page.getByLabel(`Chiusura ${day}`).fill('08:00');
      await page.getByRole('switch', { name: 'Durata massima di una prenotazione (minuti)' }).check();
      const longest = page.getByRole('spinbutton', { name: 'Durata massima di una prenotazione (minuti)' });
      await expect(longest).toBeEnabled();
      await longest.fill('120');
      await page.getByRole('button', { name: 'Salva regole' }).click();
      await expect(page.getByText("L'orario di chiusura deve essere successivo a quello di apertura")).toBeVisible();
      await expect(page.getByLabel(`Chiusura ${day}`)).toBeFocused();
      await expect(page.getByLabel(`Chiusura ${day}`)).toHaveAttribute('aria-invalid', 'true');
      await page.getByLabel(`Chiusura ${day}`).fill('12:00');
      await page.getByRole('button', { name: 'Salva regole' }).click();
      await expect(notice(page, 'Regole salvate')).toBeVisible();
      await expect(page.getByText(`Ultima modifica:`)).toContainText(admin.email);

      // A closure over a booking: the admin sees whose before confirming.
      const closed = await book(residentContext.request, closedDay);
      const closures = page.getByRole('region', { name: 'Chiusure' });
      await closures.getByLabel('Dal', { exact: true }).fill(closedDay);
      await closures.getByLabel('Al', { exact: true }).fill(closedDay);
      await closures.getByLabel('Motivo').fill(`Chiusura prova ${t}`);
      await closures.getByRole('button', { name: 'Aggiungi chiusura' }).click();
      const preview = page.getByRole('dialog', { name: 'Confermare la chiusura?' });
      // Other specs' bookings of that day may be there too (one server for the whole suite).
      const closedSentence = `Il ${italianDate(closedDay)} \\(Chiusura prova ${t}\\) (viene annullata 1 prenotazione|vengono annullate \\d+ prenotazioni)`;
      await expect(preview).toContainText(new RegExp(closedSentence));
      const affected = preview.getByRole('list', { name: 'Prenotazioni da annullare' });
      await expect(affected).toContainText('Marco Rossi');
      await expect(affected).toContainText(resident.email);
      await expect(affected).toContainText(`Bici ${closed.biciNumero}`);
      await expect(affected).toContainText(`${italianDate(closedDay)}, 10:00–11:00`);
      await expectNoSeriousA11yViolations(page);
      await preview.getByRole('button', { name: 'Conferma chiusura' }).click();
      await expect(notice(page, 'Chiusura aggiunta')).toContainText(/\d+ prenotazion[ei] annullat[ae]/);
      const listed = closures.getByRole('listitem').filter({ hasText: `Chiusura prova ${t}` });
      await expect(listed).toContainText(italianDate(closedDay));
      cleanup.push(async () => {
        const all = (await (await page.request.get('/api/admin/chiusure')).json()) as { id: number; motivo: string }[];
        for (const c of all.filter((c) => c.motivo === `Chiusura prova ${t}`)) await page.request.delete(`/api/admin/chiusure/${c.id}`);
      });

      // A maintenance on the bike of a booking: it moves to another bike.
      const moved = await book(residentContext.request, maintenanceDay);
      cleanup.push(() => residentContext.request.delete(`/api/prenotazioni/${moved.id}`));
      await page.getByRole('tab', { name: 'Biciclette' }).click();
      await expect(page).toHaveURL('/admin?tab=biciclette');
      await page.getByRole('button', { name: `Pianifica manutenzione della bici ${moved.biciNumero}` }).click();
      const plan = page.getByRole('dialog', { name: `Pianifica manutenzione · bici ${moved.biciNumero}` });
      // The booking's own hour: other specs' bookings of that bike and day (the suite shares
      // one server) are left out as far as they can be; the preview may still move them.
      await plan.getByLabel('Dal', { exact: true }).fill(`${maintenanceDay}T10:00`);
      await plan.getByLabel('Al', { exact: true }).fill(`${maintenanceDay}T11:00`);
      await plan.getByLabel('Motivo').fill(`Revisione ${t}`);
      await expectNoSeriousA11yViolations(page);
      await plan.getByRole('button', { name: 'Continua' }).click();
      await expect(plan).toContainText(/\d+ prenotazion[ei] spostat[ae] su/);
      const movedList = plan.getByRole('list', { name: 'Prenotazioni spostate' });
      await expect(movedList).toContainText('Marco Rossi');
      await expect(movedList).toContainText(/spostata sulla bici n\. \d+/);
      await expectNoSeriousA11yViolations(page);
      await plan.getByRole('button', { name: 'Conferma' }).click();
      await expect(notice(page, 'Manutenzione pianificata')).toBeVisible();
      const planned = page.getByRole('region', { name: 'Manutenzioni programmate' }).getByRole('listitem').filter({ hasText: `Revisione ${t}` });
      await expect(planned).toContainText(`Bici ${moved.biciNumero}`);
      await expect(planned).toContainText(`Dal ${italianDate(maintenanceDay)} 10:00 al ${italianDate(maintenanceDay)} 11:00`);
      await expect(planned).toContainText('Programmata');
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);
      cleanup.push(async () => {
        const all = (await (await page.request.get('/api/admin/manutenzioni')).json()) as { id: number; motivo: string }[];
        for (const m of all.filter((m) => m.motivo === `Revisione ${t}`)) await page.request.delete(`/api/admin/manutenzioni/${m.id}`);
      });
      // The booking now rides another bike.
      const own = (await (await residentContext.request.get('/api/prenotazioni/user')).json()) as { id: number; biciNumero: string }[];
      expect(own.find((b) => b.id === moved.id)?.biciNumero).not.toBe(moved.biciNumero);
      await residentContext.request.delete(`/api/prenotazioni/${moved.id}`);

      // The user's form: the day's hours shown, a window out of hours or in the closure refused.
      const user = await residentContext.newPage();
      await user.goto('/dashboard');
      await user.getByRole('button', { name: 'Nuova prenotazione' }).click();
      const date = user.getByLabel('Data', { exact: true });
      await date.fill(hoursDay);
      await expect(user.getByText('Orari del giorno: 09:00–12:00')).toBeVisible();
      await expect(user.getByText('Durata massima: 2 ore')).toBeVisible();
      await user.getByLabel('Ora di inizio').fill('10:00');
      await user.getByLabel('Ora di fine').fill('13:00');
      const hoursSentence = `${weekdayIndex(hoursDay) === 6 ? 'La' : 'Il'} ${day} il servizio è aperto dalle 09:00 alle 12:00`;
      await expect(user.getByText(hoursSentence)).toBeVisible();
      await expect(user.getByLabel('Ora di fine')).toHaveAttribute('aria-invalid', 'true');
      await expect(user.getByText('Scegli un giorno e degli orari consentiti per vedere le biciclette libere.')).toBeVisible();
      await expect(user.getByRole('radio')).toHaveCount(0);
      await user.getByRole('button', { name: 'Prenota', exact: true }).click();
      await expect(user.getByLabel('Ora di fine')).toBeFocused();
      await expectNoSeriousA11yViolations(user);

      await user.getByLabel('Ora di fine').fill('11:00');
      await expect(user.getByText(hoursSentence)).toBeHidden();
      await expect(user.getByRole('radio').first()).toBeVisible();

      await date.fill(closedDay);
      await expect(user.getByText(`Chiuso: Chiusura prova ${t}`)).toBeVisible();
      await expect(user.getByText(`Il servizio è chiuso il ${italianDate(closedDay)}: Chiusura prova ${t}`)).toBeVisible();
      await expect(user.getByRole('radio')).toHaveCount(0);

      // The bike in maintenance is offered to nobody inside its period.
      await date.fill(maintenanceDay);
      await expect(user.getByRole('radio').first()).toBeVisible();
      await expect(user.getByRole('radio', { name: new RegExp(`^Bici ${moved.biciNumero}\\b`) })).toHaveCount(0);
      await expectNoSidewaysScroll(user);

      // The server stays the authority: the same window, asked directly, is refused with the same words.
      const refused = await residentContext.request.post('/api/biciclette/available', {
        data: { dataPrenotazione: hoursDay, orarioInizio: '10:00', orarioFine: '13:00' },
      });
      expect(refused.status()).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toBe(hoursSentence);
    } finally {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
      await closeAll([residentContext]);
    }
  });

  test('an admin books at the desk for a user', async ({ page, browser, baseURL }) => {
    const date = await openDay();
    const residentContext = await phoneContext(browser, baseURL, resident);
    let bookingId: number | undefined;
    try {
      await openAdmin(page, '/admin');
      await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nuova prenotazione per un utente' });
      await dialog.getByRole('button', { name: "Prenota per l'utente" }).click();
      await expect(dialog.getByText('Scegli un utente')).toBeVisible();
      await expect(dialog.getByRole('searchbox', { name: 'Cerca utente' })).toBeFocused();

      await dialog.getByRole('searchbox', { name: 'Cerca utente' }).fill('elis001');
      await expect(dialog.getByText(/^\d+ utent[ei] trovat[oi]$/)).toBeVisible();
      await dialog.getByRole('radio', { name: /Marco Rossi/ }).check();
      await expect(dialog.getByText('Scelto: Marco Rossi')).toBeVisible();
      await dialog.getByLabel('Data', { exact: true }).fill(date);
      await dialog.getByLabel('Ora di inizio').fill('10:00');
      await dialog.getByLabel('Ora di fine').fill('11:00');
      await dialog.getByRole('radio', { name: /^Bici / }).first().check();
      await expectNoSeriousA11yViolations(page);
      await dialog.getByRole('button', { name: "Prenota per l'utente" }).click();
      await expect(notice(page, 'Prenotazione creata')).toContainText('per Marco Rossi, 10:00–11:00');
      await expect(dialog).toBeHidden();

      const own = (await (await residentContext.request.get('/api/prenotazioni/user')).json()) as { id: number; stato: string; dataPrenotazione: string }[];
      const made = own.find((b) => b.stato === 'attiva' && b.dataPrenotazione === date);
      expect(made).toBeDefined();
      bookingId = made!.id;
    } finally {
      if (bookingId !== undefined) await residentContext.request.delete(`/api/prenotazioni/${bookingId}`);
      await closeAll([residentContext]);
    }
  });

  test('a user suspended for no-shows sees until when and why; an admin lifts it', async ({ page, browser, baseURL }) => {
    test.slow();
    const externalContext = await phoneContext(browser, baseURL, external);
    let noShow: number | undefined;
    let restore: (() => Promise<void>) | undefined;
    try {
      await openAdmin(page, '/admin?tab=regole');
      restore = await keepRules(page);
      // One no-show in 30 days suspends for 7: switched on in the form.
      await page.getByRole('switch', { name: 'Sospendi chi non ritira la bicicletta più volte' }).check();
      const suspension = page.getByRole('region', { name: 'Sospensione per mancati ritiri' });
      await suspension.getByRole('spinbutton', { name: 'Mancati ritiri' }).fill('1');
      await suspension.getByRole('spinbutton', { name: 'In quanti giorni' }).fill('30');
      await suspension.getByRole('spinbutton', { name: 'Giorni di sospensione' }).fill('7');
      await expect(suspension).toContainText("Dopo 1 mancato ritiro in 30 giorni l'utente non può prenotare per 7 giorni.");
      await page.getByRole('button', { name: 'Salva regole' }).click();
      await expect(notice(page, 'Regole salvate')).toBeVisible();

      // A booking not picked up two days ago (the UI cannot make one in the past).
      const day = addDays(today(), -2);
      noShow = await withE2eDatabase(async (db) => {
        const { rows } = await db.query<{ id: number }>(
          `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, motivo_cancellazione)
           select u.id, (select id from biciclette order by id limit 1), $2::date, '10:00', '11:00', $3, $4, 'cancellata', 'mancato_ritiro'
             from users u where u.email = $1
           returning id`,
          [external.email, day, zonedInstant(day, '10:00', TIME_ZONE), zonedInstant(day, '11:00', TIME_ZONE)],
        );
        return rows[0]!.id;
      });

      const user = await externalContext.newPage();
      await user.goto('/dashboard');
      await expect(user.getByText(/^Non puoi prenotare fino al \d\d\/\d\d\/\d{4} alle \d\d:\d\d: 1 mancato ritiro in 30 giorni$/)).toBeVisible();
      await expect(user.getByRole('button', { name: 'Nuova prenotazione' })).toBeDisabled();
      await expectNoSidewaysScroll(user);
      await expectNoSeriousA11yViolations(user);

      await page.getByRole('tab', { name: 'Utenti' }).click();
      await page.getByLabel('Cerca utenti').fill(external.email);
      const row = page.getByRole('region', { name: 'Utenti' }).getByRole('row').filter({ hasText: external.email });
      await expect(row).toContainText(/Sospeso fino al \d\d\/\d\d\/\d{4} \d\d:\d\d/);
      await expectNoSeriousA11yViolations(page);
      await row.getByRole('button', { name: 'Revoca sospensione di Laura Verdi' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText('è sospeso fino al');
      await confirm.getByRole('button', { name: 'Revoca', exact: true }).click();
      await expect(notice(page, 'Sospensione revocata')).toContainText('Laura Verdi può di nuovo prenotare');
      await expect(row).not.toContainText('Sospeso');
      await expect(row.getByRole('button', { name: /Revoca sospensione/ })).toHaveCount(0);

      await user.reload();
      await expect(user.getByRole('button', { name: 'Nuova prenotazione' })).toBeEnabled();
      await expect(user.getByText(/Non puoi prenotare/)).toHaveCount(0);
    } finally {
      if (noShow !== undefined) await withE2eDatabase((db) => db.query('delete from prenotazioni where id = $1', [noShow]));
      await restore?.();
      await closeAll([externalContext]);
    }
  });
});
