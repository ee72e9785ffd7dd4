import { and, eq } from 'drizzle-orm';
import { CURRENCY, EXTERNAL_FEE_CENTS } from '../../../shared/constants.js';
import type {
  CheckoutResponse,
  ConfirmPaymentResponse,
  PaymentIntentResponse,
} from '../../../shared/schemas/payment.js';
import type { Config } from '../../config.js';
import { bookingStato, isBooking, prenotazioni } from '../bookings/tables.js';
import { pagamenti } from './tables.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import {
  InvalidSignatureError,
  ProviderError,
  type IntentInfo,
  type PaymentMetadata,
} from '../../integrations/payments/provider.js';
import { KeyedMutex } from '../../lib/keyed-mutex.js';
import { currentRules, lifecycleMinutes, type RulesCache } from '../rules/index.js';
import { bringLifecycleUpToDate } from '../bookings/index.js';
import {
  applyProviderRefund,
  recordEvent,
  settlePayment,
  type DbOrTx,
  type EventRecord,
  type PaymentCoreDeps,
  type SettleOutcome,
} from './settle.js';
import { onceAcrossRetries, runTransaction } from '../../db/transaction.js';
import { countPayment } from '../../metrics.js';
import { testo } from '../../../shared/i18n/index.js';

export { refundBookingPayment } from './settle.js';

export interface PaymentDeps extends PaymentCoreDeps {
  config: Pick<Config, 'publicUrl' | 'publicOrigin'>;
  rulesCache?: RulesCache | undefined;
}

/** The payment hold of the service's rules (issue 20), read before any transaction opens. */
const paymentHold = async (deps: Pick<PaymentDeps, 'db'>): Promise<number> => lifecycleMinutes(await currentRules(deps)).hold;

/** Per-process queue in front of the row lock of a booking's payment (see KeyedMutex). */
const mutexes = new WeakMap<object, KeyedMutex>();
function bookingMutex(deps: PaymentDeps): KeyedMutex {
  let m = mutexes.get(deps.db);
  if (!m) {
    m = new KeyedMutex();
    mutexes.set(deps.db, m);
  }
  return m;
}

/** Calls the provider; its failures become 502 with an Italian message. */
/**
 * One call to the provider; `key` names it (the call and the object it is about) so that a
 * transaction run again after a deadlock reuses the first attempt's answer instead of calling
 * again (db/transaction.ts, decision 023).
 */
async function callProvider<T>(deps: PaymentDeps, what: string, key: string, call: () => Promise<T>): Promise<T> {
  try {
    return await onceAcrossRetries(`${what}:${key}`, call);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.log?.warn({ err, what }, 'payment provider call failed');
    throw new AppError(502, testo('paymentsApi.providerUnavailable'), 'PROVIDER_UNAVAILABLE');
  }
}

interface PayableRow {
  bookingId: number;
  stato: 'attiva' | 'completata' | 'cancellata';
  createdAt: Date;
  inizio: Date;
  updatedAt: Date;
  paymentId: number;
  paymentCreatedAt: Date;
  status: 'pending' | 'completed' | 'failed' | 'refunded';
  providerPaymentId: string | null;
  providerCheckoutId: string | null;
}

/**
 * The caller's booking and its payment, locked (booking, then payment) when `lock`.
 * Another user's booking is 404, as a missing one; a resident's (no payment) is 400.
 */
async function ownedBooking(tx: DbOrTx, userId: number, bookingId: number, lock: boolean): Promise<PayableRow> {
  const bookingQuery = tx
    .select({ id: prenotazioni.id, stato: prenotazioni.stato, createdAt: prenotazioni.createdAt, inizio: prenotazioni.inizio, updatedAt: prenotazioni.updatedAt })
    .from(prenotazioni)
    .where(and(eq(prenotazioni.id, bookingId), eq(prenotazioni.userId, userId), isBooking));
  const [booking] = lock ? await bookingQuery.for('update') : await bookingQuery;
  if (!booking) throw notFound(testo('bookingsApi.bookingNotFound'));
  const paymentQuery = tx.select().from(pagamenti).where(eq(pagamenti.prenotazioneId, bookingId));
  const [payment] = lock ? await paymentQuery.for('update') : await paymentQuery;
  if (!payment) throw badRequest(testo('paymentsApi.noPaymentRequired'), 'NO_PAYMENT_REQUIRED');
  return {
    bookingId,
    stato: bookingStato(booking.stato),
    createdAt: booking.createdAt,
    inizio: booking.inizio,
    updatedAt: booking.updatedAt,
    paymentId: payment.id,
    paymentCreatedAt: payment.createdAt,
    status: payment.status,
    providerPaymentId: payment.providerPaymentId,
    providerCheckoutId: payment.providerCheckoutId,
  };
}

/** Only a pending payment of an active booking can be paid (behaviour.md §7). */
function assertPayable(row: PayableRow, holdMinutes: number) {
  if (row.status === 'completed') throw conflict(testo('paymentsApi.alreadyPaid'), 'ALREADY_PAID');
  if (row.status === 'pending' && row.stato === 'attiva') return;
  if (row.stato === 'completata') throw conflict(testo('paymentsApi.bookingEnded'), 'BOOKING_NOT_ACTIVE');
  const deadline = Math.min(row.createdAt.getTime() + holdMinutes * 60_000, row.inizio.getTime());
  const released = row.status === 'failed' && row.updatedAt.getTime() >= deadline;
  throw conflict(released ? testo('paymentsApi.holdExpired') : testo('paymentsApi.bookingCancelled'), released ? 'HOLD_EXPIRED' : 'BOOKING_NOT_ACTIVE');
}

/** Intent states in which the page can still confirm it with a card. */
const OPEN_INTENT = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

/** Made by this site (or by no site: the simulated provider), not another installation's. */
const ourSite = (deps: PaymentDeps, metadata: PaymentMetadata) => !metadata.site || metadata.site === deps.config.publicOrigin;

const isOurs = (deps: PaymentDeps, info: IntentInfo, bookingId: number) =>
  ourSite(deps, info.metadata) &&
  info.metadata.bookingId === String(bookingId) &&
  info.amount === EXTERNAL_FEE_CENTS &&
  info.currency === CURRENCY;

/**
 * POST /api/create-payment-intent: the client secret of the booking's open intent, made on
 * first use. Requests for one booking queue (in-process mutex, then the payment row's lock
 * across processes) and the provider gets a per-booking idempotency key, so ten at once
 * make one intent.
 */
export async function createPaymentIntent(deps: PaymentDeps, userId: number, bookingId: number): Promise<PaymentIntentResponse> {
  // Holds and ends up to date first: a payment never lands on a stale booking.
  await bringLifecycleUpToDate(deps);
  const hold = await paymentHold(deps);
  return bookingMutex(deps).run(`booking:${bookingId}`, async () => {
    const now = deps.clock.now();
    const result = await runTransaction(deps.db, async (tx) => {
      const row = await ownedBooking(tx, userId, bookingId, true);
      assertPayable(row, hold);
      if (row.providerPaymentId) {
        const stored = row.providerPaymentId;
        const info = await callProvider(deps, 'retrieve intent', stored, () => deps.provider.retrieveIntent(stored));
        if (info && isOurs(deps, info, bookingId)) {
          if (info.status === 'succeeded') return { kind: 'succeeded' as const, id: info.id };
          if (info.status === 'processing') {
            throw conflict(testo('paymentsApi.processing'), 'PAYMENT_PROCESSING');
          }
          if (OPEN_INTENT.has(info.status) && info.clientSecret) {
            return { kind: 'open' as const, intent: { id: info.id, clientSecret: info.clientSecret } };
          }
        }
        // Cancelled, unknown to this provider, or not ours: a new intent replaces it.
      }
      const idempotencyKey = `bicielis-pi-${bookingId}-${row.paymentCreatedAt.getTime()}${row.providerPaymentId ? `-after-${row.providerPaymentId}` : ''}`;
      const created = await callProvider(deps, 'create intent', idempotencyKey, () =>
        deps.provider.createIntent({ bookingId, amount: EXTERNAL_FEE_CENTS, currency: CURRENCY, idempotencyKey }),
      );
      await tx
        .update(pagamenti) // triggers: disponibilita_modifiche
        .set({ providerPaymentId: created.id, provider: deps.provider.name, updatedAt: now })
        .where(eq(pagamenti.id, row.paymentId));
      return { kind: 'open' as const, intent: created };
    });
    if (result.kind === 'succeeded') {
      // Paid, but the news had not arrived yet: settle it now.
      await settlePayment(deps, { bookingId, paymentIntentId: result.id, holdMinutes: hold });
      throw conflict(testo('paymentsApi.alreadyPaid'), 'ALREADY_PAID');
    }
    return {
      clientSecret: result.intent.clientSecret,
      paymentIntentId: result.intent.id,
      amount: EXTERNAL_FEE_CENTS,
      currency: CURRENCY,
    };
  });
}

/** An open hosted checkout is reused while it has at least this long to live. */
const CHECKOUT_REUSE_MIN_MS = 5 * 60_000;

/**
 * POST /api/external-bookings/:bookingId/payment: the address of a hosted checkout for the
 * booking (Stripe Checkout, or the simulated page). Success returns to /checkout-success,
 * cancel to /checkout/:bookingId. An open session with time left is reused.
 */
export async function createCheckout(deps: PaymentDeps, userId: number, bookingId: number): Promise<CheckoutResponse> {
  await bringLifecycleUpToDate(deps);
  const hold = await paymentHold(deps);
  return bookingMutex(deps).run(`booking:${bookingId}`, () =>
    runTransaction(deps.db, async (tx) => {
      const now = deps.clock.now();
      const row = await ownedBooking(tx, userId, bookingId, true);
      assertPayable(row, hold);
      if (row.providerCheckoutId) {
        const stored = row.providerCheckoutId;
        const session = await callProvider(deps, 'retrieve checkout', stored, () => deps.provider.retrieveCheckoutSession(stored));
        if (session?.status === 'open' && session.url && session.expiresAt.getTime() - now.getTime() >= CHECKOUT_REUSE_MIN_MS) {
          return { paymentUrl: session.url };
        }
      }
      const base = deps.config.publicUrl;
      const idempotencyKey = `bicielis-cs-${bookingId}-${row.paymentCreatedAt.getTime()}-${row.providerCheckoutId ?? 'first'}`;
      const created = await callProvider(deps, 'create checkout', idempotencyKey, () =>
        deps.provider.createCheckoutSession({
          bookingId,
          amount: EXTERNAL_FEE_CENTS,
          currency: CURRENCY,
          successUrl: `${base}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${base}/checkout/${bookingId}`,
          idempotencyKey,
        }),
      );
      await tx
        .update(pagamenti) // triggers: disponibilita_modifiche
        .set({ providerCheckoutId: created.id, provider: deps.provider.name, updatedAt: now })
        .where(eq(pagamenti.id, row.paymentId));
      return { paymentUrl: created.url };
    }),
  );
}

/**
 * POST /api/confirm-payment: asks the provider for the intent and marks the booking paid
 * only if it succeeded, for 250 EUR cents, for this booking (metadata). Anything else is
 * refused and changes nothing. Idempotent: confirming a settled payment answers the same.
 */
export async function confirmPayment(
  deps: PaymentDeps,
  userId: number,
  input: { bookingId: number; paymentIntentId: string },
): Promise<ConfirmPaymentResponse> {
  const { bookingId, paymentIntentId } = input;
  await bringLifecycleUpToDate(deps);
  const row = await ownedBooking(deps.db, userId, bookingId, false);
  const paid: ConfirmPaymentResponse = { bookingId, paymentStatus: 'completed' };
  if (row.status === 'completed' && row.providerPaymentId === paymentIntentId) return paid;

  const info = await callProvider(deps, 'retrieve intent', paymentIntentId, () => deps.provider.retrieveIntent(paymentIntentId));
  if (!info) throw badRequest(testo('paymentsApi.paymentNotFound'), 'PAYMENT_NOT_FOUND');
  if (info.metadata.bookingId !== String(bookingId) || !ourSite(deps, info.metadata)) {
    throw badRequest(testo('paymentsApi.otherBooking'), 'PAYMENT_MISMATCH');
  }
  if (info.amount !== EXTERNAL_FEE_CENTS || info.currency !== CURRENCY) throw badRequest(testo('paymentsApi.wrongAmount'), 'PAYMENT_MISMATCH');
  if (info.status !== 'succeeded') {
    countPayment(deps.metrics, 'not_succeeded');
    throw conflict(testo('paymentsApi.notSucceeded'), 'PAYMENT_NOT_SUCCEEDED');
  }

  const outcome = await settlePayment(deps, { bookingId, paymentIntentId, holdMinutes: await paymentHold(deps) });
  return answerOf(outcome, paid);
}

function answerOf(outcome: SettleOutcome, paid: ConfirmPaymentResponse): ConfirmPaymentResponse {
  switch (outcome.kind) {
    case 'completed':
    case 'already_completed':
    case 'duplicate_event':
      return paid;
    case 'already_refunded':
    case 'refunded':
      if (outcome.reason === 'duplicate') throw conflict(testo('paymentsApi.duplicateRefunded'), 'ALREADY_PAID');
      if (outcome.reason === 'expired') throw conflict(testo('paymentsApi.lateRefunded'), 'PAYMENT_REFUNDED');
      throw conflict(testo('paymentsApi.cancelledRefunded'), 'PAYMENT_REFUNDED');
  }
}

const parseBookingId = (v: string | undefined): number | null => {
  if (!v || !/^\d{1,10}$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && n <= 2_147_483_647 ? n : null;
};

/**
 * POST /api/payments/webhook, and the simulated provider's deliveries: verifies the
 * signature over the raw body (400 `Firma non valida` otherwise, nothing changes), then
 * applies the event once — it is recorded in provider_events in the same transaction as
 * its effect, so a repeat is a no-op. An error while applying rejects (5xx): the provider
 * delivers again later.
 */
export async function handleWebhook(
  deps: PaymentDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ duplicate: boolean }> {
  let verified;
  try {
    verified = await deps.provider.verifyWebhook(rawBody, signature);
  } catch (err) {
    if (!(err instanceof InvalidSignatureError)) throw err;
    throw badRequest(testo('paymentsApi.invalidSignature'), 'INVALID_SIGNATURE');
  }
  await bringLifecycleUpToDate(deps);
  const hold = await paymentHold(deps);
  const record: EventRecord = { id: verified.id, type: verified.type, payload: verified.payload };
  const { event } = verified;
  const settle = async (bookingId: number, paymentIntentId: string) => {
    const outcome = await settlePayment(deps, { bookingId, paymentIntentId, event: record, holdMinutes: hold });
    return { duplicate: outcome.kind === 'duplicate_event' };
  };
  switch (event.kind) {
    case 'intent_succeeded': {
      if (!ourSite(deps, event.intent.metadata)) break; // another installation's payment
      const bookingId = parseBookingId(event.intent.metadata.bookingId);
      if (bookingId && event.intent.status === 'succeeded' && isOurs(deps, event.intent, bookingId)) {
        return settle(bookingId, event.intent.id);
      }
      if (bookingId) deps.log?.warn({ eventId: record.id, intent: event.intent }, 'payment event not applied: amount or status unexpected');
      break;
    }
    case 'checkout_completed': {
      if (!ourSite(deps, event.metadata)) break;
      const bookingId = parseBookingId(event.metadata.bookingId);
      if (bookingId && event.paid && event.paymentIntentId && event.amount === EXTERNAL_FEE_CENTS && event.currency === CURRENCY) {
        return settle(bookingId, event.paymentIntentId);
      }
      if (bookingId) deps.log?.warn({ eventId: record.id, event }, 'checkout event not applied: unpaid or unexpected amount');
      break;
    }
    case 'charge_refunded':
      if (event.paymentIntentId && event.fullyRefunded) return applyProviderRefund(deps, event.paymentIntentId, record);
      break;
    case 'ignored':
      break;
  }
  // Acknowledged, recorded, nothing to apply.
  const recorded = await recordEvent(deps.db, deps.provider.name, record, deps.clock.now());
  return { duplicate: !recorded };
}
