import { describe, expect, it } from 'vitest';
import { CoalescedDrain } from './coalesced-drain.js';

describe('CoalescedDrain', () => {
  it('runs one drain at a time; wake-ups during a round ask for exactly one more', async () => {
    let rounds = 0;
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    const drain = new CoalescedDrain(async () => {
      rounds += 1;
      await gate;
    }, () => undefined);
    drain.wake();
    drain.wake();
    drain.wake();
    expect(rounds).toBe(1);
    const first = release;
    gate = Promise.resolve();
    first();
    await drain.idle();
    expect(rounds).toBe(2);
  });

  it('a failing round goes to onError and the next wake-up drains again; stop ends the drains', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const drain = new CoalescedDrain(async () => {
      rounds += 1;
      if (rounds === 1) throw new Error('database away');
    }, (err) => errors.push(err));
    await drain.settled();
    expect(errors).toHaveLength(1);
    expect(rounds).toBe(1);
    await drain.settled();
    expect(errors).toHaveLength(1);
    expect(rounds).toBe(2);
    await drain.stop();
    drain.wake();
    await drain.idle();
    expect(rounds).toBe(2);
  });
});
