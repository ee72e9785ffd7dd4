import { describe, expect, it, vi } from 'vitest';
import { tFor } from '../../shared/i18n/all';
import { pickUpRequestSchema, returnRequestSchema } from '../../shared/schemas/booking';
import { answerKind, newActionId, newRideAction, refusalTitle, rideActionRequest } from './actions';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a ride step as the device records it', () => {
  it('has an id made on the device and the time of the tap', () => {
    const at = new Date('2026-05-04T08:42:10.123Z');
    const action = newRideAction({ tipo: 'ritiro', prenotazioneId: 11, userId: 7, biciNumero: '12' }, at);
    expect(action.idAzione).toMatch(UUID_V4);
    expect(action).toMatchObject({ oraDispositivo: '2026-05-04T08:42:10.123Z', stato: 'in_attesa', prenotazioneId: 11, userId: 7 });
  });

  it('keeps the order of two taps in the same millisecond, or with the clock set back', () => {
    const at = new Date('2026-05-04T08:42:10.000Z');
    const input = { tipo: 'ritiro' as const, prenotazioneId: 11, userId: 7, biciNumero: '12' };
    const a = newRideAction(input, at);
    const b = newRideAction(input, at);
    const c = newRideAction(input, new Date('2026-05-04T08:00:00.000Z'));
    expect(a.sequenza).toBeLessThan(b.sequenza);
    expect(b.sequenza).toBeLessThan(c.sequenza);
    expect(new Set([a.idAzione, b.idAzione, c.idAzione]).size).toBe(3);
  });

  it('makes a version 4 UUID from random bytes where crypto.randomUUID is missing (a page over http)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: real.getRandomValues.bind(real) });
    try {
      const ids = [newActionId(), newActionId()];
      expect(ids[0]).toMatch(UUID_V4);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('is sent to the ride’s endpoints with its id and time, which the shared schemas accept', () => {
    const at = new Date('2026-05-04T08:42:10.000Z');
    const pickUp = newRideAction({ tipo: 'ritiro', prenotazioneId: 11, userId: 7, biciNumero: '12' }, at);
    const giveBack = newRideAction(
      { tipo: 'riconsegna', prenotazioneId: 11, userId: 7, biciNumero: '12', danno: { categoria: 'luci', descrizione: 'Fanale rotto' } },
      at,
    );
    const sentPickUp = rideActionRequest(pickUp);
    expect(sentPickUp).toEqual({
      url: '/api/prenotazioni/11/ritiro',
      body: { idAzione: pickUp.idAzione, oraDispositivo: '2026-05-04T08:42:10.000Z' },
    });
    expect(pickUpRequestSchema.safeParse(sentPickUp.body).success).toBe(true);
    const sentReturn = rideActionRequest(giveBack);
    expect(sentReturn.url).toBe('/api/prenotazioni/11/riconsegna');
    expect(returnRequestSchema.parse(sentReturn.body)).toEqual({
      idAzione: giveBack.idAzione,
      oraDispositivo: '2026-05-04T08:42:10.000Z',
      danno: { categoria: 'luci', descrizione: 'Fanale rotto' },
    });
  });

  it('the shared schemas keep both fields optional, and check them when present', () => {
    expect(returnRequestSchema.safeParse({}).success).toBe(true);
    expect(pickUpRequestSchema.safeParse({}).success).toBe(true);
    expect(pickUpRequestSchema.safeParse({ idAzione: 'non-un-uuid' }).success).toBe(false);
    expect(pickUpRequestSchema.safeParse({ oraDispositivo: '2026-05-04 10:42' }).success).toBe(false);
    expect(pickUpRequestSchema.safeParse({ oraDispositivo: '2026-05-04T10:42:00+02:00' }).success).toBe(true);
  });
});

describe('what an answer means for the queue', () => {
  it.each([
    [200, 'applied'],
    [201, 'applied'],
    [400, 'refused'],
    [404, 'refused'],
    [409, 'refused'],
    [401, 'later'],
    [408, 'later'],
    [429, 'later'],
    [500, 'later'],
    [503, 'later'],
  ] as const)('%i → %s', (status, kind) => {
    expect(answerKind(status)).toBe(kind);
  });

  it('words a refusal by its step', () => {
    expect(refusalTitle({ tipo: 'ritiro' }, tFor('it'))).toBe('Ritiro non registrato');
    expect(refusalTitle({ tipo: 'riconsegna' }, tFor('it'))).toBe('Riconsegna non registrata');
  });
});
