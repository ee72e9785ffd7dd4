import type { Page } from '@playwright/test';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { defaultBookingForm } from '../../src/web/features/dashboard/dashboard-model.js';
import { lastOpenDay, openDay } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

const resident = DEMO_ACCOUNTS.find((a) => a.sigla !== null && a.ruolo === 'user')!;
const external = DEMO_ACCOUNTS.find((a) => a.sigla === null && a.ruolo === 'user')!;

/** The college's time zone of the e2e server (TZ_APP default). */
const TIME_ZONE = 'Europe/Rome';
const today = () => zonedToday(new Date(), TIME_ZONE);

/**
 * The form's default window is spec §4's 08:00–18:00 unless that start has passed (then the
 * next quarter hour). Read just before and just after the form opened, so that a quarter
 * hour turning in between cannot fail the test.
 */
async function expectDefaultWindow(page: Page, before: Date) {
  const after = new Date();
  const candidates = [before, after].map((t) => defaultBookingForm(t, TIME_ZONE));
  const shown = {
    dataPrenotazione: await page.getByLabel('Data', { exact: true }).inputValue(),
    orarioInizio: await page.getByLabel('Ora di inizio').inputValue(),
    orarioFine: await page.getByLabel('Ora di fine').inputValue(),
  };
  expect(candidates.map(({ dataPrenotazione, orarioInizio, orarioFine }) => ({ dataPrenotazione, orarioInizio, orarioFine }))).toContainEqual(shown);
}
/** The first day the rules allow for the windows these tests book (tests/helpers/days.ts). */
const bookingDay = () =>
  openDay({ windows: ['09:00-10:00', '10:00-12:00', '14:00-16:00', '15:00-17:00'].map((w) => ({ orarioInizio: w.slice(0, 5), orarioFine: w.slice(6) })) });

/** Weekday, day, month and year as the dashboard writes them, e.g. 'domenica 22 novembre 2026'. */
function italianDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat('it-IT', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(y, m - 1, d)))
    .replace(',', '');
}

/**
 * Bookings a test creates, remembered from the server's answers, so that whatever happens
 * the test cancels them afterwards: the e2e database is shared by every spec file.
 */
const created = new Map<Page, number[]>();

test.beforeEach(({ page }) => {
  const ids: number[] = [];
  created.set(page, ids);
  page.on('response', async (response) => {
    const request = response.request();
    if (request.method() === 'POST' && new URL(response.url()).pathname === '/api/prenotazioni' && response.status() === 201) {
      ids.push(((await response.json()) as { id: number }).id);
    }
  });
});

test.afterEach(async ({ page }) => {
  for (const id of created.get(page) ?? []) {
    const res = await page.request.get('/api/prenotazioni/user');
    if (!res.ok()) break;
    const booking = ((await res.json()) as { id: number; stato: string }[]).find((b) => b.id === id);
    if (booking?.stato === 'attiva') {
      expect((await page.request.delete(`/api/prenotazioni/${id}`)).ok()).toBe(true);
    }
  }
  created.delete(page);
});

async function openDashboard(page: Page, account: { email: string; password: string }) {
  await loginViaForm(page, account);
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'Le tue prenotazioni attive' })).toBeVisible();
  await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();
}

/** The value of one of the four stat cards. */
function statValue(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'Riepilogo' })
    .locator('dl > div')
    .filter({ has: page.getByRole('term').getByText(label, { exact: true }) })
    .getByRole('definition');
}

async function chooseWindow(page: Page, date: string, start: string, end: string) {
  await page.getByLabel('Data', { exact: true }).fill(date);
  await page.getByLabel('Ora di inizio').fill(start);
  await page.getByLabel('Ora di fine').fill(end);
}

const bikeGroup = (page: Page) => page.getByRole('group', { name: 'Bicicletta' });

test.describe('user dashboard: bookings', () => {
  test('a resident books a recommended bike for the first open day, sees it listed as free, then deletes it', async ({ page }) => {
    // One long flow as a person goes through it, with four axe checks on the way.
    test.slow();
    await openDashboard(page, resident);
    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${resident.nome} ${resident.cognome}` })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Residente', { exact: true })).toBeVisible();
    await expect(statValue(page, 'Tipo account')).toHaveText('Residente');
    await expect(statValue(page, 'Prenotazioni attive')).toHaveText('0');
    await expect(statValue(page, 'Biciclette disponibili')).toHaveText(/^\d+$/);
    await expect(page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);

    // The form opens on demand, with the defaults of spec §4.
    const opened = new Date();
    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
    const date = page.getByLabel('Data', { exact: true });
    await expect(date).toBeFocused();
    await expectDefaultWindow(page, opened);
    await expect(date).toHaveAttribute('min', today());
    await expect(date).toHaveAttribute('max', (await lastOpenDay())!);
    await expect(page.getByLabel(/Destinazione/)).toHaveValue('');

    await chooseWindow(page, await bookingDay(), '10:00', '12:00');
    // Without a destination the free bikes are one list.
    await expect(bikeGroup(page).getByRole('radio').first()).toBeVisible();
    await expect(page.getByRole('group', { name: 'Consigliate' })).toHaveCount(0);

    // Typing the destination regroups the bikes without asking the server again.
    let availabilityCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/biciclette/available') availabilityCalls += 1;
    });
    await page.getByLabel(/Destinazione/).pressSequentially('centro città');
    const recommended = page.getByRole('group', { name: 'Consigliate' });
    const others = page.getByRole('group', { name: 'Altre disponibili' });
    await expect(recommended).toBeVisible();
    await expect(others).toBeVisible();
    expect(availabilityCalls).toBe(0);

    const recommendedNames = await recommended.getByRole('radio').evaluateAll((radios) =>
      radios.map((r) => (r as HTMLInputElement).labels?.[0]?.textContent ?? ''),
    );
    expect(recommendedNames.length).toBeGreaterThan(0);
    for (const name of recommendedNames) expect(name).toMatch(/City|Hybrid/);
    await expect(others.getByRole('radio').first()).toBeVisible();
    for (const name of await others.getByRole('radio').evaluateAll((radios) =>
      radios.map((r) => (r as HTMLInputElement).labels?.[0]?.textContent ?? ''),
    )) {
      expect(name).not.toMatch(/City|Hybrid/);
    }
    await expectNoSeriousA11yViolations(page);

    // Keyboard alone: Tab to the bikes, Space picks, the arrows move the choice.
    const firstRecommended = recommended.getByRole('radio').first();
    await firstRecommended.focus();
    await page.keyboard.press('Space');
    await expect(firstRecommended).toBeChecked();
    await page.keyboard.press('ArrowDown');
    const chosen = recommended.getByRole('radio').nth(1);
    await expect(chosen).toBeChecked();
    await expect(chosen).toBeFocused();
    const chosenLabel = (await chosen.evaluate((r) => (r as HTMLInputElement).labels?.[0]?.innerText ?? '')).split('\n');
    const [bikeTitle, bikeModel] = chosenLabel as [string, string];

    await page.getByRole('button', { name: 'Prenota', exact: true }).click();
    await expect(notice(page, 'Prenotazione creata!')).toBeVisible();
    // The form is gone: the focus goes to the list the booking joined.
    const activeHeading = page.getByRole('heading', { level: 2, name: 'Le tue prenotazioni attive' });
    await expect(activeHeading).toBeFocused();

    const active = page.getByRole('region', { name: 'Le tue prenotazioni attive' });
    const item = active.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    await expect(item).toHaveCount(1);
    // The demo has two sedi (issue 47): the card names the bike's, the first.
    await expect(item.getByRole('heading', { level: 3 })).toHaveText(`${bikeTitle} · ${bikeModel} · Residenza Centrale`);
    await expect(item).toContainText(italianDate(await bookingDay()));
    await expect(item).toContainText('10:00–12:00');
    await expect(item).toContainText('centro città');
    await expect(item.getByText('Da ritirare', { exact: true })).toBeVisible();
    await expect(item.getByText('Gratuita', { exact: true })).toBeVisible();
    await expect(statValue(page, 'Prenotazioni attive')).toHaveText('1');

    // One active booking at a time: the warning replaces the button.
    await expect(page.getByText('Hai già una prenotazione attiva')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nuova prenotazione' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Deleting asks first; 'Annulla' keeps the booking.
    await item.getByRole('button', { name: 'Elimina', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sei sicuro di voler eliminare questa prenotazione?' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Annulla', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toHaveCount(1);
    // The focus is back on the button that opened the dialog.
    await expect(item.getByRole('button', { name: 'Elimina', exact: true })).toBeFocused();

    await item.getByRole('button', { name: 'Elimina', exact: true }).click();
    await dialog.getByRole('button', { name: 'Elimina', exact: true }).click();
    await expect(notice(page, 'Prenotazione eliminata')).toBeVisible();
    await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();
    await expect(activeHeading).toBeFocused();
    await expect(statValue(page, 'Prenotazioni attive')).toHaveText('0');
    await expect(page.getByText('Hai già una prenotazione attiva')).toHaveCount(0);

    // The button is back and the form starts again from the defaults.
    const reopened = new Date();
    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
    await expect(page.getByLabel(/Destinazione/)).toHaveValue('');
    await expectDefaultWindow(page, reopened);
  });

  test('an external user books, is asked to pay 2,50 € on /payment/<id>, then cancels', async ({ page }) => {
    await openDashboard(page, external);
    await expect(statValue(page, 'Tipo account')).toHaveText('Esterno');
    await expect(page.getByRole('banner').getByText('Residente', { exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
    await chooseWindow(page, await bookingDay(), '14:00', '16:00');
    const firstBike = bikeGroup(page).getByRole('radio').first();
    await firstBike.check();

    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/prenotazioni',
    );
    await page.getByRole('button', { name: 'Prenota', exact: true }).click();
    const booking = (await (await answer).json()) as { id: number };
    await expect(notice(page, 'Prenotazione creata!')).toBeVisible();

    const item = page.getByRole('region', { name: 'Le tue prenotazioni attive' }).getByRole('listitem').first();
    const pay = item.getByRole('link', { name: 'Paga 2,50 €' });
    await expect(pay).toBeVisible();
    await expect(pay).toHaveAttribute('href', `/payment/${booking.id}`);
    await expect(item.getByText('Gratuita')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await item.getByRole('button', { name: 'Elimina', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Elimina', exact: true }).click();
    await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nuova prenotazione' })).toBeVisible();
  });

  test('the form checks its fields, shows server errors inline and resets on cancel', async ({ page }) => {
    await openDashboard(page, resident);
    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();

    // No bike chosen.
    await chooseWindow(page, await bookingDay(), '09:00', '10:00');
    await expect(bikeGroup(page).getByRole('radio').first()).toBeVisible();
    await page.getByRole('button', { name: 'Prenota', exact: true }).click();
    await expect(bikeGroup(page).getByText('Seleziona una bicicletta')).toBeVisible();
    await expect(bikeGroup(page).getByRole('radio').first()).toBeFocused();

    // End before start is caught before asking the server.
    await page.getByLabel('Ora di fine').fill('08:30');
    await expect(page.getByText("L'orario di fine deve essere successivo all'orario di inizio")).toBeVisible();
    await expect(page.getByText('Scegli la data e gli orari per vedere le biciclette libere.')).toBeVisible();
    await page.getByLabel('Ora di fine').fill('10:00');

    // A date in the past: the server's message, inline.
    await page.getByLabel('Data', { exact: true }).fill(addDays(today(), -1));
    await expect(bikeGroup(page).getByRole('alert')).toHaveText('Non puoi prenotare per una data passata');

    // No date at all.
    await page.getByLabel('Data', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Prenota', exact: true }).click();
    await expect(page.getByText('Seleziona una data per la prenotazione')).toBeVisible();
    await expect(page.getByLabel('Data', { exact: true })).toBeFocused();
    await expectNoSeriousA11yViolations(page);

    // Cancel closes the form; reopening starts from the defaults.
    await page.getByLabel(/Destinazione/).fill('palestra');
    await page.getByRole('button', { name: 'Annulla', exact: true }).click();
    const open = page.getByRole('button', { name: 'Nuova prenotazione' });
    await expect(open).toBeFocused();
    const reopened = new Date();
    await open.click();
    await expectDefaultWindow(page, reopened);
    await expect(page.getByLabel(/Destinazione/)).toHaveValue('');
    await expect(page.getByText('Seleziona una data per la prenotazione')).toHaveCount(0);
  });

  test('a failed booking shows the server message and keeps what was typed', async ({ page }) => {
    await openDashboard(page, resident);
    await page.route('**/api/prenotazioni', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 409, json: { message: 'La bicicletta non è disponibile nella fascia oraria scelta', code: 'BIKE_UNAVAILABLE' } })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
    await chooseWindow(page, await bookingDay(), '15:00', '17:00');
    await page.getByLabel(/Destinazione/).fill('palestra');
    await page.getByRole('group', { name: 'Consigliate' }).getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Prenota', exact: true }).click();

    const errorToast = notice(page, 'Errore');
    await expect(errorToast).toContainText('La bicicletta non è disponibile nella fascia oraria scelta');
    await expect(page.getByLabel('Data', { exact: true })).toHaveValue(await bookingDay());
    await expect(page.getByLabel('Ora di inizio')).toHaveValue('15:00');
    await expect(page.getByLabel('Ora di fine')).toHaveValue('17:00');
    await expect(page.getByLabel(/Destinazione/)).toHaveValue('palestra');
    await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();
  });

  test('past bookings: the last three completed ones, with their payment status', async ({ page }) => {
    const past = (id: number, dataPrenotazione: string, paymentStatus: string | null) => ({
      id,
      dataPrenotazione,
      orarioInizio: '09:00',
      orarioFine: '11:00',
      destinazione: id === 1 ? 'palestra' : null,
      biciId: id,
      biciNumero: String(id).padStart(2, '0'),
      biciModello: 'Hybrid Sport 500',
      stato: id === 5 ? 'cancellata' : 'completata',
      paymentStatus,
      createdAt: `${dataPrenotazione}T06:00:00.000Z`,
    });
    // Only the list is answered from here, so nothing is written to the shared database.
    // The answer is held at first, to see the loading state.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/prenotazioni/user', async (route) => {
      await held;
      await route.fulfill({
        json: [
          past(5, '2026-10-09', 'failed'),
          past(4, '2026-10-01', 'completed'),
          past(3, '2026-10-08', 'refunded'),
          past(2, '2026-09-20', null),
          past(1, '2026-10-05', null),
        ],
      });
    });
    await loginViaForm(page, resident);
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('status').filter({ hasText: 'Caricamento delle prenotazioni...' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Caricamento delle prenotazioni passate...' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    release();
    await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();

    const region = page.getByRole('region', { name: 'Prenotazioni passate' });
    const items = region.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    await expect(items).toHaveCount(3);
    await expect(items.getByRole('heading', { level: 3 })).toHaveText([
      'Bici 03 · Hybrid Sport 500',
      'Bici 01 · Hybrid Sport 500',
      'Bici 04 · Hybrid Sport 500',
    ]);
    for (const item of await items.all()) await expect(item.getByText('Completata', { exact: true })).toBeVisible();
    await expect(items.nth(0).getByText('Rimborsata', { exact: true })).toBeVisible();
    await expect(items.nth(1).getByText('Gratuita', { exact: true })).toBeVisible();
    await expect(items.nth(1)).toContainText('palestra');
    await expect(items.nth(2).getByText('Pagata', { exact: true })).toBeVisible();
    await expect(region.getByRole('button', { name: 'Elimina' })).toHaveCount(0);
    await expect(statValue(page, 'Prenotazioni totali')).toHaveText('4');
    await expect(page.getByRole('button', { name: 'Nuova prenotazione' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('admins see a button to their area; logout goes back to the login screen', async ({ page }) => {
    const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: `Benvenuto, ${admin.nome} ${admin.cognome}` })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin', exact: true })).toHaveAttribute('href', '/dashboard-admin');

    // One tap: the page's buttons take taps only once its screen has hydrated (lib/started.ts).
    // Before, a tap between the start of hydration and the screen's own hydration was lost.
    await page.getByRole('button', { name: 'Esci' }).click();
    await expect(page).toHaveURL('/login');
    await expect(notice(page, 'Arrivederci!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
  });
});

test.describe('a page the server rendered takes taps once it has hydrated', () => {
  test('a tap at the very moment its buttons look live (data-started) logs out', async ({ page }) => {
    const resident = DEMO_ACCOUNTS.find((a) => a.ruolo === 'user')!;
    await loginViaForm(page, resident);
    await expect(page).toHaveURL('/dashboard');
    // The earliest tap a person can make: in the same moment `#root` gets `data-started` (before
    // it, styles.css keeps the buttons from taking the pointer). Until 2026-11-26 the attribute
    // came before React had hydrated the screen, and this tap did nothing (lib/started.ts).
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        const root = document.getElementById('root');
        if (!root?.hasAttribute('data-started')) return;
        observer.disconnect();
        [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Esci')?.click();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-started'] });
    });
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login');
    await expect(notice(page, 'Arrivederci!')).toBeVisible();
  });
});

test.describe('user dashboard on a phone (375 × 812)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the dashboard and the open form fit the width, header buttons included', async ({ page }) => {
    const admin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
    await loginViaForm(page, admin);
    await expect(page).toHaveURL('/admin');
    await page.goto('/dashboard');
    await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();
    await expectNoSidewaysScroll(page);
    for (const name of ['Admin', 'Esci']) {
      const box = (await page.getByRole('banner').getByRole(name === 'Admin' ? 'link' : 'button', { name, exact: true }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }

    // A bike numbered as long as the admin's form allows (20 wide letters) wraps in its card.
    const numero = `W${Date.now().toString(36).toUpperCase()}`.padEnd(20, 'W');
    const created = await page.request.post('/api/admin/biciclette', { data: { numero, modello: 'City Bike Classic' } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    try {
      await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
      await chooseWindow(page, await bookingDay(), '10:00', '12:00');
      await page.getByLabel(/Destinazione/).fill('palestra');
      await expect(page.getByRole('group', { name: 'Consigliate' }).getByRole('radio').first()).toBeVisible();
      await expect(page.getByRole('radio', { name: new RegExp(`^Bici ${numero}`) })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page);
    } finally {
      // Out of the other tests' way: offered to nobody from now on.
      await page.request.put(`/api/admin/biciclette/${id}`, { data: { stato: 'fuori_servizio' } });
    }
  });
});
