import type Stripe from 'stripe';

/**
 * The payment provider as the payments module sees it (docs/decisions/012-payments.md).
 * Two implementations: Stripe (stripe-provider.ts) and the simulated provider
 * (simulated-provider.ts), which keeps Stripe's semantics and its webhook format so the
 * offline path runs the same code as the real one.
 */
export type ProviderName = 'stripe' | 'simulated';

/** A PaymentIntent, reduced to what the server checks before marking a booking paid. */
export interface IntentInfo {
  id: string;
  /** Stripe's PaymentIntent status: `succeeded`, `requires_payment_method`, `processing`, … */
  status: string;
  amount: number;
  currency: string;
  /** Lets the page confirm the intent; null when the provider does not give it back. */
  clientSecret: string | null;
  metadata: PaymentMetadata;
}

/**
 * What our payments carry at the provider: the booking, and the site (PUBLIC_URL's origin)
 * that made them, so an installation sharing the Stripe account (staging, a laptop) never
 * applies or refunds another one's payments. The simulated provider needs no site.
 */
export interface PaymentMetadata {
  bookingId?: string;
  site?: string;
}

export interface CheckoutSessionInfo {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  expiresAt: Date;
}

export interface CreateIntentInput {
  bookingId: number;
  amount: number;
  currency: string;
  idempotencyKey: string;
}

export interface CreateCheckoutInput {
  bookingId: number;
  amount: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

/** A provider event after its signature was verified, reduced to what the server applies. */
export type PaymentEvent =
  | { kind: 'intent_succeeded'; intent: IntentInfo }
  | {
      kind: 'checkout_completed';
      sessionId: string;
      paid: boolean;
      paymentIntentId: string | null;
      metadata: PaymentMetadata;
      amount: number | null;
      currency: string | null;
    }
  | { kind: 'charge_refunded'; paymentIntentId: string | null; fullyRefunded: boolean }
  | { kind: 'ignored' };

export interface VerifiedEvent {
  /** The provider's event id: applied at most once (provider_events primary key). */
  id: string;
  type: string;
  /** The event as received, stored in provider_events. */
  payload: unknown;
  event: PaymentEvent;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** A PaymentIntent with metadata.bookingId; the same idempotency key gives the same intent. */
  createIntent(input: CreateIntentInput): Promise<{ id: string; clientSecret: string }>;
  /** The intent as the provider knows it, or null when it does not exist. */
  retrieveIntent(id: string): Promise<IntentInfo | null>;
  /** A hosted checkout page for one booking; `url` is where to send the payer. */
  createCheckoutSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionInfo | null>;
  /** Refunds a succeeded intent in full. Idempotent: refunding a refunded intent is a no-op. */
  refund(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  /** Checks a webhook's signature over its raw body; throws InvalidSignatureError. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<VerifiedEvent>;
}

/** The webhook's signature is missing, malformed, stale or wrong. */
export class InvalidSignatureError extends Error {
  override readonly name = 'InvalidSignatureError';
}

/** The provider could not be reached or refused a request it should have accepted. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const metadataOf = (m: Stripe.Metadata | null | undefined): PaymentMetadata => ({
  ...(typeof m?.bookingId === 'string' ? { bookingId: m.bookingId } : {}),
  ...(typeof m?.site === 'string' ? { site: m.site } : {}),
});

export function intentInfo(pi: Stripe.PaymentIntent): IntentInfo {
  return {
    id: pi.id,
    status: pi.status,
    amount: pi.amount,
    currency: pi.currency,
    clientSecret: pi.client_secret ?? null,
    metadata: metadataOf(pi.metadata),
  };
}

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/** Reduces a Stripe event (real or simulated, same format) to what the server applies. */
export function toPaymentEvent(e: Stripe.Event): PaymentEvent {
  switch (e.type) {
    case 'payment_intent.succeeded':
      return { kind: 'intent_succeeded', intent: intentInfo(e.data.object) };
    case 'checkout.session.completed': {
      const s = e.data.object;
      return {
        kind: 'checkout_completed',
        sessionId: s.id,
        paid: s.payment_status === 'paid',
        paymentIntentId: idOf(s.payment_intent),
        metadata: metadataOf(s.metadata),
        amount: s.amount_total ?? null,
        currency: s.currency ?? null,
      };
    }
    case 'charge.refunded': {
      const c = e.data.object;
      return { kind: 'charge_refunded', paymentIntentId: idOf(c.payment_intent), fullyRefunded: c.refunded === true };
    }
    default:
      return { kind: 'ignored' };
  }
}
