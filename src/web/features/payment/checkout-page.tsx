import { ArrowLeftIcon, CircleAlertIcon, CreditCardIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, type RouteComponentProps } from 'wouter';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import { Button, ButtonIcon } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { useT } from '../../lib/i18n';
import { useCurrentUser } from '../../lib/session';
import { serverMessage } from '../../lib/api-errors';
import { AuthShell } from '../../components/auth-shell';
import { useStartCheckout } from './payment-api';
import { checkoutBackPath, parseBookingId, PAYMENT_TEXT } from './payment-model';
import { AmountSummary } from './amount-summary';

/**
 * /checkout/:bookingId? (spec §2 "Checkout"): the booking number, 2,50 €, and a button
 * that sends the browser to the provider's hosted checkout. Without a valid id it says
 * 'ID prenotazione non trovato'.
 */
export function CheckoutPage({ params }: RouteComponentProps<{ bookingId?: string }>) {
  const t = useT();
  const bookingId = parseBookingId(params.bookingId);
  const { data: user } = useCurrentUser();
  const start = useStartCheckout();
  /** True from the answer until the browser has left for the provider's page. */
  const [leaving, setLeaving] = useState(false);
  const back = (
    <Button asChild variant="outline" size="lg" className="w-full">
      <Link href={checkoutBackPath(user)}>
        <ArrowLeftIcon aria-hidden="true" />
        {t('payment.back')}
      </Link>
    </Button>
  );

  if (bookingId === null) {
    return (
      <AuthShell title={t('payment.checkoutTitle')}>
        <div className="grid gap-4">
          <p role="alert" className="flex items-center gap-2 font-medium text-destructive">
            <CircleAlertIcon className="size-5 shrink-0" aria-hidden="true" />
            {PAYMENT_TEXT.checkoutNoId}
          </p>
          {back}
        </div>
      </AuthShell>
    );
  }

  function proceed(id: number) {
    start.mutate(id, {
      onSuccess: (answer) => {
        const url = answer?.paymentUrl;
        if (!url) {
          toast({ variant: 'destructive', title: PAYMENT_TEXT.checkoutError, description: PAYMENT_TEXT.checkoutNoUrl });
          return;
        }
        setLeaving(true);
        window.location.assign(url);
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: PAYMENT_TEXT.checkoutError,
          description: serverMessage(error) ?? PAYMENT_TEXT.checkoutFailed,
        });
      },
    });
  }

  const pending = start.isPending || leaving;
  return (
    <AuthShell title={t('payment.checkoutTitle')} description={t('payment.bookingNo', { id: bookingId })}>
      <div className="grid gap-4">
        <AmountSummary cents={EXTERNAL_FEE_CENTS} />
        <p className="text-sm text-muted-foreground">
          {t('payment.redirectNote')}
        </p>
        <Button size="lg" className="w-full" disabled={pending} onClick={() => proceed(bookingId)}>
          <ButtonIcon pending={pending} icon={<CreditCardIcon aria-hidden="true" />} />
          {t('payment.proceed')}
          {pending ? <span className="sr-only">{t('payment.opening')}</span> : null}
        </Button>
        {back}
      </div>
    </AuthShell>
  );
}
