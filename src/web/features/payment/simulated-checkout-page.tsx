import { CircleAlertIcon, CircleCheckIcon, LockIcon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { simulatedSessionParamsSchema, type SimulatedCheckoutSession } from '../../../shared/schemas/payment';
import { money } from '../../../shared/i18n/format';
import { useLingua, useT } from '../../lib/i18n';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { usePaySimulatedCheckout, useSimulatedCheckoutSession, type SimulatedCardValues } from './payment-api';
import { cardPaymentFailureToast } from './payment-model';
import { SimulatedCardForm, TestCardsHint } from './simulated-card-form';
import type { RouteComponentProps } from 'wouter';

const linkClass =
  'inline-flex min-h-11 items-center font-medium text-slate-900 underline underline-offset-4 hover:text-slate-700';

/**
 * /pagamento-simulato/:sessionId: the simulated provider's hosted checkout, the page
 * Stripe Checkout would be. Deliberately plain and neutral, so it reads as somebody
 * else's page: the amount, the same card form as /payment, a cancel link back to BiciElis.
 */
export function SimulatedCheckoutPage({ params }: RouteComponentProps<{ sessionId: string }>) {
  const t = useT();
  const pageTitle = t('payment.simulatedTitle');
  const parsed = simulatedSessionParamsSchema.safeParse({ sessionId: params.sessionId });
  const sessionId = parsed.success ? parsed.data.sessionId : null;
  const session = useSimulatedCheckoutSession(sessionId);

  useEffect(() => {
    const previous = document.title;
    document.title = pageTitle;
    return () => {
      document.title = previous;
    };
  }, [pageTitle]);

  let body: ReactNode;
  if (sessionId === null || session.isError) {
    body = (
      <Notice icon="error" title={t('payment.sessionNotFound')}>
        {serverMessage(session.error) ?? t('payment.linkInvalid')}{' '}
        <a href="/dashboard" className={linkClass}>
          {t('payment.backToBiciElis')}
        </a>
      </Notice>
    );
  } else if (!session.data) {
    body = <Spinner label={t('app.loadingPayment')} showLabel className="py-8" />;
  } else if (session.data.status === 'complete') {
    body = (
      <Notice icon="done" title={t('payment.alreadyDone')}>
        {t('payment.alreadyPaid')}{' '}
        <a href="/dashboard" className={linkClass}>
          {t('payment.backToBiciElis')}
        </a>
      </Notice>
    );
  } else if (session.data.status === 'expired') {
    body = (
      <Notice icon="error" title={t('payment.sessionExpired')}>
        {t('payment.timeUp')}{' '}
        <a href={session.data.cancelUrl} className={linkClass}>
          {t('payment.backToBiciElis')}
        </a>
      </Notice>
    );
  } else {
    body = <OpenSession session={session.data} onStale={() => void session.refetch()} />;
  }

  return (
    <div className="min-h-dvh bg-slate-100 text-slate-900">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-2 px-4 py-3">
          <p className="flex items-center gap-2 text-sm font-semibold">
            <LockIcon className="size-4" aria-hidden="true" />
            {t('payment.secure')}
          </p>
          <span className="rounded border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-900">
            {t('payment.testEnvironment')}
          </span>
        </div>
      </header>
      <main className="mx-auto grid max-w-3xl gap-6 px-4 py-6 sm:py-10">
        <h1 className="text-2xl font-bold tracking-tight">{pageTitle}</h1>
        {body}
      </main>
      <footer className="mx-auto max-w-3xl px-4 pb-8 text-sm text-slate-600">
        {t('payment.simulatedFooter')}
      </footer>
    </div>
  );
}

function OpenSession({ session, onStale }: { session: SimulatedCheckoutSession; onStale: () => void }) {
  const t = useT();
  const lingua = useLingua();
  const pay = usePaySimulatedCheckout(session.id);
  /** True from the answer until the browser has left for BiciElis. */
  const [leaving, setLeaving] = useState(false);
  const amount = money(session.amount, lingua);

  async function payWith(card: SimulatedCardValues) {
    let redirectUrl: string;
    try {
      ({ redirectUrl } = await pay.mutateAsync(card));
    } catch (error) {
      const failure = cardPaymentFailureToast(error);
      if (failure) toast({ variant: 'destructive', ...failure });
      // Completed or expired meanwhile (another tab): show the session as it is now.
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) onStale();
      throw error;
    }
    setLeaving(true);
    window.location.assign(redirectUrl);
  }

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_1.2fr] md:items-start">
      <section aria-labelledby="order-summary" className="grid gap-2 rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="order-summary" className="text-sm font-medium text-slate-600">
          {t('payment.payTo')}
        </h2>
        <p className="text-4xl font-bold tabular-nums">{amount}</p>
        <p className="text-sm text-slate-600">{t('payment.sessionBooking', { id: session.bookingId })}</p>
      </section>
      <section aria-labelledby="card-details" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="card-details" className="text-lg font-semibold">
          {t('payment.cardDetails')}
        </h2>
        <TestCardsHint />
        <SimulatedCardForm
          idPrefix="checkout"
          submitLabel={t('payment.payAmount', { importo: amount })}
          onPay={payWith}
          busy={leaving}
          buttonClassName="bg-slate-900 text-white hover:bg-slate-700"
        />
        <a href={session.cancelUrl} className={`${linkClass} justify-self-center`}>
          {t('payment.cancelBack')}
        </a>
      </section>
    </div>
  );
}

function Notice({ icon, title, children }: { icon: 'done' | 'error'; title: string; children: ReactNode }) {
  const Icon = icon === 'done' ? CircleCheckIcon : CircleAlertIcon;
  return (
    <section
      role={icon === 'error' ? 'alert' : undefined}
      aria-labelledby="notice-title"
      className="grid gap-2 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id="notice-title" className="flex items-center gap-2 text-lg font-semibold">
        <Icon className={icon === 'done' ? 'size-5 text-green-700' : 'size-5 text-red-700'} aria-hidden="true" />
        {title}
      </h2>
      <p>{children}</p>
    </section>
  );
}
