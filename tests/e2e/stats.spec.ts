import { expect as baseExpect } from '@playwright/test';
import { withE2eDatabase } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, test } from './fixtures';

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;

/** Yesterday in Rome, `YYYY-MM-DD`. */
function romeYesterday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() - 24 * 3600 * 1000),
  );
}

/** The hour the seeded rides start at (Rome time). */
const RIDE_HOUR = 10;

/**
 * Two rides completed yesterday 10:00–11:00 Rome, by the demo resident and the demo external
 * (who paid), written straight into the server's database: the UI cannot book the past, and
 * a ride booked "later today" would not exist late in the evening.
 */
async function seedYesterdaysRides(date: string) {
  await withE2eDatabase(async (db) => {
    const hh = String(RIDE_HOUR).padStart(2, '0');
    const end = String(RIDE_HOUR + 1).padStart(2, '0');
    const { rows } = await db.query<{ id: number }>(
      `insert into prenotazioni (user_id, bici_id, data_prenotazione, orario_inizio, orario_fine, inizio, fine, destinazione, stato, created_at, updated_at)
       select u.id, b.id, $1::date, $2, $3,
              ($1 || ' ' || $2)::timestamp at time zone 'Europe/Rome', ($1 || ' ' || $3)::timestamp at time zone 'Europe/Rome',
              'Colosseo', 'completata', now() - interval '2 days', now() - interval '1 day'
         from (values ('residente@bicielis.demo', '01'), ('esterno@bicielis.demo', '02')) as v(email, numero)
         join users u on u.email = v.email
         join biciclette b on b.numero = v.numero
       returning id`,
      [date, `${hh}:00`, `${end}:00`],
    );
    baseExpect(rows).toHaveLength(2);
    // A repair ticket reported at the return of the resident's ride (issue 48).
    await db.query(
      `insert into interventi (bici_id, prenotazione_id, origine, categoria, descrizione, created_at)
       select p.bici_id, p.id, 'riconsegna', 'luci', 'Il fanale posteriore non si accende', now() - interval '1 day'
         from prenotazioni p where p.id = $1`,
      [rows[0]!.id],
    );
    await db.query(
      `insert into pagamenti (prenotazione_id, provider, provider_payment_id, amount, currency, status, completed_at)
       select p.id, 'simulated', 'pi_sim_e2estats' || p.id || floor(random() * 1e9)::bigint, 250, 'eur', 'completed', now() - interval '1 day'
         from prenotazioni p join users u on u.id = p.user_id
        where p.id = any($1::int[]) and not u.is_residente`,
      [rows.map((r) => r.id)],
    );
  });
}

test.describe('statistics', () => {
  test('an admin opens Statistiche and sees the charts and the data of the seeded period', async ({ page }, testInfo) => {
    const date = romeYesterday();
    await seedYesterdaysRides(date);

    await loginViaForm(page, admin);
    await expect(page).toHaveURL(/\/admin/);
    // The admin dashboard links to the statistics.
    await page.getByRole('link', { name: 'Statistiche' }).click();
    await expect(page).toHaveURL(/\/admin\/statistiche$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Statistiche' })).toBeVisible();

    await page.getByRole('button', { name: 'Ultimi 7 giorni' }).click();
    await expect(page.getByRole('button', { name: 'Ultimi 7 giorni' })).toHaveAttribute('aria-pressed', 'true');
    for (const title of [
      'Corse al giorno',
      'Uso per ora del giorno',
      'Uso per bici',
      'Residenti ed esterni',
      'Incasso',
      'Cancellazioni e blocchi rilasciati',
      'Domanda non servita',
      'Riparazioni',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    }
    // Eight pictures, each described for screen readers (the waitlist's two since issue 21).
    await expect(page.getByRole('img', { name: /Grafico|Residenti/ })).toHaveCount(8);

    // Unserved demand (issue 21): the waits of each day of the period, and by hour.
    const demand = page.getByRole('region', { name: 'Domanda non servita', exact: true });
    await expect(demand).toContainText(/\d+ non servite, \d+ servite da un'offerta/);
    await demand.getByText('Mostra dati').first().click();
    const byDay = demand.getByRole('table', { name: 'Attese non servite e servite al giorno' });
    await expect(byDay.getByRole('row')).toHaveCount(1 + 7);

    // Repairs (issue 48): the seeded day's ticket is among those opened in the period.
    const repairs = page.getByRole('region', { name: 'Riparazioni', exact: true });
    const opened = repairs.getByRole('definition').first();
    await expect(repairs.getByRole('term').first()).toHaveText('Aperti');
    expect(Number(await opened.textContent())).toBeGreaterThanOrEqual(1);
    await expect(repairs.getByRole('term').nth(2)).toHaveText('Tempo mediano di riparazione');

    // The numbers behind the charts: yesterday's rides, their hour, residents and externals.
    const [y, , d] = date.split('-').map(Number);
    const rides = page.getByRole('region', { name: 'Corse al giorno', exact: true });
    await rides.getByText('Mostra dati').click();
    const dayRow = rides.getByRole('row', { name: new RegExp(`${d} \\S+ ${y}`) }).last();
    await expect(dayRow).toBeVisible();
    expect(Number(await dayRow.getByRole('cell').textContent())).toBeGreaterThanOrEqual(2);

    const hours = page.getByRole('region', { name: 'Uso per ora del giorno', exact: true });
    await hours.getByText('Mostra dati').click();
    const hh = String(RIDE_HOUR).padStart(2, '0');
    const hourRow = hours.getByRole('row', { name: new RegExp(`^${hh}:00`) });
    expect(Number(await hourRow.getByRole('cell').textContent())).toBeGreaterThanOrEqual(2);

    const split = page.getByRole('region', { name: 'Residenti ed esterni', exact: true });
    await split.getByText('Mostra dati').click();
    for (const who of ['Residenti', 'Esterni']) {
      const row = split.getByRole('row', { name: new RegExp(`^${who}`) });
      expect(Number(await row.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
    }
    const perBike = page.getByRole('region', { name: 'Uso per bici', exact: true });
    await perBike.getByText('Mostra dati').click();
    // Every bike has its row: the 14 of the demo data at least (the ride spec, running beside
    // this one, adds bikes of its own); the two seeded rides are on 01 and 02.
    await expect.poll(() => perBike.getByRole('row').count()).toBeGreaterThanOrEqual(1 + 14);
    for (const numero of ['01', '02']) {
      // Row header "n. 01", then the cells: model, rides, hours.
      const row = perBike.getByRole('row', { name: new RegExp(`^n\\. ${numero} `) });
      expect(Number(await row.getByRole('cell').nth(1).textContent())).toBeGreaterThanOrEqual(1);
    }

    await expectNoSeriousA11yViolations(page);

    // The CSV export is downloaded with the server's file name.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Esporta CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^prenotazioni_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);

    // On a phone: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: 'Ultimi 30 giorni' }).click();
    await expect(page.getByRole('button', { name: 'Ultimi 30 giorni' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText(/aggiornamento/)).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('statistiche-375.png'), fullPage: true });
    await page.screenshot({ path: testInfo.outputPath('statistiche-375-top.png') });
    await page.getByRole('region', { name: 'Uso per bici', exact: true }).screenshot({ path: testInfo.outputPath('statistiche-375-bici.png') });
  });
});
