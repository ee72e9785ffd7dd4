import { describe, expect, it } from 'vitest';
import { checkTestCard, luhnValid } from './test-cards.js';

const NOW = new Date('2026-11-21T09:00:00Z');
const check = (cardNumber: string, expiry = '12/30', cvc = '123') => checkTestCard({ cardNumber, expiry, cvc }, NOW, 'Europe/Rome');

describe('the simulated card check (Stripe test mode)', () => {
  it('knows Luhn', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it('accepts the two success cards, spaces or dashes allowed', () => {
    expect(check('4242 4242 4242 4242')).toEqual({ ok: true });
    expect(check('5555-5555-5555-4444')).toEqual({ ok: true });
  });

  it('declines the decline cards with 402 and any other real-looking card', () => {
    expect(check('4000000000000002')).toMatchObject({ ok: false, status: 402, code: 'card_declined' });
    expect(check('378282246310005', '12/30', '1234')).toMatchObject({ ok: false, status: 402, declineCode: 'test_mode_live_card' });
  });

  it('expiry: valid to the end of its month in Rome', () => {
    expect(check('4242424242424242', '11/26')).toEqual({ ok: true });
    expect(check('4242424242424242', '10/26')).toMatchObject({ status: 400, field: 'expiry' });
    // 2026-11-30 23:30 UTC is already December in Rome.
    expect(checkTestCard({ cardNumber: '4242424242424242', expiry: '11/26', cvc: '123' }, new Date('2026-11-30T23:30:00Z'), 'Europe/Rome')).toMatchObject({ status: 400 });
  });

  it('CVC: 3 digits, 4 for American Express', () => {
    expect(check('4242424242424242', '12/30', '1234')).toMatchObject({ status: 400, field: 'cvc' });
    expect(check('378282246310005', '12/30', '123')).toMatchObject({ status: 400, field: 'cvc' });
  });
});
