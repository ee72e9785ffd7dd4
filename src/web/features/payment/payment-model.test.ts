import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomains } from '../../lib/i18n';
import { ApiError } from '../../lib/api';
import {
  cardFieldErrors,
  cardPaymentFailureToast,
  checkoutBackPath,
  isCardRefusal,
  parseBookingId,
  paymentFailureToast,
  PAYMENT_TEXT,
  readStripeReturn,
  stripeReturnUrl,
} from './payment-model';

// The texts in Italian, as the page of an Italian reader has them.
beforeAll(() => loadDomains('user'));

describe('parseBookingId', () => {
  it('reads a positive integer id from the address', () => {
    expect(parseBookingId('12')).toBe(12);
  });

  it.each([undefined, '', 'abc', '0', '-3', '1.5', '99999999999'])('refuses %j', (raw) => {
    expect(parseBookingId(raw)).toBeNull();
  });
});

describe('checkoutBackPath', () => {
  it('goes to the external dashboard of a sigla, else to /dashboard (spec §2)', () => {
    expect(checkoutBackPath({ sigla: 'ELIS001' })).toBe('/dashboard-esterno/ELIS001');
    expect(checkoutBackPath({ sigla: 'A B' })).toBe('/dashboard-esterno/A%20B');
    expect(checkoutBackPath({ sigla: null })).toBe('/dashboard');
    expect(checkoutBackPath({ sigla: '  ' })).toBe('/dashboard');
    expect(checkoutBackPath(null)).toBe('/dashboard');
    expect(checkoutBackPath(undefined)).toBe('/dashboard');
  });
});

describe('payment failures (spec §8)', () => {
  const declined = new ApiError(402, { message: 'La carta è stata rifiutata.', code: 'card_declined' }, 'La carta è stata rifiutata.');

  it("a refused card is 'Pagamento Fallito' with the provider's message", () => {
    expect(isCardRefusal(declined)).toBe(true);
    expect(paymentFailureToast(declined)).toEqual({ title: PAYMENT_TEXT.cardFailed, description: 'La carta è stata rifiutata.' });
    expect(paymentFailureToast(new ApiError(402, '', '402: '))).toEqual({
      title: PAYMENT_TEXT.cardFailed,
      description: 'La carta è stata rifiutata.',
    });
  });

  it("anything else is 'Si è verificato un errore durante il pagamento', with the server's message when it has one", () => {
    const conflict = new ApiError(409, { message: 'Prenotazione già pagata' }, 'Prenotazione già pagata');
    expect(isCardRefusal(conflict)).toBe(false);
    expect(paymentFailureToast(conflict)).toEqual({ title: PAYMENT_TEXT.otherFailure, description: 'Prenotazione già pagata' });
    expect(paymentFailureToast(new TypeError('Failed to fetch'))).toEqual({ title: PAYMENT_TEXT.otherFailure });
  });
});

describe('card field errors', () => {
  it("are shown next to the fields, without a toast; other failures keep theirs", () => {
    const expired = new ApiError(
      400,
      { message: 'La data di scadenza della carta è già passata', fields: { expiry: 'La data di scadenza della carta è già passata', other: 'x' } },
      'La data di scadenza della carta è già passata',
    );
    expect(cardFieldErrors(expired)).toEqual({ expiry: 'La data di scadenza della carta è già passata' });
    expect(cardPaymentFailureToast(expired)).toBeNull();
    const declined = new ApiError(402, { message: 'La tua carta è stata rifiutata.' }, 'La tua carta è stata rifiutata.');
    expect(cardFieldErrors(declined)).toEqual({});
    expect(cardPaymentFailureToast(declined)).toEqual({ title: 'Pagamento Fallito', description: 'La tua carta è stata rifiutata.' });
  });
});

describe('Stripe redirect return', () => {
  it('builds the return URL on the public origin', () => {
    expect(stripeReturnUrl('https://bici.example.org', 7)).toBe('https://bici.example.org/payment/7');
  });

  it('reads the query Stripe appends, and nothing on an ordinary visit', () => {
    expect(readStripeReturn('?payment_intent=pi_123&payment_intent_client_secret=pi_123_secret_x&redirect_status=succeeded')).toEqual({
      paymentIntentId: 'pi_123',
      status: 'succeeded',
    });
    expect(readStripeReturn('?payment_intent=pi_123&redirect_status=failed')).toEqual({ paymentIntentId: 'pi_123', status: 'failed' });
    expect(readStripeReturn('')).toBeNull();
    expect(readStripeReturn('?payment_intent=pi_123')).toBeNull();
  });
});
