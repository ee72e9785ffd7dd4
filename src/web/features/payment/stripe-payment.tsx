import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { LockIcon } from 'lucide-react';
import { use, useEffect, useState, type FormEvent } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { SubmitButton } from '../../components/submit-button';
import { PAYMENT_TEXT, stripeReturnUrl } from './payment-model';
import { currentLingua, useT } from '../../lib/i18n';

/**
 * Stripe Elements for /payment when GET /api/config says 'stripe'. This module is its own
 * chunk, loaded only then: neither Stripe.js (`/pure` injects the script only when
 * loadStripe is called) nor @stripe/react-stripe-js reaches any other page.
 */

const stripes = new Map<string, Promise<Stripe | null>>();

/** One Stripe.js per publishable key and page; a script that cannot load gives null. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey, { locale: currentLingua() }).catch(() => null);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

export interface StripePaymentProps {
  publishableKey: string;
  clientSecret: string;
  bookingId: number;
  /** The intent succeeded: confirm it with the server. */
  onSucceeded: (paymentIntentId: string) => Promise<unknown>;
  /** Stripe.js could not be loaded (blocked, offline). */
  onUnavailable: () => void;
}

export default function StripePayment({ publishableKey, clientSecret, ...rest }: StripePaymentProps) {
  // Suspends (under the page's Suspense) until Stripe.js has loaded.
  const stripe = use(stripeFor(publishableKey));
  const { onUnavailable } = rest;
  useEffect(() => {
    if (!stripe) onUnavailable();
  }, [stripe, onUnavailable]);
  if (!stripe) return null;

  return (
    <Elements
      stripe={stripe}
      options={{
        clientSecret,
        locale: currentLingua(),
        appearance: { theme: 'stripe', variables: { colorPrimary: '#15803d', borderRadius: '6px' } },
      }}
    >
      <StripeForm {...rest} />
    </Elements>
  );
}

function StripeForm({ bookingId, onSucceeded }: Omit<StripePaymentProps, 'publishableKey' | 'clientSecret' | 'onUnavailable'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [paying, setPaying] = useState(false);
  const t = useT();

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || paying) return;
    setPaying(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: stripeReturnUrl(window.location.origin, bookingId) },
      });
      if (error) {
        toast({ variant: 'destructive', title: PAYMENT_TEXT.cardFailed, description: error.message ?? PAYMENT_TEXT.otherFailure });
      } else if (paymentIntent.status === 'succeeded') {
        await onSucceeded(paymentIntent.id);
      } else {
        toast({ variant: 'destructive', title: PAYMENT_TEXT.otherFailure });
      }
    } catch {
      // onSucceeded has shown its own message.
    } finally {
      setPaying(false);
    }
  }

  return (
    <form className="grid gap-4" noValidate aria-busy={paying} onSubmit={(event) => void pay(event)}>
      {ready ? null : <Spinner label={t('payment.loadingModule')} showLabel className="py-4" />}
      <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      <SubmitButton pending={paying} disabled={!ready || !stripe || !elements} pendingLabel={t('payment.paying')} icon={<LockIcon aria-hidden="true" />}>
        {t('payment.pay')}
      </SubmitButton>
    </form>
  );
}
