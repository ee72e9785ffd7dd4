import { zodResolver } from '@hookform/resolvers/zod';
import { FlaskConicalIcon, LockIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { simulatedCardSchema, type SimulatedCard } from '../../../shared/schemas/payment';
import { Input } from '../../components/ui/input';
import { FormField } from '../../components/form-field';
import { SubmitButton } from '../../components/submit-button';
import type { SimulatedCardValues } from './payment-api';
import { CARD_FIELDS, cardFieldErrors, isCardRefusal } from './payment-model';
import { Trans, useT } from '../../lib/i18n';

export const TEST_CARD_OK = '4242 4242 4242 4242';
export const TEST_CARD_DECLINED = '4000 0000 0000 0002';

interface SimulatedCardFormProps {
  /** Prefix of the inputs' ids (two forms never share a page, but ids stay explicit). */
  idPrefix: string;
  /** The submit button's text: 'Paga' on /payment, 'Paga 2,50 €' on the hosted page. */
  submitLabel: ReactNode;
  /** Pays with the card; rejects with the API error when the payment did not go through. */
  onPay: (card: SimulatedCardValues) => Promise<unknown>;
  /** Keeps the button busy after `onPay` resolved (e.g. while the browser leaves the page). */
  busy?: boolean;
  buttonClassName?: string;
}

/**
 * The simulated provider's card form (number, expiry MM/AA, CVC), checked with the schema
 * the server uses. Shared by /payment and the hosted page /pagamento-simulato. The parent
 * shows the toasts (none for per-field messages: `cardPaymentFailureToast`); the form shows the
 * server's per-field messages and, when the card is refused, selects the card number
 * ready to be typed again.
 */
export function SimulatedCardForm({ idPrefix, submitLabel, onPay, busy = false, buttonClassName }: SimulatedCardFormProps) {
  const t = useT();
  const form = useForm<SimulatedCard, unknown, SimulatedCardValues>({
    resolver: zodResolver(simulatedCardSchema),
    defaultValues: { cardNumber: '', expiry: '', cvc: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function pay(card: SimulatedCardValues) {
    try {
      await onPay(card);
    } catch (error) {
      const fields = cardFieldErrors(error);
      const invalid = CARD_FIELDS.filter((name) => fields[name]);
      for (const name of invalid) form.setError(name, { message: fields[name] });
      if (invalid[0]) form.setFocus(invalid[0]);
      else if (isCardRefusal(error)) form.setFocus('cardNumber', { shouldSelect: true });
    }
  }

  return (
    <form className="grid gap-4" noValidate aria-busy={isSubmitting || busy} onSubmit={form.handleSubmit(pay)}>
      <FormField id={`${idPrefix}-card-number`} label={t('payment.cardNumber')} error={errors.cardNumber?.message} required>
        {(control) => (
          <Input
            {...control}
            {...form.register('cardNumber')}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            maxLength={23}
            spellCheck={false}
          />
        )}
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField id={`${idPrefix}-expiry`} label={t('payment.expiry')} error={errors.expiry?.message} required>
          {(control) => (
            <Input
              {...control}
              {...form.register('expiry')}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder={t('payment.expiryPlaceholder')}
              maxLength={7}
              spellCheck={false}
            />
          )}
        </FormField>
        <FormField id={`${idPrefix}-cvc`} label={t('payment.cvc')} error={errors.cvc?.message} required>
          {(control) => (
            <Input
              {...control}
              {...form.register('cvc')}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              maxLength={4}
              spellCheck={false}
            />
          )}
        </FormField>
      </div>
      <SubmitButton
        pending={isSubmitting || busy}
        pendingLabel={t('payment.paying')}
        icon={<LockIcon aria-hidden="true" />}
        className={buttonClassName}
      >
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

/** Says that the payment is a test one and which cards to type. */
export function TestCardsHint() {
  const t = useT();
  return (
    <div
      role="note"
      aria-labelledby="test-cards-title"
      className="flex gap-3 rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950"
    >
      <FlaskConicalIcon className="mt-0.5 size-5 shrink-0 text-sky-700" aria-hidden="true" />
      <div className="grid gap-1">
        <p id="test-cards-title" className="font-semibold">
          {t('payment.testTitle')}
        </p>
        <p>
          <Trans
            id="payment.testCards"
            values={{ ok: TEST_CARD_OK, declined: TEST_CARD_DECLINED }}
            components={{ 0: <span className="font-mono whitespace-nowrap" />, 1: <span className="font-mono whitespace-nowrap" /> }}
          />
        </p>
      </div>
    </div>
  );
}
