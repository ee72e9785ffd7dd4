import type Stripe from 'stripe';

/** The Stripe SDK's class (and its static helpers: `webhooks`, `errors`, `API_VERSION`). */
export type StripeSdk = typeof Stripe;

let loading: Promise<StripeSdk> | undefined;
let loaded: StripeSdk | undefined;

/**
 * The Stripe SDK, loaded by the first payment or webhook, not at start: about 4 MB of heap
 * that a process which takes no payment never needs (issue 33).
 */
export function loadStripe(): Promise<StripeSdk> {
  loading ??= import('stripe').then((m) => (loaded = m.default));
  return loading;
}

/** The SDK if already loaded (an error can only be the SDK's once it is). */
export function loadedStripe(): StripeSdk | undefined {
  return loaded;
}
