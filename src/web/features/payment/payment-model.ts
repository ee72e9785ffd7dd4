import type { SessionUser } from '../../../shared/api-types';
import { bookingIdParam } from '../../../shared/schemas/payment';
import { ApiError } from '../../lib/api';
import { t } from '../../lib/i18n';
import { serverFieldErrors, serverMessage } from '../../lib/api-errors';

/** The texts of spec §8 for payments, in one place for the screens and the tests. */
export const PAYMENT_TEXT = {
  // Read when shown, in the app's language then (never at load).
  get preparing() { return t('app.preparingPayment'); },
  get initFailed() { return t('payment.initFailed'); },
  get cardFailed() { return t('payment.cardFailed'); },
  get otherFailure() { return t('payment.otherFailure'); },
  get done() { return t('payment.done'); },
  get doneDescription() { return t('payment.doneDescription'); },
  get feeLabel() { return t('payment.feeLabel'); },
  get checkoutNoId() { return t('payment.checkoutNoId'); },
  get checkoutError() { return t('payment.checkoutError'); },
  get checkoutFailed() { return t('payment.checkoutFailed'); },
  get checkoutNoUrl() { return t('payment.checkoutNoUrl'); },
};

/** The booking id of an address (`/payment/12`), or null when it is not one. */
export function parseBookingId(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const parsed = bookingIdParam.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Where the checkout's back button goes (spec §2): the external dashboard of a sigla, else /dashboard. */
export function checkoutBackPath(user: Pick<SessionUser, 'sigla'> | null | undefined): string {
  const sigla = user?.sigla?.trim();
  return sigla ? `/dashboard-esterno/${encodeURIComponent(sigla)}` : '/dashboard';
}

/** A card the provider refused (declined, expired, wrong CVC): the simulated provider answers 402. */
export function isCardRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status === 402;
}

export const CARD_FIELDS = ['cardNumber', 'expiry', 'cvc'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/**
 * The server's messages about the card's fields (a 400 `{ fields: { expiry: '…' } }`, e.g. an
 * expiry already passed): shown next to the fields, not in a toast.
 */
export function cardFieldErrors(error: unknown): Partial<Record<CardField, string>> {
  const fields = serverFieldErrors(error);
  return Object.fromEntries(CARD_FIELDS.filter((name) => fields[name]).map((name) => [name, fields[name]]));
}

/** The toast of a failed card payment (spec §8): 'Pagamento Fallito' with the provider's message. */
export function paymentFailureToast(error: unknown): { title: string; description?: string } {
  const message = serverMessage(error);
  if (isCardRefusal(error)) return { title: PAYMENT_TEXT.cardFailed, description: message ?? t('payment.cardRefused') };
  return message ? { title: PAYMENT_TEXT.otherFailure, description: message } : { title: PAYMENT_TEXT.otherFailure };
}

/** After the card form: the toast, or null when the form shows the problem next to its fields. */
export function cardPaymentFailureToast(error: unknown): { title: string; description?: string } | null {
  return Object.keys(cardFieldErrors(error)).length > 0 ? null : paymentFailureToast(error);
}

/** Where Stripe sends the browser back after a redirect-based payment method. */
export function stripeReturnUrl(origin: string, bookingId: number): string {
  return `${origin}/payment/${bookingId}`;
}

export interface StripeReturn {
  paymentIntentId: string;
  status: string;
}

/**
 * The query Stripe appends to the return URL (`?payment_intent=pi_…&redirect_status=succeeded`),
 * or null on an ordinary visit.
 */
export function readStripeReturn(search: string): StripeReturn | null {
  const params = new URLSearchParams(search);
  const paymentIntentId = params.get('payment_intent');
  const status = params.get('redirect_status');
  if (!paymentIntentId || !status) return null;
  return { paymentIntentId, status };
}
