/**
 * Coalesces the database reads of concurrent requests into fewer queries (decision 018).
 *
 * A request is sent at once while fewer than `maxInFlight` queries are running, so an idle
 * server adds no latency. When they are all busy, requests wait and leave together, as one
 * query, as soon as one finishes: one round trip (one socket write and one wake-up on each
 * side, the dominant cost of a cheap query on this machine) for many requests.
 *
 * Freshness is that of a query of one's own: a request is only ever answered by a query
 * that *started after it arrived* — it never joins one already on its way — so it sees every
 * commit made before it arrived, exactly as if it had queried alone. Identical keys in one
 * batch are asked once.
 */
export class QueryBatcher<K, V> {
  private waiting = new Map<string, { key: K; callbacks: { resolve: (v: V) => void; reject: (e: unknown) => void }[] }>();
  private running = 0;

  /**
   * @param run answers the keys given, in the same order (one query).
   * @param id a string identity of a key, to ask identical ones once.
   */
  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly id: (key: K) => string,
    private readonly maxInFlight = 4,
    private readonly maxBatch = 64,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  ask(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const k = this.id(key);
      const entry = this.waiting.get(k);
      if (entry) entry.callbacks.push({ resolve, reject });
      else this.waiting.set(k, { key, callbacks: [{ resolve, reject }] });
      this.pump();
    });
  }

  private pump() {
    while (this.running < this.maxInFlight && this.waiting.size > 0) {
      const batch = [...this.waiting.values()].slice(0, this.maxBatch);
      for (const entry of batch) this.waiting.delete(this.id(entry.key));
      this.running++;
      this.run(batch.map((e) => e.key))
        .then(
          (values) => {
            batch.forEach((entry, i) => {
              for (const cb of entry.callbacks) cb.resolve(values[i]!);
            });
          },
          (err: unknown) => {
            for (const entry of batch) for (const cb of entry.callbacks) cb.reject(err);
          },
        )
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
