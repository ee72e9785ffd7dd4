import { describe, expect, it } from 'vitest';
import { tFor } from './i18n/all.js';
import { dayMonth, offerSentence } from './waitlist-text.js';

const it_ = tFor('it');
const en = tFor('en');

describe('the waitlist sentences', () => {
  it('writes the offer as the issue quotes it, day and month with two digits', () => {
    expect(offerSentence({ dataPrenotazione: '2026-12-12', orarioInizio: '10:00', orarioFine: '12:00' }, it_)).toBe(
      'Una bici si è liberata per il 12/12 dalle 10:00 alle 12:00',
    );
    expect(dayMonth('2027-01-05')).toBe('05/01');
  });

  it('writes the offer in English', () => {
    expect(offerSentence({ dataPrenotazione: '2026-12-12', orarioInizio: '10:00', orarioFine: '12:00' }, en)).toBe(
      'A bike has freed up for 12/12 from 10:00 to 12:00',
    );
  });
});
