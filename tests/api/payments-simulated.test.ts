import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase } from '../../src/server/db/client.js';
import { seedDemo } from '../../src/server/seed/seed.js';
import { providerEvents, simulatedCheckoutSessions, simulatedPaymentIntents, simulatedRefunds } from '../../src/server/schema.js';
import type { SimulatedProvider } from '../../src/server/integrations/payments/simulated-provider.js';
import { tFor } from '../../src/shared/i18n/all.js';
import { createLogger } from '../../src/server/logger.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import {
  addBike,
  bookingOf,
  bookThroughApi,
  countRows,
  paymentOf,
  sessionUser,
  truncatePaymentTables,
  type SessionedUser,
} from '../helpers/booking-fixtures.js';
import { loginAs } from '../helpers/factories.js';
import { stripeEvent } from '../helpers/fake-stripe.js';

let ctx: TestContext;
const MINUTE = 60_000;
const VISA = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  await truncatePaymentTables(ctx.database.db);
});

const provider = () => ctx.app.deps.payments as SimulatedProvider;
const post = (u: SessionedUser, url: string, payload?: object) =>
  ctx.app.inject({ method: 'POST', url, headers: { cookie: u.cookie }, ...(payload ? { payload } : {}) });
const get = (u: SessionedUser, url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: u.cookie } });
const confirmCard = (u: SessionedUser, intent: { paymentIntentId: string; clientSecret: string }, card: object = VISA) =>
  post(u, `/api/payments/simulated/intents/${intent.paymentIntentId}/confirm`, { clientSecret: intent.clientSecret, ...card });

async function bookingWithIntent() {
  const u = await sessionUser(ctx);
  const bookingId = await bookThroughApi(ctx.app, u, await addBike(ctx.database.db));
  const res = await post(u, '/api/create-payment-intent', { bookingId });
  expect(res.statusCode).toBe(200);
  return { u, bookingId, intent: res.json() as { paymentIntentId: string; clientSecret: string; amount: number; currency: string } };
}

async function bookingWithSession() {
  const u = await sessionUser(ctx);
  const bookingId = await bookThroughApi(ctx.app, u, await addBike(ctx.database.db));
  const res = await post(u, `/api/external-bookings/${bookingId}/payment`);
  expect(res.statusCode).toBe(200);
  const sessionId = /\/pagamento-simulato\/(cs_sim_\w+)$/.exec(res.json().paymentUrl)![1]!;
  return { u, bookingId, sessionId, paymentUrl: res.json().paymentUrl as string };
}

describe('the simulated provider is the default', () => {
  it('/api/config says so', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json().payment).toEqual({ provider: 'simulated', publishableKey: null });
  });

  it('its intents look like Stripe’s', async () => {
    const { intent } = await bookingWithIntent();
    expect(intent).toEqual({
      paymentIntentId: expect.stringMatching(/^pi_sim_[0-9a-f]{24}$/),
      clientSecret: expect.stringMatching(/^pi_sim_[0-9a-f]{24}_secret_[0-9a-f]{32}$/),
      amount: 250,
      currency: 'eur',
    });
    expect(intent.clientSecret.startsWith(intent.paymentIntentId)).toBe(true);
  });
});

describe('the card form (what Stripe.js does)', () => {
  it.each([['4242 4242 4242 4242'], ['5555555555554444']])('%s succeeds: the event reaches the webhook handler and the booking is paid', async (cardNumber) => {
    const { u, bookingId, intent } = await bookingWithIntent();
    const res = await confirmCard(u, intent, { ...VISA, cardNumber });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ paymentIntentId: intent.paymentIntentId, status: 'succeeded' });
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'completed', providerPaymentId: intent.paymentIntentId, provider: 'simulated' });
    const events = await ctx.database.db.select().from(providerEvents);
    expect(events).toEqual([expect.objectContaining({ id: expect.stringMatching(/^evt_sim_/), provider: 'simulated', type: 'payment_intent.succeeded' })]);
    // The page then calls confirm-payment, as with Stripe: the same answer.
    const confirmed = await post(u, '/api/confirm-payment', { bookingId, paymentIntentId: intent.paymentIntentId });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ bookingId, paymentStatus: 'completed' });
    // Confirming the card again changes nothing and sends no second event.
    expect((await confirmCard(u, intent)).statusCode).toBe(200);
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(1);
  });

  it.each([
    ['4000 0000 0000 0002', 'La tua carta è stata rifiutata.', 'card_declined', 'generic_decline'],
    ['4000000000009995', 'Fondi insufficienti sulla carta.', 'card_declined', 'insufficient_funds'],
    ['4000000000000069', 'La carta è scaduta.', 'expired_card', undefined],
    ['4000000000000127', 'Il codice di sicurezza (CVC) non è corretto.', 'incorrect_cvc', undefined],
    ['4000056655665556', tFor('it')('paymentsApi.notATestCard'), 'card_declined', 'test_mode_live_card'],
  ])('%s is declined with 402 and an Italian message; nothing else changes', async (cardNumber, message, code, declineCode) => {
    const { u, bookingId, intent } = await bookingWithIntent();
    const res = await confirmCard(u, intent, { ...VISA, cardNumber });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message, code, ...(declineCode ? { declineCode } : {}) });
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'pending' });
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(0);
    const [row] = await ctx.database.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, intent.paymentIntentId));
    expect(row).toMatchObject({ status: 'requires_payment_method', lastErrorCode: code });
    // A good card afterwards still works.
    expect((await confirmCard(u, intent)).statusCode).toBe(200);
  });

  it.each([
    [{ cardNumber: '4242 4242 4242 4241' }, 'cardNumber', 'Numero della carta non valido'],
    [{ cardNumber: '4242' }, 'cardNumber', 'Numero della carta non valido'],
    [{ expiry: '10/26' }, 'expiry', 'La data di scadenza della carta è già passata'],
    [{ expiry: '13/30' }, 'expiry', 'Scadenza non valida: usa il formato MM/AA'],
    [{ expiry: '1230' }, 'expiry', 'Scadenza non valida: usa il formato MM/AA'],
    [{ cvc: '12' }, 'cvc', 'CVC non valido'],
    [{ cvc: '1234' }, 'cvc', 'Il CVC deve avere 3 cifre'],
    [{ cvc: 'abc' }, 'cvc', 'CVC non valido'],
  ])('refuses %j with 400 (%s)', async (override, field, message) => {
    const { u, bookingId, intent } = await bookingWithIntent();
    const res = await confirmCard(u, intent, { ...VISA, ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().fields).toMatchObject({ [field]: message });
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
  });

  it('a card expiring this month is still good', async () => {
    const { u, intent } = await bookingWithIntent();
    expect((await confirmCard(u, intent, { ...VISA, expiry: '11/26' })).statusCode).toBe(200);
  });

  it('needs the intent’s client secret, and its owner', async () => {
    const { u, bookingId, intent } = await bookingWithIntent();
    const wrong = await confirmCard(u, { ...intent, clientSecret: `${intent.paymentIntentId}_secret_nope` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_CLIENT_SECRET');
    const stranger = await sessionUser(ctx);
    const foreign = await confirmCard(stranger, intent);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Pagamento non trovato');
    const unknown = await confirmCard(u, { paymentIntentId: 'pi_sim_000000000000000000000000', clientSecret: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
    const anonymous = await ctx.app.inject({ method: 'POST', url: `/api/payments/simulated/intents/${intent.paymentIntentId}/confirm`, payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a payment after the hold ran out is refunded by the simulated provider', async () => {
    const { u, bookingId, intent } = await bookingWithIntent();
    ctx.clock.advance(31 * MINUTE);
    expect((await confirmCard(u, intent)).statusCode).toBe(200); // the card was charged...
    expect(await bookingOf(ctx.database.db, bookingId)).toMatchObject({ stato: 'cancellata' });
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'refunded' }); // ...and refunded
    const refunds = await ctx.database.db.select().from(simulatedRefunds);
    expect(refunds).toEqual([expect.objectContaining({ paymentIntentId: intent.paymentIntentId, amount: 250 })]);
    const res = await post(u, '/api/confirm-payment', { bookingId, paymentIntentId: intent.paymentIntentId });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('PAYMENT_REFUNDED');
    expect(await countRows(ctx.database.db, 'simulated_refunds')).toBe(1);
  });

  it('cancelling a paid booking refunds it through the simulated provider', async () => {
    const { u, bookingId, intent } = await bookingWithIntent();
    await confirmCard(u, intent);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${bookingId}`, headers: { cookie: u.cookie } });
    expect(res.json()).toMatchObject({ stato: 'cancellata', paymentStatus: 'refunded' });
    expect(await countRows(ctx.database.db, 'simulated_refunds')).toBe(1);
  });
});

describe('the hosted checkout page', () => {
  it('shows the session and, paid with 4242…, sends the payer to /checkout-success with the booking paid', async () => {
    const { u, bookingId, sessionId, paymentUrl } = await bookingWithSession();
    expect(paymentUrl).toBe(`http://localhost:3000/pagamento-simulato/${sessionId}`);
    const shown = await get(u, `/api/payments/simulated/checkout/${sessionId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      id: sessionId,
      bookingId,
      amount: 250,
      currency: 'eur',
      status: 'open',
      cancelUrl: `http://localhost:3000/checkout/${bookingId}`,
    });
    // Asking for the checkout again gives the same page.
    expect((await post(u, `/api/external-bookings/${bookingId}/payment`)).json().paymentUrl).toBe(paymentUrl);

    const paid = await post(u, `/api/payments/simulated/checkout/${sessionId}/pay`, VISA);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ redirectUrl: `http://localhost:3000/checkout-success?session_id=${sessionId}` });
    const payment = await paymentOf(ctx.database.db, bookingId);
    expect(payment).toMatchObject({ status: 'completed', providerCheckoutId: sessionId, providerPaymentId: expect.stringMatching(/^pi_sim_/) });
    const types = (await ctx.database.db.select().from(providerEvents)).map((e) => e.type).sort();
    expect(types).toEqual(['checkout.session.completed', 'payment_intent.succeeded']);
    expect((await get(u, `/api/payments/simulated/checkout/${sessionId}`)).json().status).toBe('complete');
    // Paying again only answers where to go.
    expect((await post(u, `/api/payments/simulated/checkout/${sessionId}/pay`, VISA)).json()).toEqual(paid.json());
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(2);
    expect(await countRows(ctx.database.db, 'simulated_payment_intents')).toBe(1);
  });

  it('a declined card answers 402 and leaves the session open', async () => {
    const { u, bookingId, sessionId } = await bookingWithSession();
    const res = await post(u, `/api/payments/simulated/checkout/${sessionId}/pay`, { ...VISA, cardNumber: '4000000000000002' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: 'La tua carta è stata rifiutata.', code: 'card_declined' });
    expect((await get(u, `/api/payments/simulated/checkout/${sessionId}`)).json().status).toBe('open');
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
  });

  it('another user’s session is 404, to see and to pay', async () => {
    const { sessionId } = await bookingWithSession();
    const stranger = await sessionUser(ctx);
    const seen = await get(stranger, `/api/payments/simulated/checkout/${sessionId}`);
    const paid = await post(stranger, `/api/payments/simulated/checkout/${sessionId}/pay`, VISA);
    for (const res of [seen, paid]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Sessione di pagamento non trovata');
    }
    expect(await countRows(ctx.database.db, 'simulated_payment_intents')).toBe(0);
  });

  it('an expired session cannot be paid', async () => {
    const { u, sessionId } = await bookingWithSession();
    ctx.clock.advance(32 * MINUTE);
    expect((await get(u, `/api/payments/simulated/checkout/${sessionId}`)).json().status).toBe('expired');
    const res = await post(u, `/api/payments/simulated/checkout/${sessionId}/pay`, VISA);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('SESSION_EXPIRED');
    const [row] = await ctx.database.db.select().from(simulatedCheckoutSessions);
    expect(row!.status).toBe('open');
  });
});

describe('its webhook signature', () => {
  it('is one secret in the database, shared by every app process on it', async () => {
    const other = connectDatabase(ctx.database.url, { max: 2 });
    const appB = await buildApp({ config: ctx.config, database: other, clock: ctx.clock, logger: false });
    try {
      const secretA = await provider().signingSecret();
      const secretB = await (appB.deps.payments as SimulatedProvider).signingSecret();
      expect(secretA).toMatch(/^whsec_sim_[0-9a-f]{64}$/);
      expect(secretB).toBe(secretA);
      // An event signed with it is accepted by the route of either process...
      const { bookingId, intent } = await bookingWithIntent();
      await ctx.database.db.update(simulatedPaymentIntents).set({ status: 'succeeded', succeededAt: TEST_NOW }).where(eq(simulatedPaymentIntents.id, intent.paymentIntentId));
      const event = stripeEvent('payment_intent.succeeded', {
        id: intent.paymentIntentId,
        object: 'payment_intent',
        amount: 250,
        currency: 'eur',
        status: 'succeeded',
        metadata: { bookingId: String(bookingId) },
      });
      const payload = JSON.stringify(event);
      const res = await appB.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: secretA }) },
        payload,
      });
      expect(res.statusCode).toBe(200);
      expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('completed');
    } finally {
      await appB.close();
      await other.close();
    }
  });

  it('...and an event signed with anything else is refused', async () => {
    const { bookingId, intent } = await bookingWithIntent();
    const payload = JSON.stringify(
      stripeEvent('payment_intent.succeeded', { id: intent.paymentIntentId, object: 'payment_intent', amount: 250, currency: 'eur', status: 'succeeded', metadata: { bookingId: String(bookingId) } }),
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_guess' }) },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Firma non valida');
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
  });
});

describe('demo data', () => {
  it('the demo external account can book and pay right after start-up', async () => {
    await seedDemo(ctx.database.db, createLogger('silent'), undefined, { now: ctx.clock.now(), timeZone: 'Europe/Rome' });
    const cookie = await loginAs(ctx.app, 'esterno@bicielis.demo', 'esterno-demo-2026');
    const u = { id: 0, cookie };
    const bikes = (await get(u, '/api/biciclette')).json() as { id: number }[];
    const booked = await post(u, '/api/prenotazioni', { dataPrenotazione: '2026-11-22', orarioInizio: '10:00', orarioFine: '12:00', biciId: bikes[0]!.id });
    expect(booked.statusCode).toBe(201);
    expect(booked.json().paymentStatus).toBe('pending');
    const intent = (await post(u, '/api/create-payment-intent', { bookingId: booked.json().id })).json();
    expect((await confirmCard(u, intent)).statusCode).toBe(200);
    const mine = await get(u, '/api/prenotazioni/user');
    expect(mine.json()[0]).toMatchObject({ id: booked.json().id, paymentStatus: 'completed' });
  });
});
