import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { lockProviderFromConfig, LockProviderError, SimulatedLockProvider, TtlockProvider } from './index.js';

const from = new Date('2026-12-01T09:50:00Z');
const until = new Date('2026-12-01T11:15:00Z');
const pinInput = { lockId: '4410', pin: '482913', validFrom: from, validUntil: until, label: 'Prenotazione 42' };

async function failure(promise: Promise<unknown>): Promise<LockProviderError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(LockProviderError);
  return outcome as LockProviderError;
}

describe('simulated lock provider (decision 043)', () => {
  it('creates a PIN for its period, moves the period, deletes it', async () => {
    const locks = new SimulatedLockProvider();
    const { pinId } = await locks.createPin(pinInput);
    expect(pinId).toBe('sim-1');
    expect(locks.pinsOn('4410')).toEqual([{ pinId: 'sim-1', ...pinInput }]);

    const later = new Date('2026-12-01T12:40:00Z');
    await locks.changePinPeriod({ lockId: '4410', pinId, validFrom: from, validUntil: later });
    expect(locks.pinsOn('4410')[0]).toMatchObject({ validFrom: from, validUntil: later });

    await locks.deletePin({ lockId: '4410', pinId });
    expect(locks.pinsOn('4410')).toEqual([]);
    // Deleting again is not an error (the retry job may repeat a delete that went through).
    await locks.deletePin({ lockId: '4410', pinId });
    expect(locks.calls).toEqual({ createPin: 1, changePinPeriod: 1, deletePin: 2 });
  });

  it('keeps its own copies: a caller changing its dates changes nothing held', async () => {
    const locks = new SimulatedLockProvider();
    const input = { ...pinInput, validUntil: new Date(until.getTime()) };
    await locks.createPin(input);
    input.validUntil.setTime(0);
    expect(locks.pinsOn('4410')[0]!.validUntil).toEqual(until);
  });

  it('refuses a PIN the lock already has, and changing a PIN it does not have', async () => {
    const locks = new SimulatedLockProvider();
    await locks.createPin(pinInput);
    const conflict = await failure(locks.createPin({ ...pinInput, label: 'Prenotazione 43' }));
    expect(conflict).toMatchObject({ reason: 'pin_conflict', kind: 'refused', message: 'Il lucchetto ha già un codice uguale' });
    // The same PIN on another lock is fine.
    await locks.createPin({ ...pinInput, lockId: '4411' });

    const missing = await failure(locks.changePinPeriod({ lockId: '4410', pinId: 'sim-99', validFrom: from, validUntil: until }));
    expect(missing).toMatchObject({ reason: 'pin_missing', kind: 'refused' });
    // A PIN id of another lock is not this lock's.
    const otherLock = await failure(locks.changePinPeriod({ lockId: '4411', pinId: 'sim-1', validFrom: from, validUntil: until }));
    expect(otherLock.reason).toBe('pin_missing');
  });

  it('fails the next call on demand, temporarily or as a refusal, and changes nothing meanwhile', async () => {
    const locks = new SimulatedLockProvider();
    locks.failNext('unreachable');
    const down = await failure(locks.createPin(pinInput));
    expect(down).toMatchObject({ kind: 'temporary', temporary: true, reason: 'unreachable' });
    expect(down.message).toBe('Il servizio dei lucchetti non risponde: nuovo tentativo tra un minuto');
    expect(locks.pinsOn('4410')).toEqual([]);

    // The retry goes through.
    const { pinId } = await locks.createPin(pinInput);
    expect(locks.pinsOn('4410')).toHaveLength(1);

    // Two failures queued for deletes only: a period change in between is not affected.
    locks.failNext('lock_offline', { times: 2, operation: 'deletePin' });
    await locks.changePinPeriod({ lockId: '4410', pinId, validFrom: from, validUntil: new Date('2026-12-01T13:00:00Z') });
    expect((await failure(locks.deletePin({ lockId: '4410', pinId }))).kind).toBe('temporary');
    expect((await failure(locks.deletePin({ lockId: '4410', pinId }))).reason).toBe('lock_offline');
    expect(locks.pinsOn('4410')).toHaveLength(1);
    await locks.deletePin({ lockId: '4410', pinId });
    expect(locks.pinsOn('4410')).toEqual([]);

    locks.failNext('auth');
    expect(await failure(locks.createPin(pinInput))).toMatchObject({ kind: 'refused', reason: 'auth' });
    locks.failNext('unreachable', { times: 3 });
    locks.clearFailures();
    await locks.createPin(pinInput);
    expect(() => locks.failNext('unreachable', { times: 0 })).toThrow(RangeError);
  });

  it.each([
    ['a lock id with a slash', { lockId: '44/10' }, 'lockId'],
    ['an empty lock id', { lockId: '' }, 'lockId'],
    ['a 3-digit PIN', { pin: '123' }, 'pin'],
    ['a PIN with letters', { pin: '12a456' }, 'pin'],
    ['a 10-digit PIN', { pin: '1234567890' }, 'pin'],
    ['an empty label', { label: '  ' }, 'label'],
    ['a label with a newline', { label: 'Prenotazione\n42' }, 'label'],
    ['a period that ends before it starts', { validUntil: new Date(from.getTime() - 60_000) }, 'period'],
    ['an empty period', { validUntil: from }, 'period'],
    ['an invalid date', { validFrom: new Date('non una data') }, 'period'],
    ['a period of two months', { validUntil: new Date('2027-02-01T00:00:00Z') }, 'period'],
  ])('refuses %s before doing anything', async (_what, change, field) => {
    const locks = new SimulatedLockProvider();
    const error = await failure(locks.createPin({ ...pinInput, ...change }));
    expect(error).toMatchObject({ reason: 'invalid', kind: 'refused', providerCode: field });
    expect(locks.allPins()).toEqual([]);
  });

  it('is what lockProviderFromConfig gives by default, TTLock when configured', () => {
    const clock = new ManualClock(from);
    expect(lockProviderFromConfig({ locks: { provider: 'simulated' } }, clock)).toBeInstanceOf(SimulatedLockProvider);
    const ttlock = lockProviderFromConfig(
      {
        locks: {
          provider: 'ttlock',
          ttlock: { apiUrl: 'https://euapi.ttlock.com', clientId: 'c', clientSecret: 's', username: 'u', password: 'p' },
        },
      },
      clock,
    );
    expect(ttlock).toBeInstanceOf(TtlockProvider);
    expect(ttlock.name).toBe('ttlock');
  });
});
