import { expect as baseExpect, type APIRequestContext } from '@playwright/test';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, loginViaForm, test } from './fixtures';

const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
const PASSWORD = 'Statistiche-2026!';

/** Now in Rome: today's date and the hour. */
function romeNow(): { date: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date());
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')) };
}

/** A new account (resident with `sigla`, else external) books a bike today, `hour`:00–`hour`:59. */
async function bookToday(request: APIRequestContext, who: string, sigla: string | null, date: string, hour: number) {
  const email = `stats-${who}-${Date.now()}@example.it`;
  const reg = await request.post('/api/register', {
    data: { nome: 'Stefano', cognome: 'Statistica', email, password: PASSWORD, siglaResidente: sigla },
  });
  baseExpect(reg.status(), await reg.text()).toBe(201);
  const hh = String(hour).padStart(2, '0');
  const window = { dataPrenotazione: date, orarioInizio: `${hh}:00`, orarioFine: `${hh}:59` };
  const bikes = (await (await request.post('/api/biciclette/available', { data: window })).json()) as { id: number }[];
  baseExpect(bikes.length).toBeGreaterThan(0);
  const res = await request.post('/api/prenotazioni', { data: { ...window, biciId: bikes.at(-1)!.id, destinazione: 'Colosseo' } });
  baseExpect(res.status(), await res.text()).toBe(201);
}

test.describe('statistics', () => {
  test('an admin opens Statistiche and sees the charts and the data of the seeded period', async ({ page, playwright, baseURL }, testInfo) => {
    const { date, hour } = romeNow();
    const start = hour + 1;
    test.skip(start > 22, 'No time left today to book a bike in the period that ends today.');

    for (const [who, sigla] of [
      ['esterno', null],
      ['residente', 'ELIS005'],
    ] as const) {
      const request = await playwright.request.newContext({ baseURL });
      await bookToday(request, who, sigla, date, start);
      await request.dispose();
    }

    await loginViaForm(page, admin);
    await expect(page).toHaveURL(/\/admin/);
    await page.goto('/admin/statistiche');
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
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    }
    // Six pictures, each described for screen readers.
    await expect(page.getByRole('img', { name: /Grafico|Residenti/ })).toHaveCount(6);

    // The numbers behind the charts: today's rides, the hour booked, residents and externals.
    const [y, , d] = date.split('-').map(Number);
    const rides = page.getByRole('region', { name: 'Corse al giorno', exact: true });
    await rides.getByText('Mostra dati').click();
    const todayRow = rides.getByRole('row', { name: new RegExp(`${d} \\S+ ${y}`) }).last();
    await expect(todayRow).toBeVisible();
    expect(Number(await todayRow.getByRole('cell').textContent())).toBeGreaterThanOrEqual(2);

    const hours = page.getByRole('region', { name: 'Uso per ora del giorno', exact: true });
    await hours.getByText('Mostra dati').click();
    const hh = String(start).padStart(2, '0');
    const hourRow = hours.getByRole('row', { name: new RegExp(`^${hh}:00`) });
    expect(Number(await hourRow.getByRole('cell').textContent())).toBeGreaterThanOrEqual(2);

    const split = page.getByRole('region', { name: 'Residenti ed esterni', exact: true });
    await split.getByText('Mostra dati').click();
    for (const who of ['Residenti', 'Esterni']) {
      const row = split.getByRole('row', { name: new RegExp(`^${who}`) });
      expect(Number(await row.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
    }
    await page.getByRole('region', { name: 'Uso per bici', exact: true }).getByText('Mostra dati').click();
    await expect(page.getByRole('region', { name: 'Uso per bici', exact: true }).getByRole('row')).toHaveCount(1 + 14);

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
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath('statistiche-375.png'), fullPage: true });
    await page.screenshot({ path: testInfo.outputPath('statistiche-375-top.png') });
    await page.getByRole('region', { name: 'Uso per bici', exact: true }).screenshot({ path: testInfo.outputPath('statistiche-375-bici.png') });
  });
});
