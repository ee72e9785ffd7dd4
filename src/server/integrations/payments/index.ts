import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { PaymentProvider } from './provider.js';
import { SimulatedProvider, type SimulatedProviderOptions } from './simulated-provider.js';
import { StripeProvider } from './stripe-provider.js';

export type { PaymentProvider } from './provider.js';

/** Stripe when its keys are set (STRIPE_*), otherwise the simulated provider. */
export function paymentProviderFromConfig(
  config: Pick<Config, 'stripe' | 'publicUrl' | 'publicOrigin' | 'timeZone'>,
  db: Db,
  clock: Clock,
  log: SimulatedProviderOptions['log'],
): PaymentProvider {
  if (config.stripe) {
    return new StripeProvider(
      {
        secretKey: config.stripe.secretKey,
        webhookSecret: config.stripe.webhookSecret,
        apiUrl: config.stripe.apiUrl,
        site: config.publicOrigin,
      },
      clock,
    );
  }
  return new SimulatedProvider({ db, clock, publicUrl: config.publicUrl, timeZone: config.timeZone, log });
}
