import type { SimulatedCard } from '../../../shared/schemas/payment.js';
import { zonedToday } from '../../../shared/time.js';
import { testo, type Testo } from '../../../shared/i18n/index.js';

/**
 * The card check of the simulated provider, with the semantics of Stripe's test mode
 * (https://docs.stripe.com/testing): a well-formed card is accepted or declined according to
 * its number. Messages are catalogue keys, for the payer; codes are Stripe's.
 */
export type CardCheck =
  | { ok: true }
  /** 400: the card as typed cannot be a card (Stripe's Elements would not even send it). */
  | { ok: false; status: 400; message: Testo; code: string; field: keyof SimulatedCard }
  /** 402: a card the (simulated) bank refuses. */
  | { ok: false; status: 402; message: Testo; code: string; declineCode?: string };

/** Test cards that succeed. */
export const SUCCESS_CARDS = ['4242424242424242', '5555555555554444'] as const;

/** Test cards that are declined, with Stripe's code and our message. */
export const DECLINE_CARDS: Record<string, { code: string; declineCode?: string; message: Testo }> = {
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: testo('paymentsApi.cardDeclined') },
  '4000000000009995': { code: 'card_declined', declineCode: 'insufficient_funds', message: testo('paymentsApi.cardInsufficientFunds') },
  '4000000000000069': { code: 'expired_card', message: testo('paymentsApi.cardExpired') },
  '4000000000000127': { code: 'incorrect_cvc', message: testo('paymentsApi.cardIncorrectCvc') },
};

/** The Luhn checksum every real card number satisfies. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const isAmex = (digits: string) => digits.length === 15 && /^3[47]/.test(digits);

/**
 * Checks a card typed in the simulated form. `now` and `timeZone` decide whether the expiry
 * month has passed (a card is valid to the end of its month).
 */
export function checkTestCard(card: SimulatedCard, now: Date, timeZone: string): CardCheck {
  const number = card.cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    return { ok: false, status: 400, message: testo('paymentsApi.cardNumberInvalid'), code: 'incorrect_number', field: 'cardNumber' };
  }
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(card.expiry.trim());
  if (!expiry) {
    return { ok: false, status: 400, message: testo('paymentsApi.expiryInvalid'), code: 'invalid_expiry_month', field: 'expiry' };
  }
  const expiresMonth = `20${expiry[2]}-${expiry[1]}`;
  const thisMonth = zonedToday(now, timeZone).slice(0, 7);
  if (expiresMonth < thisMonth) {
    return { ok: false, status: 400, message: testo('paymentsApi.expiryPassed'), code: 'invalid_expiry_year', field: 'expiry' };
  }
  const cvc = card.cvc.trim();
  if (!(isAmex(number) ? /^\d{4}$/ : /^\d{3}$/).test(cvc)) {
    return {
      ok: false,
      status: 400,
      message: testo(isAmex(number) ? 'paymentsApi.cvcFourDigits' : 'paymentsApi.cvcThreeDigits'),
      code: 'invalid_cvc',
      field: 'cvc',
    };
  }
  if ((SUCCESS_CARDS as readonly string[]).includes(number)) return { ok: true };
  const decline = DECLINE_CARDS[number];
  if (decline) return { ok: false, status: 402, ...decline };
  return { ok: false, status: 402, message: testo('paymentsApi.notATestCard'), code: 'card_declined', declineCode: 'test_mode_live_card' };
}
