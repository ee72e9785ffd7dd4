import { CircleAlertIcon, CircleCheckIcon, LockIcon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { simulatedSessionParamsSchema, type SimulatedCheckoutSession } from '../../../shared/schemas/payment';
import { formatEuroCents } from '../../../shared/money';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { ApiError } from '../../lib/api';
import { serverMessage } from '../auth/api-errors';
import { usePaySimulatedCheckout, useSimulatedCheckoutSession, type SimulatedCardValues } from './payment-api';
import { cardPaymentFailureToast } from './payment-model';
import { SimulatedCardForm, TestCardsHint } from './simulated-card-form';
import type { RouteComponentProps } from 'wouter';

const PAGE_TITLE = 'Pagamento simulato BiciElis';
const linkClass =
  'inline-flex min-h-11 items-center font-medium text-slate-900 underline underline-offset-4 hover:text-slate-700';

/**
 * /pagamento-simulato/:sessionId: the simulated provider's hosted checkout, the page
 * Stripe Checkout would be. Deliberately plain and neutral, so it reads as somebody
 * else's page: the amount, the same card form as /payment, a cancel link back to BiciElis.
 */
export function SimulatedCheckoutPage({ params }: RouteComponentProps<{ sessionId: string }>) {
  const parsed = simulatedSessionParamsSchema.safeParse({ sessionId: params.sessionId });
  const sessionId = parsed.success ? parsed.data.sessionId : null;
  const session = useSimulatedCheckoutSession(sessionId);

  useEffect(() => {
    const previous = document.title;
    document.title = PAGE_TITLE;
    return () => {
      document.title = previous;
    };
  }, []);

  let body: ReactNode;
  if (sessionId === null || session.isError) {
    body = (
      <Notice icon="error" title="Sessione di pagamento non trovata">
        {serverMessage(session.error) ?? 'Il collegamento di pagamento non è valido o è scaduto.'}{' '}
        <a href="/dashboard" className={linkClass}>
          Torna a BiciElis
        </a>
      </Notice>
    );
  } else if (!session.data) {
    body = <Spinner label="Caricamento del pagamento..." showLabel className="py-8" />;
  } else if (session.data.status === 'complete') {
    body = (
      <Notice icon="done" title="Pagamento già completato">
        Questa prenotazione è già stata pagata.{' '}
        <a href="/dashboard" className={linkClass}>
          Torna a BiciElis
        </a>
      </Notice>
    );
  } else if (session.data.status === 'expired') {
    body = (
      <Notice icon="error" title="Sessione di pagamento scaduta">
        Il tempo per pagare è scaduto.{' '}
        <a href={session.data.cancelUrl} className={linkClass}>
          Torna a BiciElis
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
            Pagamento sicuro
          </p>
          <span className="rounded border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-900">
            Ambiente di prova
          </span>
        </div>
      </header>
      <main className="mx-auto grid max-w-3xl gap-6 px-4 py-6 sm:py-10">
        <h1 className="text-2xl font-bold tracking-tight">{PAGE_TITLE}</h1>
        {body}
      </main>
      <footer className="mx-auto max-w-3xl px-4 pb-8 text-sm text-slate-600">
        Pagina del fornitore di pagamento simulato di BiciElis: nessun addebito reale, i dati della carta non vengono
        conservati.
      </footer>
    </div>
  );
}

function OpenSession({ session, onStale }: { session: SimulatedCheckoutSession; onStale: () => void }) {
  const pay = usePaySimulatedCheckout(session.id);
  /** True from the answer until the browser has left for BiciElis. */
  const [leaving, setLeaving] = useState(false);
  const amount = formatEuroCents(session.amount);

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
          Pagamento a BiciElis
        </h2>
        <p className="text-4xl font-bold tabular-nums">{amount}</p>
        <p className="text-sm text-slate-600">Prenotazione n. {session.bookingId} · tariffa per utenti esterni</p>
      </section>
      <section aria-labelledby="card-details" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="card-details" className="text-lg font-semibold">
          Dati della carta
        </h2>
        <TestCardsHint />
        <SimulatedCardForm
          idPrefix="checkout"
          submitLabel={`Paga ${amount}`}
          onPay={payWith}
          busy={leaving}
          buttonClassName="bg-slate-900 text-white hover:bg-slate-700"
        />
        <a href={session.cancelUrl} className={`${linkClass} justify-self-center`}>
          Annulla e torna a BiciElis
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
