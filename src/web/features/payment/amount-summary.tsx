import { formatEuroCents } from '../../../shared/money';
import { PAYMENT_TEXT } from './payment-model';

/** The amount to pay (fixed by the server) and what it is for. */
export function AmountSummary({ cents }: { cents: number }) {
  return (
    <dl className="grid gap-1 rounded-lg border bg-muted p-4">
      <dt className="text-sm text-muted-foreground">Importo da pagare</dt>
      <dd className="text-3xl font-bold tabular-nums">{formatEuroCents(cents)}</dd>
      <dd className="text-sm text-muted-foreground">{PAYMENT_TEXT.feeLabel}</dd>
    </dl>
  );
}
