import { type Browser, type Page } from '@playwright/test';
import { zonedClock, zonedToday } from '../../src/shared/time.js';
import { createAccount, seedActiveBooking, windowFromNow, withE2eDatabase, type SeedWindow } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/** A bike's number cell: the number, then its sede's badge when the demo has several (issue 47). */
const bikeCell = (numero: string) => new RegExp(`^${numero}(\\s|$)`);

/*
 * The fleet that heals itself (issue 35, decision 045), on a phone's width: a booking moved off a
 * bike the admin takes out of use, a bike found broken at the rack (`La bici ha un problema`), and
 * a bike still out on a late ride with no other free (`Annulla` / `Aspetta`). Each test adds its
 * own bikes (a model of its own, which the heal picks first) and people. The last test takes every
 * other bike for one window, so the file runs alone, after the other specs (playwright.config.ts).
 */

test.use({ viewport: { width: 375, height: 812 } });

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const TIME_ZONE = 'Europe/Rome';
const PASSWORD = 'bici-giro-1';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A resident of the test's own, logged in through the form in a new context at 375 px. */
async function residentPage(browser: Browser, nome: string): Promise<{ page: Page; email: string; close: () => Promise<void> }> {
  const email = `flotta-${unique()}@bicielis.test`;
  await createAccount({ nome, cognome: 'Flotta', email, password: PASSWORD, residente: true });
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  await loginViaForm(page, { email, password: PASSWORD });
  await expect(page).toHaveURL(/\/dashboard$/);
  return { page, email, close: () => context.close() };
}

/** Bikes of a model of their own; with `codici`, each with a combination lock of that code. */
async function addBikes(numeri: string[], modello: string, codici: string[] = []): Promise<void> {
  await withE2eDatabase(async (db) => {
    for (const [i, numero] of numeri.entries()) {
      await db.query(`insert into biciclette (numero, modello) values ($1, $2)`, [numero, modello]);
      if (codici[i]) {
        await db.query(`insert into lucchetti (bici_id, tipo, codice) select id, 'combinazione', $2 from biciclette where numero = $1`, [numero, codici[i]]);
      }
    }
  });
}

const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The instant the day of `at` began in Rome. */
function zonedInstantOfDay(at: Date): Date {
  const clock = zonedClock(at, TIME_ZONE);
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000 - minutesOfDay(clock) * 60_000);
}

/** An `attiva` booking of `email` on bike `numero` for window `w`. */
const seedBooking = (email: string, numero: string, w: SeedWindow) => seedActiveBooking(email, numero, w, 'Giro della flotta');

/** The card of the booking on bike `numero` in the active bookings. */
function card(page: Page, numero: string, modello: string) {
  return page
    .getByRole('region', { name: 'Le tue prenotazioni attive' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: `Bici ${numero} · ${modello}` }) });
}

/** The bikes back as they were: in use, as the admin sees them, until the test's end only. */
async function restoreBikes(numeri: string[]): Promise<void> {
  await withE2eDatabase((db) => db.query(`update biciclette set stato = 'disponibile', stato_auto = false where numero = any($1)`, [numeri]));
}

test.describe('the fleet heals itself', () => {
  test('a bike the admin puts in maintenance: its booking moves to another bike, and the card says why', async ({ page, browser }) => {
    test.slow();
    const modello = `Flotta ${unique()}`.slice(0, 20);
    const [out, spare] = [`X${unique()}`.slice(0, 12), `Y${unique()}`.slice(0, 12)];
    await addBikes([out, spare], modello);
    const rider = await residentPage(browser, 'Bruna');
    try {
      await seedBooking(rider.email, out, windowFromNow(90));
      await rider.page.reload();
      await expect(card(rider.page, out, modello)).toBeVisible();

      // The admin, on a phone too, takes the bike out of use.
      await loginViaForm(page, admin);
      await page.getByRole('tab', { name: 'Biciclette' }).click();
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: bikeCell(out) }) });
      await row.getByRole('button', { name: `Modifica la bici ${out}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Stato').selectOption({ label: 'Manutenzione' });
      await dialog.getByRole('button', { name: 'Salva' }).click();
      await expect(notice(page, 'Stato aggiornato. 1 prenotazione spostata, 0 annullate')).toBeVisible();
      await expect(row).toContainText('Manutenzione');

      // The rider sees the booking on the other bike, and why.
      await rider.page.reload();
      const moved = card(rider.page, spare, modello);
      await expect(moved.getByText(`Spostata dalla bici n. ${out}: è fuori uso`)).toBeVisible();
      await expect(card(rider.page, out, modello)).toHaveCount(0);
      await expectNoSeriousA11yViolations(rider.page);
      await expectNoSidewaysScroll(rider.page, 'the moved booking');
    } finally {
      await restoreBikes([out, spare]);
      await rider.close();
    }
  });

  test('`La bici ha un problema` at the rack: the booking moves to another bike, with its own lock code', async ({ browser }) => {
    test.slow();
    const modello = `Flotta ${unique()}`.slice(0, 20);
    const [broken, spare] = [`P${unique()}`.slice(0, 12), `Q${unique()}`.slice(0, 12)];
    await addBikes([broken, spare], modello, ['1357', '2468']);
    const rider = await residentPage(browser, 'Piero');
    const page = rider.page;
    try {
      await seedBooking(rider.email, broken, windowFromNow(5));
      await page.reload();
      const before = card(page, broken, modello);
      await expect(before.getByText('Codice del lucchetto: 1357')).toBeVisible();

      await before.getByRole('button', { name: 'La bici ha un problema' }).click();
      const dialog = page.getByRole('dialog', { name: 'La bici ha un problema' });
      await dialog.getByRole('button', { name: 'Segnala il problema' }).click();
      await expect(dialog.getByText('Scegli il tipo di problema')).toBeVisible();
      await expect(dialog.getByText('Descrivi il problema (al massimo 500 caratteri)')).toBeVisible();
      await expect(dialog.getByLabel('Tipo di problema')).toBeFocused();
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, 'the problem dialog');
      await dialog.getByLabel('Tipo di problema').selectOption({ label: 'Freni' });
      await dialog.getByLabel('Descrizione del problema').fill('Il freno anteriore non frena');
      await dialog.getByRole('button', { name: 'Segnala il problema' }).click();

      await expect(notice(page, `Ora la tua bici è la n. ${spare}`)).toBeVisible();
      await expect(dialog).toBeHidden();
      const after = card(page, spare, modello);
      await expect(after.getByText(`Spostata dalla bici n. ${broken}: hai segnalato un problema`)).toBeVisible();
      // The new bike's lock, never the old one's.
      await expect(after.getByText('Codice del lucchetto: 2468')).toBeVisible();
      await expect(page.getByText('1357')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, 'the booking after the problem');

      // Read again from the server, and from a fresh page: still the new bike's code.
      await page.reload();
      await expect(card(page, spare, modello).getByText('Codice del lucchetto: 2468')).toBeVisible();
      await expect(page.getByText('1357')).toHaveCount(0);
    } finally {
      await restoreBikes([broken, spare]);
      await rider.close();
    }
  });

  test('a bike still out on a late ride, no other free: the card offers `Annulla` and `Aspetta`', async ({ browser }) => {
    test.slow();
    const modello = `Flotta ${unique()}`.slice(0, 20);
    const late = `R${unique()}`.slice(0, 12);
    await addBikes([late], modello);
    const tag = unique();
    const lateEmail = `ritardo-${tag}@bicielis.test`;
    await createAccount({ nome: 'Lucio', cognome: 'Ritardo', email: lateEmail, password: PASSWORD, residente: true });
    const rider = await residentPage(browser, 'Anna');
    const page = rider.page;
    const w = windowFromNow(10);
    let riderBooking = 0;
    try {
      await withE2eDatabase(async (db) => {
        // The ride before, picked up up to two hours ago (from midnight at most) and due back a minute ago: never returned.
        const dueAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
        const midnight = zonedInstantOfDay(dueAt);
        const fromAt = new Date(Math.max(dueAt.getTime() - 120 * 60_000, midnight.getTime()));
        await db.query(
          `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, ritirata_at, created_at, updated_at)
           select u.id, b.id, $3::date, $4, $5, $6, $7, 'attiva', $6, now(), now()
             from users u, biciclette b where u.email = $1 and b.numero = $2`,
          [lateEmail, late, zonedToday(dueAt, TIME_ZONE), zonedClock(fromAt, TIME_ZONE), zonedClock(dueAt, TIME_ZONE), fromAt, dueAt],
        );
        // Every other bike taken for the rider's window, each by a person of the test's own.
        await db.query(
          `with free as (
             select b.id from biciclette b
              where b.numero <> $1
                and not exists (select 1 from prenotazioni p where p.bici_id = b.id and p.stato in ('attiva', 'offerta')
                                  and tstzrange(p.inizio, p.fine, '[)') && tstzrange($4::timestamptz, $5::timestamptz, '[)'))),
           people as (
             insert into users (nome, cognome, email, password_hash, ruolo, is_residente)
             select 'Tappo', 'Flotta', 'tappo-' || $6 || '-' || free.id || '@bicielis.test', 'x', 'user', true from free
             returning id, email)
           insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, stato, created_at, updated_at)
           select people.id, free.id, $2::date, $3, $7, $4, $5, 'attiva', now(), now()
             from free join people on people.email = 'tappo-' || $6 || '-' || free.id || '@bicielis.test'`,
          [late, w.date, w.start, w.startAt, w.endAt, tag, w.end],
        );
      });
      riderBooking = await seedBooking(rider.email, late, w);

      await page.reload();
      const item = card(page, late, modello);
      const sentence = `La bici n. ${late} non è ancora rientrata e al momento non ce n'è un'altra libera`;
      await expect(item.getByText(sentence)).toBeVisible();
      await expect(item.getByRole('button', { name: 'Ritirata' })).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
      await expectNoSidewaysScroll(page, 'the late bike');

      // `Annulla` asks first, and says what it costs: nothing.
      await item.getByRole('button', { name: 'Annulla' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Vuoi annullare la prenotazione?' });
      await expect(confirm).toContainText('Non conta come mancato ritiro');
      await expectNoSeriousA11yViolations(page);
      await confirm.getByRole('button', { name: 'Indietro' }).click();
      await expect(confirm).toBeHidden();
      await expect(item.getByRole('button', { name: 'Annulla' })).toBeFocused();

      await item.getByRole('button', { name: 'Aspetta' }).click();
      await expect(notice(page, 'Aspetti una bici libera')).toBeVisible();
      await expect(
        item.getByText('Aspetti una bici libera: ti spostiamo sulla prima che si libera per tutta la tua fascia oraria'),
      ).toBeVisible();
      await expect(item.getByRole('button', { name: 'Aspetta' })).toHaveCount(0);
      await expect(item.getByRole('button', { name: 'Annulla' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      // Waiting, the booking can still be cancelled: it leaves the list.
      await item.getByRole('button', { name: 'Annulla' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Annulla la prenotazione' }).click();
      await expect(notice(page, 'Prenotazione annullata')).toContainText('Non conta come mancato ritiro.');
      await expect(item).toHaveCount(0);
      // Among the past rides, with why.
      const past = page.getByRole('region', { name: 'Prenotazioni passate' });
      await expect(past.getByRole('listitem').filter({ hasText: `Bici ${late}` })).toContainText('Annullata: bici non rientrata');
      await expectNoSeriousA11yViolations(page);
      const motivo = await withE2eDatabase((db) =>
        db.query<{ motivo: string }>(`select motivo_cancellazione as motivo from prenotazioni where id = $1`, [riderBooking]),
      );
      expect(motivo.rows[0]?.motivo).toBe('bici_non_rientrata');
    } finally {
      await withE2eDatabase(async (db) => {
        // The rider's booking and the late ride first: freeing the other bikes must move nobody.
        if (riderBooking) {
          await db.query(`update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente' where id = $1 and stato = 'attiva'`, [riderBooking]);
        }
        await db.query(
          `update prenotazioni set stato = 'completata', riconsegnata_at = now() where stato = 'attiva' and user_id in (select id from users where email = $1)`,
          [lateEmail],
        );
        await db.query(
          `update prenotazioni set stato = 'cancellata', motivo_cancellazione = 'utente'
            where stato = 'attiva' and user_id in (select id from users where email like $1)`,
          [`tappo-${tag}-%`],
        );
      });
      await rider.close();
    }
  });
});
