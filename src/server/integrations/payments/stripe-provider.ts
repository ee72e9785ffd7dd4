import type Stripe from 'stripe';
import type { Clock } from '../../clock.js';
import {
  InvalidSignatureError,
  intentInfo,
  ProviderError,
  toPaymentEvent,
  type CheckoutSessionInfo,
  type CreateCheckoutInput,
  type CreateIntentInput,
  type IntentInfo,
  type PaymentProvider,
  type VerifiedEvent,
} from './provider.js';
import { loadedStripe, loadStripe } from './stripe-sdk.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where the SDK sends its requests instead of https://api.stripe.com (tests: a local server). */
  apiUrl?: string | undefined;
  /** PUBLIC_URL's origin, written in every payment's metadata (see PaymentMetadata). */
  site: string;
}

/** Stripe's minimum lifetime of a Checkout Session is 30 minutes; a minute more for clock skew. */
export const CHECKOUT_SESSION_MINUTES = 31;

/**
 * The Stripe SDK's options. With `apiUrl`, host, port and protocol come from it (the SDK's
 * `host`/`port`/`protocol` options); the path stays the SDK's `/v1/`.
 */
function stripeConfig(settings: Pick<StripeSettings, 'apiUrl'>): Stripe.StripeConfig {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, telemetry: false, appInfo: { name: 'BiciElis' } };
  if (settings.apiUrl) {
    const url = new URL(settings.apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.protocol = protocol;
    config.host = url.hostname;
    config.port = url.port || (protocol === 'http' ? 80 : 443);
  }
  return config;
}

/** The Stripe SDK's client (the SDK is loaded by the first call). */
export async function createStripeClient(settings: Pick<StripeSettings, 'secretKey' | 'apiUrl'>): Promise<Stripe> {
  const config = stripeConfig(settings);
  const StripeSdk = await loadStripe();
  return new StripeSdk(settings.secretKey, config);
}

const stripeError = (err: unknown): Stripe.errors.StripeError | undefined => {
  const sdk = loadedStripe();
  return sdk && err instanceof sdk.errors.StripeError ? err : undefined;
};

const stripeCode = (err: unknown): string | undefined => stripeError(err)?.code;

const isMissing = (err: unknown) => {
  const e = stripeError(err);
  return e !== undefined && (e.code === 'resource_missing' || e.statusCode === 404);
};

function providerError(what: string, err: unknown): ProviderError {
  return new ProviderError(`Stripe: ${what} failed`, stripeCode(err), { cause: err });
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private client: Promise<Stripe> | undefined;

  constructor(
    private readonly settings: StripeSettings,
    private readonly clock: Clock,
  ) {
    // The options are checked now (a bad STRIPE_API_URL fails the start); the SDK loads later.
    stripeConfig(settings);
  }

  private stripe(): Promise<Stripe> {
    this.client ??= createStripeClient(this.settings);
    return this.client;
  }

  async createIntent(input: CreateIntentInput) {
    try {
      const pi = await (await this.stripe()).paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          allowed_payment_method_types: ['card'],
          description: `Prenotazione bici #${input.bookingId}`,
          metadata: { bookingId: String(input.bookingId), site: this.settings.site },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!pi.client_secret) throw new ProviderError('Stripe: intent without client_secret');
      return { id: pi.id, clientSecret: pi.client_secret };
    } catch (err) {
      throw err instanceof ProviderError ? err : providerError('creating a PaymentIntent', err);
    }
  }

  async retrieveIntent(id: string): Promise<IntentInfo | null> {
    // Only what looks like an intent id reaches the URL path.
    if (!/^pi_[A-Za-z0-9_]{1,250}$/.test(id)) return null;
    try {
      return intentInfo(await (await this.stripe()).paymentIntents.retrieve(id));
    } catch (err) {
      if (isMissing(err)) return null;
      throw providerError('retrieving a PaymentIntent', err);
    }
  }

  async createCheckoutSession(input: CreateCheckoutInput) {
    const metadata = { bookingId: String(input.bookingId), site: this.settings.site };
    try {
      const session = await (await this.stripe()).checkout.sessions.create(
        {
          mode: 'payment',
          allowed_payment_method_types: ['card'],
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amount,
                product_data: { name: `Prenotazione bici #${input.bookingId}` },
              },
            },
          ],
          client_reference_id: String(input.bookingId),
          metadata,
          payment_intent_data: { metadata, description: `Prenotazione bici #${input.bookingId}` },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          locale: 'it',
          expires_at: Math.floor(this.clock.now().getTime() / 1000) + CHECKOUT_SESSION_MINUTES * 60,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new ProviderError('Stripe: checkout session without url');
      return { id: session.id, url: session.url };
    } catch (err) {
      throw err instanceof ProviderError ? err : providerError('creating a Checkout Session', err);
    }
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSessionInfo | null> {
    if (!/^cs_[A-Za-z0-9_]{1,250}$/.test(id)) return null;
    try {
      const s = await (await this.stripe()).checkout.sessions.retrieve(id);
      const status: CheckoutSessionInfo['status'] = s.status === 'open' ? 'open' : s.status === 'complete' ? 'complete' : 'expired';
      return { id: s.id, url: s.url, status, expiresAt: new Date(s.expires_at * 1000) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw providerError('retrieving a Checkout Session', err);
    }
  }

  async refund(paymentIntentId: string, idempotencyKey: string): Promise<void> {
    try {
      await (await this.stripe()).refunds.create({ payment_intent: paymentIntentId, reason: 'requested_by_customer' }, { idempotencyKey });
    } catch (err) {
      // Refunded already (by us earlier, or from the Stripe dashboard): nothing left to do.
      if (stripeCode(err) === 'charge_already_refunded') return;
      throw providerError('refunding', err);
    }
  }

  async verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<VerifiedEvent> {
    if (!signature) throw new InvalidSignatureError('missing Stripe-Signature');
    const stripe = await this.stripe();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch (err) {
      throw new InvalidSignatureError(err instanceof Error ? err.message : 'invalid signature', { cause: err });
    }
    return { id: event.id, type: event.type, payload: event, event: toPaymentEvent(event) };
  }
}
