import { money } from '../../../shared/i18n/format';
import { useLingua, useT } from '../../lib/i18n';
import { useNoShowNotice } from '../../lib/no-show';
import { PAYMENT_TEXT } from './payment-model';

/** The amount to pay (fixed by the server), what it is for, and that a no-show is not refunded. */
export function AmountSummary({ cents }: { cents: number }) {
  const t = useT();
  const lingua = useLingua();
  const noShowNotice = useNoShowNotice();
  return (
    <dl className="grid gap-1 rounded-lg border bg-muted p-4">
      <dt className="text-sm text-muted-foreground">{t('payment.amountDue')}</dt>
      <dd className="text-3xl font-bold tabular-nums">{money(cents, lingua)}</dd>
      <dd className="text-sm text-muted-foreground">{PAYMENT_TEXT.feeLabel}</dd>
      <dd className="mt-2 text-sm text-muted-foreground">{noShowNotice}</dd>
    </dl>
  );
}
