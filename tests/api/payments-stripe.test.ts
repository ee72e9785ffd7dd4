import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { connectDatabase, type Database } from '../../src/server/db/client.js';
import { pagamenti, providerEvents } from '../../src/server/schema.js';
import { applyLifecycle } from '../../src/server/modules/bookings/lifecycle.js';
import { tFor } from '../../src/shared/i18n/all.js';
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
import { FakeStripe, signedEvent, stripeEvent, WEBHOOK_SECRET, type FakeIntent } from '../helpers/fake-stripe.js';

/** A refusal's Italian, as the catalogue renders its key. */
const italian = tFor('it');

let fake: FakeStripe;
let ctx: TestContext;
const MINUTE = 60_000;

const stripeEnv = () => ({
  STRIPE_SECRET_KEY: 'sk_test_bicielis',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_bicielis',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
});

beforeAll(async () => {
  fake = await FakeStripe.start();
  ctx = await createTestApp({ env: stripeEnv() });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(async () => {
  ctx.clock.set(TEST_NOW);
  fake.reset();
  await truncatePaymentTables(ctx.database.db);
});

const post = (u: SessionedUser, url: string, payload?: object, app: FastifyInstance = ctx.app) =>
  app.inject({ method: 'POST', url, headers: { cookie: u.cookie }, ...(payload ? { payload } : {}) });
const createIntent = (u: SessionedUser, bookingId: number, app?: FastifyInstance) =>
  post(u, '/api/create-payment-intent', { bookingId }, app);
const confirm = (u: SessionedUser, bookingId: number, paymentIntentId: string) =>
  post(u, '/api/confirm-payment', { bookingId, paymentIntentId });
const checkout = (u: SessionedUser, bookingId: number) => post(u, `/api/external-bookings/${bookingId}/payment`);

function deliver(event: unknown, options: { signature?: string | null; secret?: string; body?: string } = {}) {
  const signed = signedEvent(event, options.secret);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  const signature = options.signature === undefined ? signed.signature : options.signature;
  if (signature !== null) headers['stripe-signature'] = signature;
  return ctx.app.inject({ method: 'POST', url: '/api/payments/webhook', headers, payload: options.body ?? signed.payload });
}
const intentSucceeded = (intent: FakeIntent, id?: string) => stripeEvent('payment_intent.succeeded', intent, id);

/** An external user with a pending booking (tomorrow 10:00–12:00). */
async function pendingBooking() {
  const u = await sessionUser(ctx);
  const bookingId = await bookThroughApi(ctx.app, u, await addBike(ctx.database.db));
  return { u, bookingId };
}

/** A pending booking with its intent created through the API. */
async function bookingWithIntent() {
  const { u, bookingId } = await pendingBooking();
  const res = await createIntent(u, bookingId);
  expect(res.statusCode).toBe(200);
  return { u, bookingId, intentId: res.json().paymentIntentId as string };
}

async function paidBooking() {
  const b = await bookingWithIntent();
  fake.succeed(b.intentId);
  expect((await confirm(b.u, b.bookingId, b.intentId)).statusCode).toBe(200);
  return b;
}

describe('the payment routes', () => {
  it('need a login, except the webhook', async () => {
    for (const url of ['/api/create-payment-intent', '/api/confirm-payment', '/api/external-bookings/1/payment']) {
      const res = await ctx.app.inject({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe('Non autenticato');
    }
    const hook = await ctx.app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(hook.statusCode).toBe(400);
  });

  it('the simulated provider’s routes do not exist with Stripe configured', async () => {
    const u = await sessionUser(ctx);
    const card = { cardNumber: '4242424242424242', expiry: '12/30', cvc: '123' };
    const confirmRes = await post(u, '/api/payments/simulated/intents/pi_sim_abcdefgh12345678/confirm', { ...card, clientSecret: 'x' });
    const get = await ctx.app.inject({ method: 'GET', url: '/api/payments/simulated/checkout/cs_sim_abcdefgh12345678', headers: { cookie: u.cookie } });
    const pay = await post(u, '/api/payments/simulated/checkout/cs_sim_abcdefgh12345678/pay', card);
    for (const res of [confirmRes, get, pay]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Risorsa non trovata', code: 'NOT_FOUND' });
    }
  });

  it('/api/config names Stripe and its publishable key, never the secrets', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json().payment).toEqual({ provider: 'stripe', publishableKey: 'pk_test_bicielis' });
    expect(res.body).not.toMatch(/sk_test|whsec_/);
  });
});

describe('create-payment-intent', () => {
  it('makes a 2.50 EUR card PaymentIntent for the booking, whatever the client sends', async () => {
    const { u, bookingId } = await pendingBooking();
    const res = await post(u, '/api/create-payment-intent', { bookingId, amount: 1, currency: 'usd' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ clientSecret: expect.stringMatching(/^pi_fake_\w+_secret_\w+$/), paymentIntentId: expect.any(String), amount: 250, currency: 'eur' });
    const [request] = fake.requestsTo('POST', '/v1/payment_intents');
    expect(request!.body).toMatchObject({
      amount: '250',
      currency: 'eur',
      allowed_payment_method_types: ['card'],
      metadata: { bookingId: String(bookingId), site: 'http://localhost:3000' },
    });
    expect(request!.idempotencyKey).toMatch(new RegExp(`^bicielis-pi-${bookingId}-`));
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ providerPaymentId: body.paymentIntentId, provider: 'stripe', status: 'pending' });
  });

  it('reuses the booking’s open intent', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    const again = await createIntent(u, bookingId);
    expect(again.json().paymentIntentId).toBe(intentId);
    expect(again.json().clientSecret).toBe(fake.intents.get(intentId)!.client_secret);
    expect(fake.requestsTo('POST', '/v1/payment_intents')).toHaveLength(1);
  });

  it('an intent that succeeded without news (webhook lost) is settled, not replaced', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    fake.succeed(intentId);
    const res = await createIntent(u, bookingId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: italian('paymentsApi.alreadyPaid'), code: 'ALREADY_PAID' });
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'completed', providerPaymentId: intentId });
    expect(fake.intents.size).toBe(1);
  });

  it('a cancelled intent is replaced by a new one', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    fake.intents.get(intentId)!.status = 'canceled';
    const res = await createIntent(u, bookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json().paymentIntentId).not.toBe(intentId);
    expect((await paymentOf(ctx.database.db, bookingId))!.providerPaymentId).toBe(res.json().paymentIntentId);
  });

  it('ten at once, on two app processes, make one intent', async () => {
    const { u, bookingId } = await pendingBooking();
    // Another app process on the same database: the in-process queue does not cover it,
    // the payment row's lock does.
    const other: Database = connectDatabase(ctx.database.url, { max: 5 });
    const appB = await buildApp({ config: ctx.config, database: other, clock: ctx.clock, logger: false });
    try {
      // Warm both pools first, so the ten really run side by side (no connection to open).
      const list = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: u.cookie } });
      await Promise.all(Array.from({ length: 10 }, (_, i) => list(i % 2 === 0 ? ctx.app : appB)));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => createIntent(u, bookingId, i % 2 === 0 ? ctx.app : appB)),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      expect(new Set(results.map((r) => r.json().paymentIntentId)).size).toBe(1);
      expect(fake.intents.size).toBe(1);
    } finally {
      await appB.close();
      await other.close();
    }
  });

  it('a resident has nothing to pay; another user’s or a missing booking is 404', async () => {
    const resident = await sessionUser(ctx, { residente: true });
    const free = await bookThroughApi(ctx.app, resident, await addBike(ctx.database.db));
    for (const res of [await createIntent(resident, free), await checkout(resident, free), await confirm(resident, free, 'pi_whatever')]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'NO_PAYMENT_REQUIRED', message: expect.stringContaining('residenti') });
    }
    const { bookingId } = await pendingBooking();
    const stranger = await sessionUser(ctx);
    for (const res of [
      await createIntent(stranger, bookingId),
      await checkout(stranger, bookingId),
      await confirm(stranger, bookingId, 'pi_whatever'),
      await createIntent(stranger, 999_999),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Prenotazione non trovata');
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a booking released by its hold or cancelled, with a clear message', async () => {
    const { u, bookingId } = await pendingBooking();
    ctx.clock.advance(30 * MINUTE);
    const late = await createIntent(u, bookingId);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'HOLD_EXPIRED', message: expect.stringContaining('scaduto') });

    ctx.clock.set(TEST_NOW);
    const other = await pendingBooking();
    await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${other.bookingId}`, headers: { cookie: other.u.cookie } });
    const cancelled = await checkout(other.u, other.bookingId);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json()).toMatchObject({ code: 'BOOKING_NOT_ACTIVE', message: 'Questa prenotazione è stata annullata e non può più essere pagata' });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers 502 in Italian when Stripe cannot be reached', async () => {
    const { u, bookingId } = await pendingBooking();
    const down = await FakeStripe.start();
    await down.close();
    const appDown = await buildApp({
      config: { ...ctx.config, stripe: { ...ctx.config.stripe!, apiUrl: down.url } },
      database: ctx.database,
      clock: ctx.clock,
      logger: false,
    });
    try {
      const res = await createIntent(u, bookingId, appDown);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: 'Il servizio di pagamento non risponde: riprova tra qualche istante' });
      expect((await paymentOf(ctx.database.db, bookingId))!.providerPaymentId).toBeNull();
    } finally {
      await appDown.close();
    }
  });
});

describe('confirm-payment', () => {
  it('marks the booking paid once the intent succeeded; a second call answers the same', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    fake.succeed(intentId);
    const res = await confirm(u, bookingId, intentId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ bookingId, paymentStatus: 'completed' });
    const paid = await paymentOf(ctx.database.db, bookingId);
    expect(paid).toMatchObject({ status: 'completed', providerPaymentId: intentId, completedAt: TEST_NOW });
    ctx.clock.advance(MINUTE);
    const again = await confirm(u, bookingId, intentId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ bookingId, paymentStatus: 'completed' });
    expect((await paymentOf(ctx.database.db, bookingId))!.completedAt).toEqual(TEST_NOW);
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: u.cookie } });
    expect(mine.json()[0]).toMatchObject({ id: bookingId, stato: 'attiva', paymentStatus: 'completed' });
    expect(fake.refunds).toHaveLength(0);
  });

  describe('refuses a forged or unfinished payment and changes nothing', () => {
    const cases: [string, (b: { bookingId: number; intentId: string; other: number }) => string, number, string][] = [
      ['an unknown intent', () => 'pi_doesnotexist', 400, italian('paymentsApi.paymentNotFound')],
      ['a malformed id', () => '../../v1/refunds', 400, italian('paymentsApi.paymentNotFound')],
      ['another booking’s intent', ({ other }) => fake.addIntent({ metadata: { bookingId: String(other) } }).id, 400, italian('paymentsApi.otherBooking')],
      ['an intent without booking', () => fake.addIntent().id, 400, italian('paymentsApi.otherBooking')],
      [
        'another installation’s intent for the same booking number',
        ({ bookingId }) => fake.addIntent({ metadata: { bookingId: String(bookingId), site: 'https://staging.example' } }).id,
        400,
        italian('paymentsApi.otherBooking'),
      ],
      ['an intent for another amount', ({ intentId }) => fake.setAmount(fake.succeed(intentId).id, 100).id, 400, italian('paymentsApi.wrongAmount')],
      [
        'an intent in another currency',
        ({ bookingId }) => fake.addIntent({ currency: 'usd', metadata: { bookingId: String(bookingId) } }).id,
        400,
        italian('paymentsApi.wrongAmount'),
      ],
      ['an intent not succeeded', ({ intentId }) => intentId, 409, italian('paymentsApi.notSucceeded')],
    ];
    it.each(cases)('%s', async (_name, forge, status, message) => {
      const { u, bookingId, intentId } = await bookingWithIntent();
      const other = (await pendingBooking()).bookingId;
      const res = await confirm(u, bookingId, forge({ bookingId, intentId, other }));
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
      expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'pending', providerPaymentId: intentId, completedAt: null });
      const mine = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: u.cookie } });
      expect(mine.json()[0].paymentStatus).toBe('pending');
      expect(fake.refunds).toHaveLength(0);
    });
  });

  it('paying twice makes one payment: the second is refunded', async () => {
    const { u, bookingId, intentId } = await paidBooking();
    expect((await createIntent(u, bookingId)).json()).toMatchObject({ message: italian('paymentsApi.alreadyPaid'), code: 'ALREADY_PAID' });
    expect((await checkout(u, bookingId)).statusCode).toBe(409);
    // A second payment for the same booking reached Stripe anyway (another tab, another device).
    const second = fake.addIntent({ metadata: { bookingId: String(bookingId) } });
    const res = await confirm(u, bookingId, second.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: italian('paymentsApi.duplicateRefunded'), code: 'ALREADY_PAID' });
    expect(fake.refunds.map((r) => r.payment_intent)).toEqual([second.id]);
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'completed', providerPaymentId: intentId });
    // Its webhook, later: nothing more.
    expect((await deliver(intentSucceeded(second))).statusCode).toBe(200);
    expect(fake.refunds).toHaveLength(1);
    expect(await countRows(ctx.database.db, 'pagamenti')).toBe(1);
  });
});

describe('the webhook', () => {
  it('applies a signed payment_intent.succeeded once, even delivered three times', async () => {
    const { bookingId, intentId } = await bookingWithIntent();
    const event = intentSucceeded(fake.succeed(intentId));
    const answers = [];
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(MINUTE);
      answers.push(await deliver(event));
    }
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json())).toEqual([{ received: true }, { received: true, duplicate: true }, { received: true, duplicate: true }]);
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({
      status: 'completed',
      providerPaymentId: intentId,
      completedAt: new Date(TEST_NOW.getTime() + MINUTE),
    });
    const events = await ctx.database.db.select().from(providerEvents);
    expect(events).toEqual([expect.objectContaining({ id: event.id, provider: 'stripe', type: 'payment_intent.succeeded' })]);
  });

  it('the same event delivered three times at once applies once', async () => {
    const { bookingId, intentId } = await bookingWithIntent();
    const event = intentSucceeded(fake.succeed(intentId));
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().duplicate)).toHaveLength(2);
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(1);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('completed');
  });

  it.each([
    ['a wrong secret', { secret: 'whsec_someone_else' }],
    ['no signature', { signature: null }],
    ['a garbled signature', { signature: 't=1,v1=deadbeef' }],
    ['a body changed after signing', { body: 'CHANGED' }],
  ] as const)('refuses %s with 400 and changes nothing', async (_name, options) => {
    const { bookingId, intentId } = await bookingWithIntent();
    const event = intentSucceeded(fake.succeed(intentId));
    const body = 'body' in options ? JSON.stringify(event).replace(intentId, 'pi_other') : undefined;
    const res = await deliver(event, { ...options, ...(body ? { body } : {}) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Firma non valida', code: 'INVALID_SIGNATURE' });
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(0);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
  });

  it('is not blocked by the cross-origin check (no Origin header)', async () => {
    const { intentId } = await bookingWithIntent();
    const res = await deliver(intentSucceeded(fake.succeed(intentId)));
    expect(res.statusCode).toBe(200);
  });

  it('webhook then confirm-payment, or confirm-payment then webhook: one completion', async () => {
    for (const order of ['webhook first', 'confirm first'] as const) {
      ctx.clock.set(TEST_NOW);
      const { u, bookingId, intentId } = await bookingWithIntent();
      const event = intentSucceeded(fake.succeed(intentId));
      const first = order === 'webhook first' ? await deliver(event) : await confirm(u, bookingId, intentId);
      ctx.clock.advance(MINUTE);
      const second = order === 'webhook first' ? await confirm(u, bookingId, intentId) : await deliver(event);
      expect([first.statusCode, second.statusCode], order).toEqual([200, 200]);
      expect(await paymentOf(ctx.database.db, bookingId), order).toMatchObject({ status: 'completed', completedAt: TEST_NOW });
    }
    expect(fake.refunds).toHaveLength(0);
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(2);
  });

  it('both at once: one completion', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    const event = intentSucceeded(fake.succeed(intentId));
    const results = await Promise.all([deliver(event), confirm(u, bookingId, intentId), confirm(u, bookingId, intentId), deliver(event)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('completed');
    expect(fake.refunds).toHaveLength(0);
  });

  it('acknowledges other events and changes nothing', async () => {
    const { bookingId } = await bookingWithIntent();
    const res = await deliver(stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }));
    expect(res.statusCode).toBe(200);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(1);
  });

  it('ignores another installation’s payments on the same Stripe account', async () => {
    const { bookingId } = await bookingWithIntent();
    const staging = (id: string) => fake.addIntent({ metadata: { bookingId: id, site: 'https://staging.example' } });
    expect((await deliver(intentSucceeded(staging(String(bookingId))))).statusCode).toBe(200);
    expect((await deliver(intentSucceeded(staging('424242')))).statusCode).toBe(200);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(0);
  });

  it('refunds a payment of ours whose booking is gone', async () => {
    const orphan = fake.addIntent({ metadata: { bookingId: '424242', site: 'http://localhost:3000' } });
    expect((await deliver(intentSucceeded(orphan))).statusCode).toBe(200);
    expect(fake.refunds.map((r) => r.payment_intent)).toEqual([orphan.id]);
  });

  it('does not apply an intent for another amount, even signed', async () => {
    const { bookingId, intentId } = await bookingWithIntent();
    const res = await deliver(intentSucceeded(fake.setAmount(fake.succeed(intentId).id, 1)));
    expect(res.statusCode).toBe(200);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
  });

  it('charge.refunded marks a completed payment refunded', async () => {
    const { bookingId, intentId } = await paidBooking();
    const res = await deliver(stripeEvent('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: intentId, refunded: true, amount_refunded: 250 }));
    expect(res.statusCode).toBe(200);
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'refunded', refundedAt: TEST_NOW });
  });

  it('an error while applying answers 5xx, records nothing, and a retry applies it', async () => {
    const { bookingId, intentId } = await bookingWithIntent();
    ctx.clock.advance(31 * MINUTE); // the hold ran out: a late payment must be refunded
    const event = intentSucceeded(fake.succeed(intentId));
    fake.failRefunds = true;
    const failed = await deliver(event);
    expect(failed.statusCode).toBe(502);
    expect(await countRows(ctx.database.db, 'provider_events')).toBe(0);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('failed');
    fake.failRefunds = false;
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('refunded');
  });
});

describe('holds and late payments', () => {
  it('a success after the hold ran out is refunded at once (webhook, then confirm)', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    ctx.clock.advance(30 * MINUTE);
    const event = intentSucceeded(fake.succeed(intentId));
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await bookingOf(ctx.database.db, bookingId)).toMatchObject({ stato: 'cancellata' });
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'refunded', providerPaymentId: intentId, refundedAt: ctx.clock.now() });
    expect(fake.refunds.map((r) => r.payment_intent)).toEqual([intentId]);
    const res = await confirm(u, bookingId, intentId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: italian('paymentsApi.lateRefunded'), code: 'PAYMENT_REFUNDED' });
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(1);
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/prenotazioni/user', headers: { cookie: u.cookie } });
    expect(mine.json()[0]).toMatchObject({ stato: 'cancellata', paymentStatus: 'refunded' });
  });

  it('a success after the hold ran out is refunded at once (confirm, then webhook)', async () => {
    const { u, bookingId, intentId } = await bookingWithIntent();
    ctx.clock.advance(45 * MINUTE);
    fake.succeed(intentId);
    const res = await confirm(u, bookingId, intentId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: italian('paymentsApi.lateRefunded'), code: 'PAYMENT_REFUNDED' });
    expect((await deliver(intentSucceeded(fake.intents.get(intentId)!))).statusCode).toBe(200);
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(1);
    expect(fake.requestsTo('POST', '/v1/refunds')[0]!.idempotencyKey).toBe(`bicielis-refund-${intentId}`);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('refunded');
  });

  it('a payment completed while the hold runs out keeps its booking (row locks)', async () => {
    const { bookingId } = await pendingBooking();
    // What settlePayment does, held open on another connection...
    const client = new pg.Client({ connectionString: ctx.database.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(
        'select 1 from prenotazioni p join pagamenti pay on pay.prenotazione_id = p.id where p.id = $1 for update of p, pay',
        [bookingId],
      );
      await client.query(
        "update pagamenti set status = 'completed', provider_payment_id = 'pi_race', completed_at = now() where prenotazione_id = $1",
        [bookingId],
      );
      // ...while the life cycle, 31 minutes later, finds the booking unpaid and waits for it.
      const lifecycle = applyLifecycle(ctx.database.db, new Date(TEST_NOW.getTime() + 31 * MINUTE), 30);
      await new Promise((r) => setTimeout(r, 300));
      await client.query('commit');
      const result = await lifecycle;
      expect(result.released).toBe(0);
    } finally {
      await client.end();
    }
    expect(await bookingOf(ctx.database.db, bookingId)).toMatchObject({ stato: 'attiva' });
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('completed');
  });
});

describe('hosted checkout', () => {
  it('creates one Checkout Session per booking with Stripe’s parameters, and the webhook completes it', async () => {
    const { u, bookingId } = await pendingBooking();
    const res = await checkout(u, bookingId);
    expect(res.statusCode).toBe(200);
    const [session] = [...fake.sessions.values()];
    expect(res.json()).toEqual({ paymentUrl: session!.url });
    const [request] = fake.requestsTo('POST', '/v1/checkout/sessions');
    expect(request!.body).toMatchObject({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '250', product_data: { name: `Prenotazione bici #${bookingId}` } } }],
      metadata: { bookingId: String(bookingId), site: 'http://localhost:3000' },
      payment_intent_data: { metadata: { bookingId: String(bookingId), site: 'http://localhost:3000' } },
      success_url: 'http://localhost:3000/checkout-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: `http://localhost:3000/checkout/${bookingId}`,
    });
    expect(Number(request!.body.expires_at)).toBeGreaterThanOrEqual(TEST_NOW.getTime() / 1000 + 30 * 60);
    // Asked again while open: the same page.
    expect((await checkout(u, bookingId)).json()).toEqual({ paymentUrl: session!.url });
    expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(1);

    const { intent } = fake.paySession(session!.id);
    const completed = await deliver(stripeEvent('checkout.session.completed', session));
    expect(completed.statusCode).toBe(200);
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'completed', providerPaymentId: intent.id, providerCheckoutId: session!.id });
    // Stripe also sends payment_intent.succeeded for the same payment: nothing more happens.
    expect((await deliver(intentSucceeded(intent))).statusCode).toBe(200);
    expect(fake.refunds).toHaveLength(0);
  });

  it('an unpaid completed session changes nothing', async () => {
    const { u, bookingId } = await pendingBooking();
    await checkout(u, bookingId);
    const [session] = [...fake.sessions.values()];
    expect((await deliver(stripeEvent('checkout.session.completed', { ...session, status: 'complete' }))).statusCode).toBe(200);
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('pending');
  });
});

describe('refund on cancel', () => {
  it('cancelling a paid booking before its start refunds it', async () => {
    const { u, bookingId, intentId } = await paidBooking();
    ctx.clock.advance(10 * MINUTE);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${bookingId}`, headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stato: 'cancellata', paymentStatus: 'refunded' });
    expect(fake.refunds.map((r) => r.payment_intent)).toEqual([intentId]);
    expect(await paymentOf(ctx.database.db, bookingId)).toMatchObject({ status: 'refunded', refundedAt: ctx.clock.now(), completedAt: TEST_NOW });
  });

  it('after its start, cancelling does not refund', async () => {
    const u = await sessionUser(ctx);
    const bookingId = await bookThroughApi(ctx.app, u, await addBike(ctx.database.db), { dataPrenotazione: '2026-11-21', orarioInizio: '10:30', orarioFine: '12:00' });
    const intentId = (await createIntent(u, bookingId)).json().paymentIntentId;
    fake.succeed(intentId);
    expect((await confirm(u, bookingId, intentId)).statusCode).toBe(200);
    ctx.clock.set('2026-11-21T09:45:00Z'); // 10:45 in Rome: under way
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${bookingId}`, headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stato: 'cancellata', paymentStatus: 'completed' });
    expect(fake.requestsTo('POST', '/v1/refunds')).toHaveLength(0);
  });

  it('a refund that fails makes the cancel fail with 502, and nothing changes', async () => {
    const { u, bookingId } = await paidBooking();
    fake.failRefunds = true;
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/prenotazioni/${bookingId}`, headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: italian('paymentsApi.refundFailed'), code: 'REFUND_FAILED' });
    expect(await bookingOf(ctx.database.db, bookingId)).toMatchObject({ stato: 'attiva' });
    expect((await paymentOf(ctx.database.db, bookingId))!.status).toBe('completed');
  });
});

describe('invariant 3 in the database', () => {
  it('a payment is completed at most once and never goes back', async () => {
    const { bookingId } = await paidBooking();
    const db = ctx.database.db;
    const attempt = (set: Partial<typeof pagamenti.$inferInsert>) =>
      db.update(pagamenti).set(set).where(eq(pagamenti.prenotazioneId, bookingId)).then(
        () => 'ok',
        (err: { cause?: { code?: string } }) => err.cause?.code,
      );
    expect(await attempt({ status: 'pending' })).toBe('23514');
    expect(await attempt({ status: 'failed' })).toBe('23514');
    expect(await attempt({ providerPaymentId: 'pi_other' })).toBe('23514');
    expect(await attempt({ status: 'refunded' })).toBe('23514'); // refunded needs refunded_at
    expect(await attempt({ status: 'refunded', refundedAt: new Date() })).toBe('ok');
    expect(await attempt({ status: 'completed' })).toBe('23514');
  });
});
