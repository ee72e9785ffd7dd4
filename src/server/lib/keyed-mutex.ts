/**
 * Runs tasks one at a time per key, in arrival order, within this process. Used in front of
 * a database row lock that is held across a call to the payment provider: requests for the
 * same booking queue here instead of each holding a pool connection while they wait.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last one out leaves no trace.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
