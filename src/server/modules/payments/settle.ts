import { and, eq } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { pagamenti, providerEvents } from './tables.js';
import { prenotazioni } from '../bookings/tables.js';
import { AppError } from '../../http/errors.js';
import { ProviderError, type PaymentProvider } from '../../integrations/payments/provider.js';
import { onceAcrossRetries, runTransaction } from '../../db/transaction.js';
import { countPayment, countRefund, type AppMetrics } from '../../metrics.js';
import { testo } from '../../../shared/i18n/index.js';

/** The few logger methods the payments module uses (pino and Fastify's logger both fit). */
export interface PaymentLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What settling and refunding need: the database, the time, the provider. */
export interface PaymentCoreDeps {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  log?: PaymentLog | undefined;
  metrics?: AppMetrics | undefined;
}

/** A database handle or a transaction. */
export type DbOrTx = Pick<Db, 'select' | 'insert' | 'update'>;

/** One refund per provider payment, whoever asks and however often. */
export const refundKey = (paymentIntentId: string) => `bicielis-refund-${paymentIntentId}`;

/** Refunds an intent through the provider; a failure becomes 502 and undoes the caller's transaction. */
export async function refundIntent(deps: PaymentCoreDeps, paymentIntentId: string, reason: string): Promise<void> {
  try {
    // Once per retried transaction (decision 023); the idempotency key makes it once per intent anyway.
    await onceAcrossRetries(`refund:${paymentIntentId}`, async () => {
      const refund = await deps.provider.refund(paymentIntentId, refundKey(paymentIntentId));
      // Counted where the provider said yes: once, however often the transaction runs.
      countRefund(deps.metrics, 'ok');
      return refund;
    });
    deps.log?.info({ paymentIntentId, reason }, 'payment refunded');
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    countRefund(deps.metrics, 'failed');
    deps.log?.warn({ err, paymentIntentId, reason }, 'refund failed');
    throw new AppError(502, testo('paymentsApi.refundFailed'), 'REFUND_FAILED');
  }
}

/** A verified provider event, recorded in `provider_events` with the change it makes. */
export interface EventRecord {
  id: string;
  type: string;
  payload: unknown;
}

/** Records an event; false when it was recorded before (it must not apply twice). */
export async function recordEvent(tx: DbOrTx, provider: string, event: EventRecord, now: Date): Promise<boolean> {
  const inserted = await tx
    .insert(providerEvents)
    .values({ id: event.id, provider, type: event.type, payload: event.payload, receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: providerEvents.id });
  return inserted.length > 0;
}

export type RefundReason = 'expired' | 'cancelled' | 'duplicate' | 'unknown_booking';

export type SettleOutcome =
  /** pending → completed: the booking is paid now. */
  | { kind: 'completed' }
  /** The same payment was settled before: nothing to do. */
  | { kind: 'already_completed' }
  | { kind: 'already_refunded'; reason: RefundReason }
  /** The money could not be kept and went back at once (see `reason`). */
  | { kind: 'refunded'; reason: RefundReason }
  /** The event was applied before. */
  | { kind: 'duplicate_event' };

export interface SettleInput {
  bookingId: number;
  /** The provider's payment, already checked: succeeded, 250 EUR cents, for this booking. */
  paymentIntentId: string;
  /** With an event, it is recorded in the same transaction, and a repeat changes nothing. */
  event?: EventRecord | undefined;
  /** PAYMENT_HOLD_MINUTES, to tell a hold that ran out from a cancellation. */
  holdMinutes: number;
}

/**
 * The one place a succeeded payment is applied, for the webhook and confirm-payment alike,
 * in whichever order and however often they come (docs/decisions/012-payments.md). Under
 * locks on the booking and its payment (booking first, as every writer does):
 * - a pending payment of an active booking becomes `completed`;
 * - the same payment again is a no-op;
 * - a payment for a booking released by its hold, cancelled, already paid by another
 *   payment, or unknown, is refunded through the provider at once (idempotency key per
 *   payment) — money is never kept for nothing; the payment row becomes `refunded` when it
 *   had not been paid otherwise.
 * A refund that fails throws (502) and rolls everything back, event included, so the
 * provider retries the webhook and the payer's confirm can be retried.
 */
export async function settlePayment(deps: PaymentCoreDeps, input: SettleInput): Promise<SettleOutcome> {
  const now = deps.clock.now();
  const { bookingId, paymentIntentId } = input;
  const outcome = await runTransaction(deps.db, async (tx): Promise<SettleOutcome> => {
    if (input.event && !(await recordEvent(tx, deps.provider.name, input.event, now))) return { kind: 'duplicate_event' };
    const [row] = await tx
      .select({
        paymentId: pagamenti.id,
        status: pagamenti.status,
        providerPaymentId: pagamenti.providerPaymentId,
        completedAt: pagamenti.completedAt,
        stato: prenotazioni.stato,
        createdAt: prenotazioni.createdAt,
        inizio: prenotazioni.inizio,
        updatedAt: prenotazioni.updatedAt,
      })
      .from(prenotazioni)
      .innerJoin(pagamenti, eq(pagamenti.prenotazioneId, prenotazioni.id))
      .where(eq(prenotazioni.id, bookingId))
      .for('update', { of: [prenotazioni, pagamenti] });

    if (!row) {
      // A booking that no longer exists (or never needed a payment).
      await refundIntent(deps, paymentIntentId, 'unknown_booking');
      return { kind: 'refunded', reason: 'unknown_booking' };
    }
    if (row.status === 'pending' && row.stato === 'attiva') {
      await tx
        .update(pagamenti) // triggers: stats_delta, disponibilita_modifiche (and the status transition checked)
        .set({ status: 'completed', providerPaymentId: paymentIntentId, completedAt: now, updatedAt: now })
        .where(eq(pagamenti.id, row.paymentId));
      deps.log?.info({ bookingId, paymentIntentId }, 'booking paid');
      return { kind: 'completed' };
    }
    // Why a booking that is not payable lost its payment: its hold ran out, or it was cancelled.
    const deadline = Math.min(row.createdAt.getTime() + input.holdMinutes * 60_000, row.inizio.getTime());
    const released = row.stato === 'cancellata' && !row.completedAt && row.updatedAt.getTime() >= deadline;
    const lateReason: RefundReason = released ? 'expired' : 'cancelled';
    if (row.providerPaymentId === paymentIntentId) {
      if (row.status === 'completed') return { kind: 'already_completed' };
      if (row.status === 'refunded') return { kind: 'already_refunded', reason: lateReason };
    }
    if (row.status === 'completed' || row.status === 'refunded') {
      // Paid by another payment already (the card form and the hosted page both used).
      await refundIntent(deps, paymentIntentId, 'duplicate');
      return { kind: 'refunded', reason: 'duplicate' };
    }
    // failed (released by its hold, or cancelled while unpaid): a late payment.
    await refundIntent(deps, paymentIntentId, 'late');
    await tx
      .update(pagamenti) // triggers: stats_delta, disponibilita_modifiche (and the status transition checked)
      .set({ status: 'refunded', providerPaymentId: paymentIntentId, refundedAt: now, updatedAt: now })
      .where(eq(pagamenti.id, row.paymentId));
    return { kind: 'refunded', reason: lateReason };
  });
  // After the commit: a payment applied, or money given back at once (late or twice).
  if (outcome.kind === 'completed') countPayment(deps.metrics, 'succeeded');
  if (outcome.kind === 'refunded') countPayment(deps.metrics, 'refunded_on_arrival');
  return outcome;
}

/**
 * `charge.refunded` from the provider (a refund made on its dashboard, or the echo of ours):
 * a completed payment of that intent becomes `refunded`. Recorded like any event.
 */
export async function applyProviderRefund(
  deps: PaymentCoreDeps,
  paymentIntentId: string,
  event: EventRecord,
): Promise<{ duplicate: boolean }> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    if (!(await recordEvent(tx, deps.provider.name, event, now))) return { duplicate: true };
    await tx
      .update(pagamenti) // triggers: stats_delta, disponibilita_modifiche (and the status transition checked)
      .set({ status: 'refunded', refundedAt: now, updatedAt: now })
      .where(and(eq(pagamenti.providerPaymentId, paymentIntentId), eq(pagamenti.status, 'completed')));
    return { duplicate: false };
  });
}

/**
 * Refunds a booking's completed payment through the provider and marks it `refunded`
 * (`Rimborsata`); 'not_paid' when there is nothing to refund. Used when the owner cancels
 * before the start (bookings/service.ts) and when an admin deletes a paid booking.
 *
 * With `tx`, it runs inside the caller's transaction, which must have locked the booking
 * row (`for update`) first; a failed refund throws 502 (AppError REFUND_FAILED) so the
 * caller's change is rolled back with it. Without `tx`, it locks and commits on its own.
 */
export async function refundBookingPayment(
  deps: PaymentCoreDeps,
  bookingId: number,
  tx?: DbOrTx,
): Promise<'refunded' | 'not_paid'> {
  const now = deps.clock.now();
  const run = async (t: DbOrTx) => {
    const [pay] = await t
      .select({ id: pagamenti.id, status: pagamenti.status, providerPaymentId: pagamenti.providerPaymentId })
      .from(pagamenti)
      .where(eq(pagamenti.prenotazioneId, bookingId))
      .for('update');
    if (!pay || pay.status !== 'completed' || !pay.providerPaymentId) return 'not_paid' as const;
    await refundIntent(deps, pay.providerPaymentId, 'booking_cancelled');
    await t.update(pagamenti).set({ status: 'refunded', refundedAt: now, updatedAt: now }).where(eq(pagamenti.id, pay.id)); // triggers: stats_delta, disponibilita_modifiche (and the status transition checked)
    return 'refunded' as const;
  };
  if (tx) return run(tx);
  return runTransaction(deps.db, async (t) => {
    await t.select({ id: prenotazioni.id }).from(prenotazioni).where(eq(prenotazioni.id, bookingId)).for('update');
    return run(t);
  });
}
