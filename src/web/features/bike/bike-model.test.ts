import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomains } from '../../lib/i18n';
import { bikeNowLines, bookThisBikeHref, canOfferBooking } from './bike-model';

// The texts in Italian, as the page of an Italian reader has them.
beforeAll(() => loadDomains('user'));

const TZ = 'Europe/Rome';
const none = { liberaFino: null, inUsoFino: null, prenotataDalle: null, prossimaLiberaOggi: null };

describe("a bike's state on its page", () => {
  it('says until when the state holds and the next free time today, in Rome\'s time', () => {
    expect(bikeNowLines({ ...none, stato: 'libera', liberaFino: '2026-11-21T14:00:00.000Z', prossimaLiberaOggi: '2026-11-21T09:00:00.000Z' }, TZ)).toEqual([
      'Libera fino alle 15:00',
    ]);
    expect(bikeNowLines({ ...none, stato: 'libera' }, TZ)).toEqual(['Libera per il resto della giornata']);
    expect(bikeNowLines({ ...none, stato: 'in_uso', inUsoFino: '2026-11-21T13:00:00.000Z', prossimaLiberaOggi: '2026-11-21T13:00:00.000Z' }, TZ)).toEqual([
      'In uso fino alle 14:00',
      'Libera dalle 14:00',
    ]);
    expect(bikeNowLines({ ...none, stato: 'prenotata', prenotataDalle: '2026-11-21T14:00:00.000Z' }, TZ)).toEqual([
      'Prenotata dalle 15:00',
      'Non più libera oggi',
    ]);
    expect(bikeNowLines({ ...none, stato: 'fuori_servizio' }, TZ)).toEqual(['Non più libera oggi']);
    expect(bikeNowLines({ ...none, stato: 'in_ritardo', inUsoFino: '2026-11-21T13:00:00.000Z' }, TZ)[0]).toMatch(/^Non ancora riconsegnata/);
  });

  it('offers the booking unless the bike is out of use for the day; the link names the bike', () => {
    expect(canOfferBooking({ stato: 'libera', prossimaLiberaOggi: null })).toBe(true);
    expect(canOfferBooking({ stato: 'in_uso', prossimaLiberaOggi: null })).toBe(true);
    expect(canOfferBooking({ stato: 'fuori_servizio', prossimaLiberaOggi: null })).toBe(false);
    expect(canOfferBooking({ stato: 'manutenzione', prossimaLiberaOggi: null })).toBe(false);
    expect(canOfferBooking({ stato: 'manutenzione', prossimaLiberaOggi: '2026-11-21T15:00:00.000Z' })).toBe(true);
    expect(bookThisBikeHref('07')).toBe('/dashboard?bici=07');
    expect(bookThisBikeHref('City 12')).toBe('/dashboard?bici=City%2012');
  });
});
