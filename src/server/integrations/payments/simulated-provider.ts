import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { SimulatedCard } from '../../../shared/schemas/payment.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import {
  simulatedCheckoutSessions,
  simulatedPaymentIntents,
  simulatedProviderSettings,
  simulatedRefunds,
} from '../tables.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import {
  InvalidSignatureError,
  ProviderError,
  toPaymentEvent,
  type CheckoutSessionInfo,
  type CreateCheckoutInput,
  type CreateIntentInput,
  type IntentInfo,
  type PaymentProvider,
  type VerifiedEvent,
} from './provider.js';
import { CHECKOUT_SESSION_MINUTES } from './stripe-provider.js';
import { loadStripe } from './stripe-sdk.js';
import { checkTestCard } from './test-cards.js';
import { runTransaction } from '../../db/transaction.js';
import { testo, type Testo } from '../../../shared/i18n/index.js';

/** Receives a webhook as the provider would POST it: raw JSON body and Stripe-Signature header. */
export type WebhookReceiver = (rawBody: Buffer, signature: string) => Promise<unknown>;

export interface SimulatedProviderOptions {
  db: Db;
  clock: Clock;
  /** Base of the hosted-checkout page's address (PUBLIC_URL). */
  publicUrl: string;
  timeZone: string;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

type IntentRow = typeof simulatedPaymentIntents.$inferSelect;
type SessionRow = typeof simulatedCheckoutSessions.$inferSelect;

const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The address of the simulated hosted-checkout page (a web route). */
export const simulatedCheckoutPath = (sessionId: string) => `/pagamento-simulato/${sessionId}`;

/**
 * A payment provider that behaves like Stripe's test mode, with its state in PostgreSQL
 * (tables `simulated_*`), so the whole payment flow works offline and runs the same server
 * code as Stripe: card payments succeed or are declined by test card number, and every
 * success is delivered as a signed Stripe-format event to the app's webhook handler.
 * Decision 012 explains the signing secret (one row shared by every process on the database).
 */
export class SimulatedProvider implements PaymentProvider {
  readonly name = 'simulated' as const;
  private secret: Promise<string> | undefined;
  private receiver: WebhookReceiver | undefined;

  constructor(private readonly options: SimulatedProviderOptions) {}

  /** Where events go: the same function the webhook route calls (set by buildApp). */
  deliverTo(receiver: WebhookReceiver): void {
    this.receiver = receiver;
  }

  private get db() {
    return this.options.db;
  }

  async createIntent(input: CreateIntentInput) {
    const id = randomId('pi_sim_');
    const [created] = await this.db
      .insert(simulatedPaymentIntents)
      .values({
        id,
        clientSecret: `${id}_secret_${randomBytes(16).toString('hex')}`,
        bookingId: input.bookingId,
        amount: input.amount,
        currency: input.currency,
        idempotencyKey: input.idempotencyKey,
        createdAt: this.options.clock.now(),
        updatedAt: this.options.clock.now(),
      })
      .onConflictDoNothing({ target: simulatedPaymentIntents.idempotencyKey })
      .returning();
    // The same idempotency key gives back the intent made the first time.
    const row =
      created ??
      (await this.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.idempotencyKey, input.idempotencyKey)))[0];
    if (!row) throw new ProviderError('simulated: intent not created');
    return { id: row.id, clientSecret: row.clientSecret };
  }

  /** The stored intent with its booking id (the simulated routes check who owns it). */
  async findIntent(id: string): Promise<IntentRow | null> {
    const [row] = await this.db.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, id));
    return row ?? null;
  }

  async retrieveIntent(id: string): Promise<IntentInfo | null> {
    const row = await this.findIntent(id);
    return row ? intentInfoOf(row) : null;
  }

  async createCheckoutSession(input: CreateCheckoutInput) {
    const now = this.options.clock.now();
    const id = randomId('cs_sim_');
    const [created] = await this.db
      .insert(simulatedCheckoutSessions)
      .values({
        id,
        bookingId: input.bookingId,
        amount: input.amount,
        currency: input.currency,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        expiresAt: new Date(now.getTime() + CHECKOUT_SESSION_MINUTES * 60_000),
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
      })
      .onConflictDoNothing({ target: simulatedCheckoutSessions.idempotencyKey })
      .returning();
    const row =
      created ??
      (await this.db.select().from(simulatedCheckoutSessions).where(eq(simulatedCheckoutSessions.idempotencyKey, input.idempotencyKey)))[0];
    if (!row) throw new ProviderError('simulated: checkout session not created');
    return { id: row.id, url: `${this.options.publicUrl}${simulatedCheckoutPath(row.id)}` };
  }

  async findCheckoutSession(id: string): Promise<(SessionRow & { effectiveStatus: CheckoutSessionInfo['status'] }) | null> {
    const [row] = await this.db.select().from(simulatedCheckoutSessions).where(eq(simulatedCheckoutSessions.id, id));
    return row ? { ...row, effectiveStatus: this.sessionStatus(row) } : null;
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSessionInfo | null> {
    const row = await this.findCheckoutSession(id);
    if (!row) return null;
    return {
      id: row.id,
      url: `${this.options.publicUrl}${simulatedCheckoutPath(row.id)}`,
      status: row.effectiveStatus,
      expiresAt: row.expiresAt,
    };
  }

  private sessionStatus(row: SessionRow): CheckoutSessionInfo['status'] {
    if (row.status === 'complete') return 'complete';
    return row.expiresAt.getTime() <= this.options.clock.now().getTime() ? 'expired' : 'open';
  }

  async refund(paymentIntentId: string, idempotencyKey: string): Promise<void> {
    await runTransaction(this.db, async (tx) => {
      const [intent] = await tx
        .select()
        .from(simulatedPaymentIntents)
        .where(eq(simulatedPaymentIntents.id, paymentIntentId))
        .for('update');
      if (!intent) throw new ProviderError(`simulated: no such payment_intent ${paymentIntentId}`, 'resource_missing');
      if (intent.status !== 'succeeded') {
        throw new ProviderError(`simulated: payment_intent ${paymentIntentId} has not succeeded`, 'payment_intent_unexpected_state');
      }
      // One full refund per intent; asking again (same key or not) changes nothing.
      await tx
        .insert(simulatedRefunds)
        .values({ id: randomId('re_sim_'), paymentIntentId, amount: intent.amount, idempotencyKey, createdAt: this.options.clock.now() })
        .onConflictDoNothing();
    });
  }

  async verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<VerifiedEvent> {
    if (!signature) throw new InvalidSignatureError('missing Stripe-Signature');
    const secret = await this.signingSecret();
    const StripeSdk = await loadStripe();
    let event: Stripe.Event;
    try {
      event = StripeSdk.webhooks.constructEvent(rawBody, signature, secret);
    } catch (err) {
      throw new InvalidSignatureError(err instanceof Error ? err.message : 'invalid signature', { cause: err });
    }
    return { id: event.id, type: event.type, payload: event, event: toPaymentEvent(event) };
  }

  /**
   * The secret events are signed with: one random row in `simulated_provider_settings`,
   * made by whichever process needs it first, read by all the others.
   */
  signingSecret(): Promise<string> {
    this.secret ??= (async () => {
      await this.db
        .insert(simulatedProviderSettings)
        .values({ id: 1, webhookSecret: `whsec_sim_${randomBytes(32).toString('hex')}` })
        .onConflictDoNothing();
      const [row] = await this.db.select().from(simulatedProviderSettings).where(eq(simulatedProviderSettings.id, 1));
      if (!row) throw new Error('simulated provider: signing secret missing');
      return row.webhookSecret;
    })().catch((err: unknown) => {
      this.secret = undefined;
      throw err;
    });
    return this.secret;
  }

  // ---------------------------------------------------------------------------------------
  // What Stripe.js and Stripe's hosted page do, for the simulated card form and page.
  // ---------------------------------------------------------------------------------------

  /**
   * Confirms an intent with a card (Stripe.js's confirmPayment). A declined card answers
   * 402 and changes nothing but the intent's last error; a success marks the intent
   * succeeded and delivers `payment_intent.succeeded`. Confirming a succeeded intent again
   * is a no-op.
   */
  async confirmIntent(intentId: string, clientSecret: string, card: SimulatedCard): Promise<IntentRow> {
    const now = this.options.clock.now();
    const outcome = await runTransaction(this.db, async (tx) => {
      const [intent] = await tx.select().from(simulatedPaymentIntents).where(eq(simulatedPaymentIntents.id, intentId)).for('update');
      if (!intent) throw new ProviderError(`simulated: no such payment_intent ${intentId}`, 'resource_missing');
      if (intent.clientSecret !== clientSecret) throw badRequest(testo('paymentsApi.invalidPayment'), 'INVALID_CLIENT_SECRET');
      if (intent.status === 'succeeded') return { intent, fresh: false };
      if (intent.status === 'canceled') throw conflict(testo('paymentsApi.paymentCancelled'), 'PAYMENT_CANCELED');
      const check = checkTestCard(card, now, this.options.timeZone);
      if (!check.ok) return { intent, declined: check };
      const [updated] = await tx
        .update(simulatedPaymentIntents)
        .set({ status: 'succeeded', succeededAt: now, updatedAt: now, lastErrorCode: null })
        .where(eq(simulatedPaymentIntents.id, intentId))
        .returning();
      return { intent: updated!, fresh: true };
    });
    if ('declined' in outcome && outcome.declined) {
      await this.recordDecline(intentId, outcome.declined.code, now);
      throw cardError(outcome.declined);
    }
    if ('fresh' in outcome && outcome.fresh) await this.deliver('payment_intent.succeeded', intentObject(outcome.intent));
    return outcome.intent;
  }

  /**
   * Pays a hosted-checkout session with a card: a new succeeded intent for the session's
   * booking, the session complete, and both `checkout.session.completed` and
   * `payment_intent.succeeded` delivered. Answers where the payer goes next (the success
   * URL with the session id). Paying a complete session again only answers that again.
   */
  async payCheckoutSession(sessionId: string, card: SimulatedCard): Promise<{ redirectUrl: string }> {
    const now = this.options.clock.now();
    const outcome = await runTransaction(this.db, async (tx) => {
      const [session] = await tx
        .select()
        .from(simulatedCheckoutSessions)
        .where(eq(simulatedCheckoutSessions.id, sessionId))
        .for('update');
      if (!session) throw new ProviderError(`simulated: no such checkout session ${sessionId}`, 'resource_missing');
      const status = this.sessionStatus(session);
      if (status === 'complete') return { session, intent: null };
      if (status === 'expired') throw conflict(testo('paymentsApi.sessionExpired'), 'SESSION_EXPIRED');
      const check = checkTestCard(card, now, this.options.timeZone);
      if (!check.ok) throw cardError(check);
      const id = randomId('pi_sim_');
      const [intent] = await tx
        .insert(simulatedPaymentIntents)
        .values({
          id,
          clientSecret: `${id}_secret_${randomBytes(16).toString('hex')}`,
          bookingId: session.bookingId,
          amount: session.amount,
          currency: session.currency,
          status: 'succeeded',
          idempotencyKey: `checkout:${session.id}`,
          createdAt: now,
          updatedAt: now,
          succeededAt: now,
        })
        .returning();
      const [completed] = await tx
        .update(simulatedCheckoutSessions)
        .set({ status: 'complete', paymentIntentId: id, completedAt: now })
        .where(eq(simulatedCheckoutSessions.id, session.id))
        .returning();
      return { session: completed!, intent: intent! };
    });
    if (outcome.intent) {
      await this.deliver('checkout.session.completed', sessionObject(outcome.session));
      await this.deliver('payment_intent.succeeded', intentObject(outcome.intent));
    }
    return { redirectUrl: outcome.session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', outcome.session.id) };
  }

  private async recordDecline(intentId: string, code: string, now: Date) {
    await this.db
      .update(simulatedPaymentIntents)
      .set({ lastErrorCode: code, updatedAt: now })
      .where(sql`${simulatedPaymentIntents.id} = ${intentId} and ${simulatedPaymentIntents.status} <> 'succeeded'`);
  }

  /**
   * Signs an event as Stripe does and hands it to the webhook handler. A failure is logged,
   * never thrown to the payer: the payment did succeed, and confirm-payment settles it too.
   */
  private async deliver(type: 'payment_intent.succeeded' | 'checkout.session.completed', object: Record<string, unknown>) {
    const StripeSdk = await loadStripe();
    const event = {
      id: randomId('evt_sim_'),
      object: 'event',
      api_version: StripeSdk.API_VERSION,
      created: unix(this.options.clock.now()),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    try {
      if (!this.receiver) throw new Error('no webhook receiver');
      const payload = JSON.stringify(event);
      const signature = StripeSdk.webhooks.generateTestHeaderString({ payload, secret: await this.signingSecret() });
      await this.receiver(Buffer.from(payload), signature);
    } catch (err) {
      this.options.log.error({ err, eventId: event.id, type }, 'simulated provider: event delivery failed');
    }
  }
}

function cardError(check: { status: 400 | 402; message: Testo; code: string; declineCode?: string; field?: string }) {
  if (check.status === 400) {
    return badRequest(check.message, check.code, check.field ? { fields: { [check.field]: check.message } } : undefined);
  }
  return new AppError(402, check.message, check.code, check.declineCode ? { declineCode: check.declineCode } : undefined);
}

function intentInfoOf(row: IntentRow): IntentInfo {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    clientSecret: row.clientSecret,
    metadata: { bookingId: String(row.bookingId) },
  };
}

/** A PaymentIntent as Stripe puts it in an event. */
function intentObject(row: IntentRow) {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount,
    amount_received: row.status === 'succeeded' ? row.amount : 0,
    currency: row.currency,
    status: row.status,
    client_secret: null,
    created: unix(row.createdAt),
    livemode: false,
    metadata: { bookingId: String(row.bookingId) },
    payment_method_types: ['card'],
  };
}

/** A Checkout Session as Stripe puts it in an event. */
function sessionObject(row: SessionRow) {
  return {
    id: row.id,
    object: 'checkout.session',
    mode: 'payment',
    status: row.status,
    payment_status: row.status === 'complete' ? 'paid' : 'unpaid',
    payment_intent: row.paymentIntentId,
    amount_total: row.amount,
    currency: row.currency,
    client_reference_id: String(row.bookingId),
    metadata: { bookingId: String(row.bookingId) },
    success_url: row.successUrl,
    cancel_url: row.cancelUrl,
    expires_at: unix(row.expiresAt),
    created: unix(row.createdAt),
    livemode: false,
    url: null,
  };
}
