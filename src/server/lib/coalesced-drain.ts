/**
 * One drain at a time, in a process, of work that events announce (decisions 035 and 044: the
 * waitlist's freed time, the smart locks' PINs). A wake-up while a drain runs asks it for one more
 * round instead of starting another, so a burst of NOTIFYs costs one or two rounds. A round's
 * failure goes to `onError` (the change behind the event is committed; the minute job is the
 * backstop) and never reaches the caller.
 */
export class CoalescedDrain {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts a drain, or asks the running one for another round. Never throws. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** A NOTIFY on the channel (the listener's NotifiedCache, db/notifications.ts): a drain. */
  apply(): void {
    this.wake();
  }

  /** The listener is up again: what was announced while it was down is served now. */
  setActive(active: boolean): void {
    if (active) this.wake();
  }

  /** Resolves when the drain under way (if any) has finished. */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Resolves once every event announced before the call has been served (tests' wait). */
  async settled(): Promise<void> {
    await this.running;
    this.wake();
    await this.running;
  }

  /** No more drains (the app closes); resolves when the one under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.round();
      } catch (err) {
        this.onError(err);
      }
    } while (this.again);
  }
}
