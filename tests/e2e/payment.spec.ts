import type { Page } from '@playwright/test';
import { openDay } from './database';
import { DEMO_ACCOUNTS, expect, expectNoSeriousA11yViolations, expectNoSidewaysScroll, loginViaForm, notice, test } from './fixtures';

/**
 * Payments with the simulated provider (the e2e server has no Stripe keys): the card form on
 * /payment/:id, the hosted checkout (/checkout/:id → /pagamento-simulato/… → /checkout-success),
 * and the messages of spec §8.
 *
 * Each paying test registers its own external user (one active booking per user) and books
 * its own window three days ahead, a day no other spec books: two workers share one server.
 */

/** The first day the rules allow from 3 days ahead (apart from the other specs' days). */
const bookingDay = () => openDay({ from: 3, windows: [{ orarioInizio: '09:00', orarioFine: '12:00' }] });

const CARD_OK = '4242 4242 4242 4242';
const CARD_DECLINED = '4000 0000 0000 0002';
/** A card valid until the end of next year, whatever today is. */
const EXPIRY = `12/${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;


/** A new external user (no sigla), logged in in the page's browser context. */
async function registerExternal(page: Page, label: string) {
  const email = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  const res = await page.request.post('/api/register', {
    data: { nome: 'Paola', cognome: 'Pagante', email, password: 'pagamenti-2026', siglaResidente: null },
  });
  expect(res.status()).toBe(201);
}

/** Books the first free bike for a window through the API; returns the booking id. */
async function bookThroughApi(page: Page, orarioInizio: string, orarioFine: string): Promise<number> {
  const window = { dataPrenotazione: await bookingDay(), orarioInizio, orarioFine };
  const bikes = await page.request.post('/api/biciclette/available', { data: window });
  expect(bikes.ok()).toBe(true);
  const [bike] = (await bikes.json()) as { id: number }[];
  expect(bike).toBeDefined();
  const res = await page.request.post('/api/prenotazioni', { data: { ...window, destinazione: '', biciId: bike!.id } });
  expect(res.status()).toBe(201);
  const booking = (await res.json()) as { id: number; paymentStatus: string };
  expect(booking.paymentStatus).toBe('pending');
  return booking.id;
}

async function paymentStatusOf(page: Page, id: number): Promise<string | null | undefined> {
  const res = await page.request.get('/api/prenotazioni/user');
  const bookings = (await res.json()) as { id: number; paymentStatus: string | null }[];
  return bookings.find((b) => b.id === id)?.paymentStatus;
}

async function fillCard(page: Page, number: string, expiry = EXPIRY, cvc = '123') {
  await page.getByLabel('Numero carta').fill(number);
  await page.getByLabel('Scadenza (MM/AA)').fill(expiry);
  await page.getByLabel('CVC').fill(cvc);
}

/** The booking's entry in the dashboard's active list. */
const activeBooking = (page: Page) =>
  page.getByRole('region', { name: 'Le tue prenotazioni attive' }).getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });

test.describe('card payment on a phone (375 × 812)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('an external user books, a declined card fails, 4242 4242 4242 4242 pays, and the dashboard says Pagata', async ({ page }, testInfo) => {
    test.slow();
    // With the simulated provider neither Stripe.js nor the Stripe Elements chunk is fetched.
    const stripeRequests: string[] = [];
    page.on('request', (request) => {
      if (/stripe/i.test(request.url())) stripeRequests.push(request.url());
    });
    await registerExternal(page, 'carta');

    // Books through the dashboard, as a person would.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Nuova prenotazione' }).click();
    await page.getByLabel('Data', { exact: true }).fill(await bookingDay());
    await page.getByLabel('Ora di inizio').fill('09:00');
    await page.getByLabel('Ora di fine').fill('10:00');
    await page.getByRole('group', { name: 'Bicicletta' }).getByRole('radio').first().check();
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/prenotazioni');
    await page.getByRole('button', { name: 'Prenota', exact: true }).click();
    const { id } = (await (await answer).json()) as { id: number };
    await expect(notice(page, 'Prenotazione creata!')).toBeVisible();

    // 'Paga 2,50 €' is a full page load (the payment page needs the server's own CSP).
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    // The intent is held back a little so that its loading text can be seen.
    await page.route('**/api/create-payment-intent', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await activeBooking(page).getByRole('link', { name: 'Paga 2,50 €' }).click();
    await expect(page).toHaveURL(`/payment/${id}`);
    await expect(page.getByText('Preparazione pagamento...')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Pagamento' })).toBeVisible();
    expect(await page.evaluate(() => '__sameDocument' in window)).toBe(false);
    await page.unroute('**/api/create-payment-intent');

    await expect(page.getByText(`Prenotazione n. ${id}`)).toBeVisible();
    await expect(page.getByText('2,50 €', { exact: true })).toBeVisible();
    await expect(page.getByText('Tariffa per utenti esterni')).toBeVisible();
    const hint = page.getByRole('note', { name: 'Pagamento di prova: nessun addebito reale' });
    await expect(hint).toContainText(CARD_OK);
    await expect(hint).toContainText(CARD_DECLINED);
    const number = page.getByLabel('Numero carta');
    await expect(number).toHaveAttribute('autocomplete', 'cc-number');
    await expect(number).toHaveAttribute('inputmode', 'numeric');
    await expect(page.getByLabel('Scadenza (MM/AA)')).toHaveAttribute('autocomplete', 'cc-exp');
    await expect(page.getByLabel('CVC')).toHaveAttribute('autocomplete', 'cc-csc');
    await expect(page.getByRole('link', { name: 'Preferisci la pagina di pagamento esterna?' })).toHaveAttribute(
      'href',
      `/checkout/${id}`,
    );
    await expect(page.getByRole('link', { name: 'Torna alla dashboard' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('payment-375.png'), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    // The form checks the card before asking the server.
    let confirmCalls = 0;
    page.on('request', (request) => {
      if (/\/api\/payments\/simulated\/intents\/.+\/confirm$/.test(new URL(request.url()).pathname)) confirmCalls += 1;
    });
    const pay = page.getByRole('button', { name: 'Paga', exact: true });
    await pay.click();
    await expect(page.getByText('Numero della carta non valido')).toBeVisible();
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(number).toHaveAccessibleDescription('Numero della carta non valido');
    await expect(page.getByText('Scadenza non valida: usa il formato MM/AA')).toBeVisible();
    await expect(page.getByText('CVC non valido')).toBeVisible();
    expect(confirmCalls).toBe(0);

    // An expiry already passed: the server's message, next to the field.
    await fillCard(page, CARD_OK, '01/20');
    await pay.click();
    await expect(page.getByText('La data di scadenza della carta è già passata')).toBeVisible();
    await expect(page.getByLabel('Scadenza (MM/AA)')).toBeFocused();
    expect(await paymentStatusOf(page, id)).toBe('pending');

    // A declined card: 'Pagamento Fallito' with the provider's message; nothing is paid.
    await fillCard(page, CARD_DECLINED);
    await pay.click();
    await expect(notice(page, 'Pagamento Fallito')).toContainText('La tua carta è stata rifiutata.');
    await expect(number).toBeFocused();
    await expect(pay).toBeEnabled();
    expect(await paymentStatusOf(page, id)).toBe('pending');
    await expectNoSeriousA11yViolations(page);

    // The booking is still payable from the dashboard.
    await page.getByRole('link', { name: 'Torna alla dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
    await expect(activeBooking(page).getByRole('link', { name: 'Paga 2,50 €' })).toBeVisible();
    await activeBooking(page).getByRole('link', { name: 'Paga 2,50 €' }).click();
    await expect(page).toHaveURL(`/payment/${id}`);

    // 4242…: paid, confirmed, and back to the dashboard after 3 s, where it says 'Pagata'.
    await fillCard(page, CARD_OK);
    await page.getByRole('button', { name: 'Paga', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Pagamento Completato!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pagamento Completato!' })).toBeFocused();
    await expect(page.getByRole('main').getByText('La tua prenotazione è stata confermata.')).toBeVisible();
    await expect(notice(page, 'Pagamento Completato!')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expect(page).toHaveURL('/dashboard', { timeout: 8_000 });
    await expect(activeBooking(page).getByText('Pagata', { exact: true })).toBeVisible();
    await expect(activeBooking(page).getByRole('link', { name: 'Paga 2,50 €' })).toHaveCount(0);
    expect(await paymentStatusOf(page, id)).toBe('completed');
    expect(stripeRequests).toEqual([]);
  });
});

test.describe('hosted checkout', () => {
  test('/checkout/<id> → the provider page → /checkout-success → the dashboard with Pagata', async ({ page }, testInfo) => {
    test.slow();
    await registerExternal(page, 'checkout');
    const id = await bookThroughApi(page, '11:00', '12:00');

    // From the card page, the link to the external page.
    await page.goto(`/payment/${id}`);
    await page.getByRole('link', { name: 'Preferisci la pagina di pagamento esterna?' }).click();
    await expect(page).toHaveURL(`/checkout/${id}`);
    await expect(page.getByText(`Prenotazione n. ${id}`)).toBeVisible();
    await expect(page.getByText('2,50 €', { exact: true })).toBeVisible();
    await expect(page.getByText('Tariffa per utenti esterni')).toBeVisible();
    // No sigla: back goes to /dashboard.
    await expect(page.getByRole('link', { name: 'Torna indietro' })).toHaveAttribute('href', '/dashboard');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Procedi al pagamento' }).click();
    await expect(page).toHaveURL(/\/pagamento-simulato\/cs_sim_[A-Za-z0-9]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Pagamento simulato BiciElis' })).toBeVisible();
    await expect(page).toHaveTitle('Pagamento simulato BiciElis');
    await expect(page.getByText(`Prenotazione n. ${id}`)).toBeVisible();
    const cancel = page.getByRole('link', { name: 'Annulla e torna a BiciElis' });
    expect(new URL((await cancel.getAttribute('href'))!, page.url()).pathname).toBe(`/checkout/${id}`);
    await expectNoSeriousA11yViolations(page);
    const providerPage = page.url();

    // The provider's page on a phone.
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('pagamento-simulato-375.png'), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    // A declined card on the provider's page too.
    await fillCard(page, CARD_DECLINED);
    await page.getByRole('button', { name: 'Paga 2,50 €' }).click();
    await expect(notice(page, 'Pagamento Fallito')).toContainText('La tua carta è stata rifiutata.');
    await expect(page).toHaveURL(/\/pagamento-simulato\//);
    expect(await paymentStatusOf(page, id)).toBe('pending');

    await fillCard(page, CARD_OK);
    await page.getByRole('button', { name: 'Paga 2,50 €' }).click();
    await expect(page).toHaveURL(/\/checkout-success(\?|$)/);
    await expect(page.getByRole('heading', { name: 'Pagamento completato' })).toBeVisible();
    await expect(page.getByText('Il pagamento di 2,50 € è andato a buon fine.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Back to the dashboard by itself after 5 s.
    await expect(page).toHaveURL('/dashboard', { timeout: 10_000 });
    await expect(activeBooking(page).getByText('Pagata', { exact: true })).toBeVisible();
    expect(await paymentStatusOf(page, id)).toBe('completed');

    // The provider's page of a paid session says so.
    await page.goto(providerPage);
    await expect(page.getByRole('heading', { name: 'Pagamento già completato' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Paga 2,50 €' })).toHaveCount(0);

    // Deleting the paid booking before its start refunds it; the dialog says so first.
    await page.goto('/dashboard');
    await activeBooking(page).getByRole('button', { name: 'Elimina', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('i 2,50 € pagati ti verranno rimborsati');
    await dialog.getByRole('button', { name: 'Elimina', exact: true }).click();
    await expect(notice(page, 'Prenotazione eliminata')).toBeVisible();
    await expect(notice(page, 'Prenotazione eliminata')).toContainText('Pagamento rimborsato: 2,50 €');
    await expect(page.getByText('Nessuna prenotazione attiva')).toBeVisible();
    expect(await paymentStatusOf(page, id)).toBe('refunded');
  });
});

test.describe('payment screens: edge cases', () => {
  test("/checkout without an id says 'ID prenotazione non trovato'; the provider page needs a login", async ({ page }) => {
    await page.goto('/checkout');
    await expect(page.getByRole('alert').filter({ hasText: 'ID prenotazione non trovato' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Torna indietro' })).toHaveAttribute('href', '/dashboard');
    await expectNoSeriousA11yViolations(page);

    await page.goto('/pagamento-simulato/cs_sim_abcdefgh12');
    await expect(page.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
    await expect(page).toHaveURL('/pagamento-simulato/cs_sim_abcdefgh12');
  });

  test("a booking that cannot be paid: 'Impossibile inizializzare il pagamento' and back to the dashboard", async ({ page }) => {
    const external = DEMO_ACCOUNTS.find((a) => a.sigla === null && a.ruolo === 'user')!;
    await loginViaForm(page, external);
    await expect(page).toHaveURL('/dashboard');

    await page.goto('/payment/2147483000');
    await expect(notice(page, 'Impossibile inizializzare il pagamento')).toBeVisible();
    await expect(page).toHaveURL('/dashboard');

    await page.goto('/payment/non-un-numero');
    await expect(notice(page, 'Impossibile inizializzare il pagamento')).toContainText('Prenotazione non valida');
    await expect(page).toHaveURL('/dashboard');

    await page.goto('/pagamento-simulato/cs_sim_abcdefgh12');
    await expect(page.getByRole('alert').filter({ hasText: 'Sessione di pagamento non trovata' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

/**
 * The Stripe branch of /payment, without the network: GET /api/config is answered as if Stripe
 * were configured, the intent and its confirmation are answered by the test, and `window.Stripe`
 * is a stand-in that loadStripe picks up instead of fetching js.stripe.com. It checks what the
 * page asks of Stripe.js (key, locale, client secret, confirmPayment's return_url) and what it
 * does with the answers.
 */
test.describe('card payment with Stripe Elements (Stripe.js stood in for)', () => {
  const bookingId = 4242;

  async function fakeStripe(page: Page) {
    await page.addInitScript(() => {
      const calls: unknown[][] = [];
      let confirmations = 0;
      Object.assign(window, { __stripeCalls: calls });
      const Stripe = (key: string, options: unknown) => {
        calls.push(['Stripe', key, options]);
        return {
          elements(elementsOptions: unknown) {
            calls.push(['elements', elementsOptions]);
            return {
              create(type: string) {
                calls.push(['create', type]);
                const handlers: Record<string, ((event: unknown) => void)[]> = {};
                return {
                  mount(node: HTMLElement) {
                    const label = document.createElement('p');
                    label.textContent = 'Modulo della carta di Stripe (finto)';
                    node.append(label);
                    setTimeout(() => handlers.ready?.forEach((h) => h({ elementType: type })), 50);
                  },
                  on(event: string, handler: (event: unknown) => void) {
                    (handlers[event] ??= []).push(handler);
                  },
                  off() {},
                  update() {},
                  destroy() {},
                  unmount() {},
                };
              },
              update() {},
              getElement() {
                return null;
              },
            };
          },
          async confirmPayment(args: { redirect: string; confirmParams: { return_url: string } }) {
            calls.push(['confirmPayment', args.redirect, args.confirmParams.return_url]);
            confirmations += 1;
            return confirmations === 1
              ? { error: { type: 'card_error', message: 'La tua carta è stata rifiutata (Stripe).' } }
              : { paymentIntent: { id: 'pi_fake_123', status: 'succeeded' } };
          },
          createToken() {},
          createPaymentMethod() {},
          confirmCardPayment() {},
          _registerWrapper() {},
          registerAppInfo() {},
        };
      };
      Object.assign(Stripe, { version: 'endive' });
      Object.assign(window, { Stripe });
    });
  }

  /** Config says Stripe; the intent and its confirmation are answered here. Returns the confirmations sent. */
  async function stripeServer(page: Page) {
    const confirmations: unknown[] = [];
    await page.route('**/api/config', async (route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      await route.fulfill({ json: { ...real, payment: { provider: 'stripe', publishableKey: 'pk_test_finto' } } });
    });
    await page.route('**/api/create-payment-intent', (route) =>
      route.fulfill({ json: { clientSecret: 'pi_fake_123_secret_abc', paymentIntentId: 'pi_fake_123', amount: 250, currency: 'eur' } }),
    );
    await page.route('**/api/confirm-payment', async (route) => {
      confirmations.push(route.request().postDataJSON());
      await route.fulfill({ json: { bookingId, paymentStatus: 'completed' } });
    });
    return confirmations;
  }

  test('loads Stripe Elements only then, shows its error, confirms a succeeded intent with the server', async ({ page }) => {
    const external = DEMO_ACCOUNTS.find((a) => a.sigla === null && a.ruolo === 'user')!;
    await loginViaForm(page, external);
    await expect(page).toHaveURL('/dashboard');
    await fakeStripe(page);
    const confirmations = await stripeServer(page);
    const chunk = page.waitForRequest((r) => /\/assets\/stripe-payment-[^/]+\.js$/.test(new URL(r.url()).pathname));

    await page.goto(`/payment/${bookingId}`);
    await chunk;
    await expect(page.getByText('Modulo della carta di Stripe (finto)')).toBeVisible();
    await expect(page.getByText('2,50 €', { exact: true })).toBeVisible();
    // No test-card hint and no simulated form with Stripe.
    await expect(page.getByLabel('Numero carta')).toHaveCount(0);
    const pay = page.getByRole('button', { name: 'Paga', exact: true });
    await expect(pay).toBeEnabled();
    await expectNoSeriousA11yViolations(page);

    await pay.click();
    await expect(notice(page, 'Pagamento Fallito')).toContainText('La tua carta è stata rifiutata (Stripe).');
    expect(confirmations).toEqual([]);

    await pay.click();
    await expect(page.getByRole('heading', { name: 'Pagamento Completato!' })).toBeVisible();
    expect(confirmations).toEqual([{ paymentIntentId: 'pi_fake_123', bookingId }]);

    const recorded = (await page.evaluate(() => (window as unknown as { __stripeCalls: unknown[][] }).__stripeCalls)) as unknown[][];
    // <Elements> asks Stripe.js for its elements group while rendering: a render React starts
    // over (another update came first) asks again, and the group first made is never used
    // (one `create`, one form). Repeats in a row are counted once.
    const calls = recorded.filter((call, i) => i === 0 || call[0] !== 'elements' || recorded[i - 1]![0] !== 'elements');
    const origin = new URL(page.url()).origin;
    expect(calls).toEqual([
      ['Stripe', 'pk_test_finto', { locale: 'it' }],
      ['elements', expect.objectContaining({ clientSecret: 'pi_fake_123_secret_abc', locale: 'it' })],
      ['create', 'payment'],
      ['confirmPayment', 'if_required', `${origin}/payment/${bookingId}`],
      ['confirmPayment', 'if_required', `${origin}/payment/${bookingId}`],
    ]);
    await expect(page).toHaveURL('/dashboard', { timeout: 8_000 });
  });

  test('back from a redirect-based method: the succeeded intent is confirmed and the address cleaned', async ({ page }) => {
    const external = DEMO_ACCOUNTS.find((a) => a.sigla === null && a.ruolo === 'user')!;
    await loginViaForm(page, external);
    await expect(page).toHaveURL('/dashboard');
    await fakeStripe(page);
    const confirmations = await stripeServer(page);

    await page.goto(`/payment/${bookingId}?payment_intent=pi_fake_123&payment_intent_client_secret=pi_fake_123_secret_abc&redirect_status=succeeded`);
    await expect(page.getByRole('heading', { name: 'Pagamento Completato!' })).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
    expect(confirmations).toEqual([{ paymentIntentId: 'pi_fake_123', bookingId }]);
  });
});
