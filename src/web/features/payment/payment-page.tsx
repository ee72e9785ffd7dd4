import { ArrowLeftIcon, CircleCheckIcon, ExternalLinkIcon, RotateCwIcon } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, type RouteComponentProps } from 'wouter';
import { PAYMENT_DONE_REDIRECT_MS } from '../../../shared/constants';
import type { PaymentIntentResponse } from '../../../shared/schemas/payment';
import { Button, ButtonIcon } from '../../components/ui/button';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { usePublicConfig } from '../../lib/public-config';
import { serverMessage } from '../../lib/api-errors';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { AmountSummary } from './amount-summary';
import { useConfirmPayment, useConfirmSimulatedIntent, usePaymentIntent, type SimulatedCardValues } from './payment-api';
import { cardPaymentFailureToast, parseBookingId, paymentFailureToast, PAYMENT_TEXT, readStripeReturn } from './payment-model';
import { SimulatedCardForm, TestCardsHint } from './simulated-card-form';
import { t, useT } from '../../lib/i18n';

/** Stripe Elements: a chunk of its own, fetched only when the provider is Stripe. */
const StripePayment = lazy(() => import('./stripe-payment'));

type ConfirmPayment = ReturnType<typeof useConfirmPayment>['mutateAsync'];

/**
 * Back from Stripe's redirect (?payment_intent=pi_…&redirect_status=…): confirm what it says
 * succeeded; a failure says so and leaves the form to try again. Either way the query (with
 * the client secret) goes from the address.
 */
function useStripeReturn(
  stripeReturn: ReturnType<typeof readStripeReturn>,
  bookingId: number | null,
  confirmPayment: ConfirmPayment,
  goToDashboard: () => void,
): void {
  const handledReturn = useRef(false);
  useEffect(() => {
    if (!stripeReturn || handledReturn.current) return;
    handledReturn.current = true;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (stripeReturn.status === 'succeeded') {
      if (bookingId === null) return;
      confirmPayment({ paymentIntentId: stripeReturn.paymentIntentId, bookingId }).then(
        () => toast({ title: PAYMENT_TEXT.done, description: PAYMENT_TEXT.doneDescription }),
        (error: unknown) => {
          toast({ variant: 'destructive', ...paymentFailureToast(error) });
          goToDashboard();
        },
      );
    } else {
      toast({ variant: 'destructive', title: PAYMENT_TEXT.cardFailed, description: t('payment.notAuthorised') });
    }
  }, [stripeReturn, bookingId, confirmPayment, goToDashboard]);
}

/**
 * /payment/:bookingId (spec §2): prepares the booking's payment intent, then takes the card
 * (the simulated provider's form, or Stripe Elements), confirms the payment with the
 * server, says 'Pagamento Completato!' and goes back to the dashboard after 3 s.
 */
export function PaymentPage({ params }: RouteComponentProps<{ bookingId: string }>) {
  const t = useT();
  const bookingId = parseBookingId(params.bookingId);
  // Back from a redirect-based method (Stripe): ?payment_intent=pi_…&redirect_status=…
  const [stripeReturn] = useState(() => readStripeReturn(window.location.search));
  const returnedPaid = stripeReturn?.status === 'succeeded';

  const [, navigate] = useLocation();
  const config = usePublicConfig();
  const intent = usePaymentIntent(returnedPaid ? null : bookingId);

  const provider = config.data?.payment;
  const initFailure =
    bookingId === null
      ? t('payment.invalidBooking')
      : intent.isError
        ? (serverMessage(intent.error) ?? '')
        : config.isError
          ? (serverMessage(config.error) ?? '')
          : provider?.provider === 'stripe' && !provider.publishableKey
            ? t('payment.cardNotConfigured')
            : null;

  const goToDashboard = useCallback(() => navigate('/dashboard', { replace: true }), [navigate]);
  const failInit = useCallback(
    (description: string) => {
      toast({ variant: 'destructive', title: PAYMENT_TEXT.initFailed, ...(description ? { description } : {}) });
      goToDashboard();
    },
    [goToDashboard],
  );

  useEffect(() => {
    if (initFailure !== null) failInit(initFailure);
  }, [initFailure, failInit]);
  const onStripeUnavailable = useCallback(
    () => failInit(t('payment.moduleUnavailable')),
    [failInit, t],
  );

  const { mutateAsync: confirmPayment, isPending: confirming, isSuccess: paid } = useConfirmPayment();
  /** The intent the provider accepted, while its confirmation with the server has to be retried. */
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);

  const finish = useCallback(
    async (paymentIntentId: string) => {
      if (bookingId === null) return;
      try {
        await confirmPayment({ paymentIntentId, bookingId });
      } catch (error) {
        // The card went through: from now on only the confirmation is retried.
        setUnconfirmed(paymentIntentId);
        toast({ variant: 'destructive', ...paymentFailureToast(error) });
        throw error;
      }
      toast({ title: PAYMENT_TEXT.done, description: PAYMENT_TEXT.doneDescription });
    },
    [bookingId, confirmPayment],
  );

  useStripeReturn(stripeReturn, bookingId, confirmPayment, goToDashboard);
  useEffect(() => {
    if (!paid) return;
    const timer = setTimeout(() => navigate('/dashboard'), PAYMENT_DONE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [paid, navigate]);

  if (paid) return <PaymentDone />;
  if (bookingId === null || initFailure !== null || returnedPaid || !intent.data || !provider) {
    return <FullScreenSpinner label={PAYMENT_TEXT.preparing} />;
  }

  let payment;
  if (unconfirmed !== null) {
    payment = <ConfirmRetry pending={confirming} onRetry={() => void finish(unconfirmed).catch(() => undefined)} />;
  } else if (provider.provider === 'simulated') {
    payment = <SimulatedPayment intent={intent.data} onSucceeded={finish} />;
  } else {
    payment = (
      <Suspense fallback={<Spinner label={t('payment.loadingModule')} showLabel className="py-4" />}>
        <StripePayment
          publishableKey={provider.publishableKey ?? ''}
          clientSecret={intent.data.clientSecret}
          bookingId={bookingId}
          onSucceeded={finish}
          onUnavailable={onStripeUnavailable}
        />
      </Suspense>
    );
  }

  return (
    <AuthShell
      wide
      title={t('payment.title')}
      description={t('payment.bookingNo', { id: bookingId })}
      footer={
        <>
          <Link href={`/checkout/${bookingId}`} className={authLinkClass}>
            <ExternalLinkIcon className="mr-2 size-4" aria-hidden="true" />
            {t('payment.externalPage')}
          </Link>
          <Link href="/dashboard" className={authLinkClass}>
            <ArrowLeftIcon className="mr-2 size-4" aria-hidden="true" />
            {t('payment.backToDashboard')}
          </Link>
        </>
      }
    >
      <div className="grid gap-5">
        <AmountSummary cents={intent.data.amount} />
        {payment}
      </div>
    </AuthShell>
  );
}

function SimulatedPayment({
  intent,
  onSucceeded,
}: {
  intent: PaymentIntentResponse;
  onSucceeded: (paymentIntentId: string) => Promise<unknown>;
}) {
  const t = useT();
  const confirmCard = useConfirmSimulatedIntent();

  async function pay(card: SimulatedCardValues) {
    try {
      await confirmCard.mutateAsync({ intent, card });
    } catch (error) {
      const failure = cardPaymentFailureToast(error);
      if (failure) toast({ variant: 'destructive', ...failure });
      throw error;
    }
    await onSucceeded(intent.paymentIntentId);
  }

  return (
    <>
      <TestCardsHint />
      <SimulatedCardForm idPrefix="payment" submitLabel={t('payment.pay')} onPay={pay} />
    </>
  );
}

/** The card went through but the server has not confirmed the booking yet: only that is retried. */
function ConfirmRetry({ pending, onRetry }: { pending: boolean; onRetry: () => void }) {
  const t = useT();
  return (
    <div role="alert" className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="text-sm">
        {t('payment.confirmFailed')}
      </p>
      <Button onClick={onRetry} disabled={pending}>
        <ButtonIcon pending={pending} icon={<RotateCwIcon aria-hidden="true" />} />
        {t('payment.retryConfirm')}
      </Button>
    </div>
  );
}

function PaymentDone() {
  const t = useT();
  return (
    <AuthShell title={PAYMENT_TEXT.done} description={PAYMENT_TEXT.doneDescription}>
      <div className="grid gap-4 text-center">
        <CircleCheckIcon className="mx-auto size-14 text-primary" aria-hidden="true" />
        <p className="text-muted-foreground">{t('payment.soon')}</p>
        <Button asChild size="lg">
          <Link href="/dashboard">{t('payment.goToDashboard')}</Link>
        </Button>
      </div>
    </AuthShell>
  );
}
