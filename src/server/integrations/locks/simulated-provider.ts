import {
  checkChangePinPeriod,
  checkCreatePin,
  checkIds,
  LockProviderError,
  type ChangePinPeriodInput,
  type CreatePinInput,
  type DeletePinInput,
  type LockErrorReason,
  type LockProvider,
} from './provider.js';

/** A PIN as the simulated provider keeps it. */
export interface SimulatedPin {
  pinId: string;
  lockId: string;
  pin: string;
  validFrom: Date;
  validUntil: Date;
  label: string;
}

export type SimulatedOperation = 'createPin' | 'changePinPeriod' | 'deletePin';

/**
 * The default lock provider (no configuration): TTLock's behaviour kept in this process's
 * memory. PIN ids are `sim-1`, `sim-2`, … in order; a lock refuses a PIN it already has
 * (as TTLock's -3007); changing a PIN that is not there is refused (`pin_missing`);
 * deleting one that is not there succeeds. Every lock id that is well formed exists.
 *
 * For the tests of the booking side: `failNext` makes the next calls fail with a chosen
 * reason (a temporary one, or a refusal) before they change anything, and `pinsOn` shows
 * what a lock holds now.
 */
export class SimulatedLockProvider implements LockProvider {
  readonly name = 'simulated' as const;
  private readonly pins = new Map<string, SimulatedPin>();
  private readonly failures: { reason: LockErrorReason; operation: SimulatedOperation | undefined }[] = [];
  private nextId = 1;
  /** How many calls each operation received (failed ones included). */
  readonly calls: Record<SimulatedOperation, number> = { createPin: 0, changePinPeriod: 0, deletePin: 0 };

  /**
   * The next `times` calls (of `operation`, or of any operation) fail with `reason` and
   * change nothing. Queued failures are used in order.
   */
  failNext(reason: LockErrorReason, options: { times?: number; operation?: SimulatedOperation } = {}): void {
    const times = options.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
    for (let i = 0; i < times; i++) this.failures.push({ reason, operation: options.operation });
  }

  /** Forgets the failures not yet used. */
  clearFailures(): void {
    this.failures.length = 0;
  }

  /** The PINs a lock holds now, oldest first (copies). */
  pinsOn(lockId: string): SimulatedPin[] {
    return [...this.pins.values()].filter((p) => p.lockId === lockId).map((p) => ({ ...p }));
  }

  /** Every PIN held, on any lock (copies). */
  allPins(): SimulatedPin[] {
    return [...this.pins.values()].map((p) => ({ ...p }));
  }

  private failIfAsked(operation: SimulatedOperation): void {
    this.calls[operation]++;
    const index = this.failures.findIndex((f) => f.operation === undefined || f.operation === operation);
    if (index < 0) return;
    const [failure] = this.failures.splice(index, 1);
    throw new LockProviderError(failure!.reason, `simulated:${failure!.reason}`);
  }

  createPin(input: CreatePinInput): Promise<{ pinId: string }> {
    return Promise.resolve().then(() => {
      checkCreatePin(input);
      this.failIfAsked('createPin');
      if ([...this.pins.values()].some((p) => p.lockId === input.lockId && p.pin === input.pin)) {
        throw new LockProviderError('pin_conflict', 'simulated:pin_conflict');
      }
      const pinId = `sim-${this.nextId++}`;
      this.pins.set(pinId, {
        pinId,
        lockId: input.lockId,
        pin: input.pin,
        validFrom: new Date(input.validFrom.getTime()),
        validUntil: new Date(input.validUntil.getTime()),
        label: input.label,
      });
      return { pinId };
    });
  }

  changePinPeriod(input: ChangePinPeriodInput): Promise<void> {
    return Promise.resolve().then(() => {
      checkChangePinPeriod(input);
      this.failIfAsked('changePinPeriod');
      const pin = this.pins.get(input.pinId);
      if (!pin || pin.lockId !== input.lockId) throw new LockProviderError('pin_missing', 'simulated:pin_missing');
      pin.validFrom = new Date(input.validFrom.getTime());
      pin.validUntil = new Date(input.validUntil.getTime());
    });
  }

  deletePin(input: DeletePinInput): Promise<void> {
    return Promise.resolve().then(() => {
      checkIds(input);
      this.failIfAsked('deletePin');
      const pin = this.pins.get(input.pinId);
      if (pin && pin.lockId === input.lockId) this.pins.delete(input.pinId);
    });
  }
}
