import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { rideActionRequest, newRideAction } from './actions';
import { forgetDeviceUser } from './device-user';
import { drawNewCode, forgetKeptCode, forgetKeptRide, keepLockCode, keepNewCode, keptCodeFor, readKeptRide } from './lock-codes';

const code = { tipo: 'combinazione' as const, codice: '4821', validoDa: '2026-12-14T08:50:00.000Z', validoFino: '2026-12-14T10:00:00.000Z' };

describe('the lock code kept on the device (issue 34)', () => {
  afterEach(async () => {
    await forgetKeptRide(11);
  });

  it('keeps the code shown and the code for the return, per booking', async () => {
    await keepLockCode(11, code, 7);
    await keepNewCode(11, '3907');
    expect(await readKeptRide(11)).toEqual({ codice: code, biciId: 7, nuovoCodice: '3907' });
    expect(await readKeptRide(12)).toEqual({});
  });

  it('drops the shown code when the server no longer shows it, keeping the one for the return', async () => {
    await keepLockCode(11, code, 7);
    await keepNewCode(11, '3907');
    await forgetKeptCode(11);
    expect(await readKeptRide(11)).toEqual({ nuovoCodice: '3907' });
    await forgetKeptCode(11);
    await keepLockCode(11, code, 7);
    await forgetKeptCode(11);
    expect(await readKeptRide(11)).toEqual({ nuovoCodice: '3907' });
  });

  it('never gives the code of the bike the booking was moved from (issue 35)', async () => {
    await keepLockCode(11, code, 7);
    expect(await keptCodeFor(11, 7)).toEqual(code);
    expect(await keptCodeFor(11, 8)).toBeUndefined();
    expect(await keptCodeFor(12, 7)).toBeUndefined();
  });

  it('forgets everything at the return, and at logout', async () => {
    await keepLockCode(11, code, 7);
    await forgetKeptRide(11);
    expect(await readKeptRide(11)).toEqual({});
    await keepLockCode(11, code, 7);
    await keepNewCode(11, '3907');
    await forgetDeviceUser();
    expect(await readKeptRide(11)).toEqual({});
  });
});

describe('a new code drawn on the device', () => {
  it('is 4 digits, zeros kept', () => {
    expect(drawNewCode(null, () => 0)).toBe('0000');
    expect(drawNewCode(null, () => 0.0042)).toBe('0042');
    expect(drawNewCode(null, () => 0.99999)).toBe('9999');
    for (let i = 0; i < 200; i++) expect(drawNewCode()).toMatch(/^[0-9]{4}$/);
  });

  it('is never the code the lock has now', () => {
    const draws = [0.4821, 0.4821, 0.3907];
    expect(drawNewCode('4821', () => draws.shift()!)).toBe('3907');
  });

  it('travels with an offline pick-up only', () => {
    const pickUp = { ...newRideAction({ tipo: 'ritiro', prenotazioneId: 11, userId: 7, biciNumero: '07' }), nuovoCodice: '3907' };
    expect(rideActionRequest(pickUp).body).toMatchObject({ nuovoCodice: '3907' });
    const plain = newRideAction({ tipo: 'ritiro', prenotazioneId: 11, userId: 7, biciNumero: '07' });
    expect(rideActionRequest(plain).body).not.toHaveProperty('nuovoCodice');
  });
});
