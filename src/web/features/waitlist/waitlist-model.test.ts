import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomains } from '../../lib/i18n';
import { tFor } from '../../../shared/i18n/all';
import type { WaitDto } from '../../../shared/schemas/waitlist';
import { countdownText, offerSentence, placeText, splitWaits, waitWindowText } from './waitlist-model';

// The texts in Italian, as the page of an Italian reader has them.
beforeAll(() => loadDomains('user'));

const wait = (over: Partial<WaitDto> = {}): WaitDto => ({
  id: 1,
  dataPrenotazione: '2026-12-12',
  orarioInizio: '10:00',
  orarioFine: '12:00',
  destinazione: null,
  stato: 'in_attesa',
  posizione: 1,
  createdAt: '2026-12-01T09:00:00.000Z',
  bloccataDaPrenotazione: false,
  sedeId: 1,
  offerta: null,
  ...over,
});

describe('the waitlist on the dashboard', () => {
  it('counts an offer down in minutes and seconds, never below zero', () => {
    expect(countdownText(14 * 60_000 + 32_000)).toBe('14:32');
    expect(countdownText(5_000)).toBe('0:05');
    expect(countdownText(999)).toBe('0:01');
    expect(countdownText(-3_000)).toBe('0:00');
    expect(countdownText(3_725_000)).toBe('1:02:05');
  });

  it('writes the offer, the window and the place in line in Italian', () => {
    expect(offerSentence(wait(), tFor('it'))).toBe('Una bici si è liberata per il 12/12 dalle 10:00 alle 12:00');
    expect(waitWindowText(wait())).toBe('sabato 12 dicembre 2026, 10:00–12:00');
    expect(placeText(3)).toBe('3° in lista');
  });

  it('puts the offers apart from the waits still in line', () => {
    const offer = wait({ id: 2, stato: 'offerta', offerta: { biciId: 7, biciNumero: '07', biciModello: 'City Bike', scadeAt: '2026-12-12T08:00:00.000Z' } });
    expect(splitWaits([offer, wait()])).toEqual({ offers: [offer], waiting: [wait()] });
  });
});
