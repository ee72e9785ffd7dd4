import { describe, expect, it } from 'vitest';
import { QueryBatcher } from './query-batcher.js';

/** A runner whose queries the test finishes by hand, recording what each was asked. */
function manualRunner() {
  const queries: { keys: string[]; finish: () => void; fail: (e: Error) => void }[] = [];
  const run = (keys: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      const n = queries.length + 1;
      queries.push({ keys, finish: () => resolve(keys.map((k) => `answer ${k} #${n}`)), fail: reject });
    });
  return { queries, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('QueryBatcher', () => {
  it('sends a request at once while fewer than maxInFlight queries run', async () => {
    const { queries, run } = manualRunner();
    const batcher = new QueryBatcher(run, (k: string) => k, 2);
    const a = batcher.ask('a');
    const b = batcher.ask('b');
    expect(queries.map((q) => q.keys)).toEqual([['a'], ['b']]);
    queries[0]!.finish();
    queries[1]!.finish();
    expect(await a).toBe('answer a #1');
    expect(await b).toBe('answer b #2');
  });

  it('never answers a request with a query that had started before it arrived', async () => {
    const { queries, run } = manualRunner();
    const batcher = new QueryBatcher(run, (k: string) => k, 1);
    const first = batcher.ask('x');
    // Same key, while the first query is on its way: it must wait for a query of its own.
    const second = batcher.ask('x');
    const third = batcher.ask('y');
    expect(queries).toHaveLength(1);
    queries[0]!.finish();
    expect(await first).toBe('answer x #1');
    await tick();
    // The two waiting left together, as one query, when the first finished.
    expect(queries.map((q) => q.keys)).toEqual([['x'], ['x', 'y']]);
    queries[1]!.finish();
    expect(await second).toBe('answer x #2');
    expect(await third).toBe('answer y #2');
  });

  it('asks identical waiting keys once and answers every request', async () => {
    const { queries, run } = manualRunner();
    const batcher = new QueryBatcher(run, (k: string) => k, 1);
    const busy = batcher.ask('busy');
    const waiting = [batcher.ask('k'), batcher.ask('k'), batcher.ask('j'), batcher.ask('k')];
    queries[0]!.finish();
    await busy;
    await tick();
    expect(queries[1]!.keys).toEqual(['k', 'j']);
    queries[1]!.finish();
    expect(await Promise.all(waiting)).toEqual(['answer k #2', 'answer k #2', 'answer j #2', 'answer k #2']);
  });

  it('splits long queues into batches of at most maxBatch', async () => {
    const { queries, run } = manualRunner();
    const batcher = new QueryBatcher(run, (k: string) => k, 1, 2);
    const all = ['a', 'b', 'c', 'd', 'e'].map((k) => batcher.ask(k));
    for (let i = 0; i < 3; i++) {
      queries[i]!.finish();
      await tick();
    }
    expect(queries.map((q) => q.keys)).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    expect(await Promise.all(all)).toHaveLength(5);
    expect(batcher.inFlight).toBe(0);
  });

  it('fails every request of a failed query, and the next ones still run', async () => {
    const { queries, run } = manualRunner();
    const batcher = new QueryBatcher(run, (k: string) => k, 1);
    const busy = batcher.ask('busy');
    const a = batcher.ask('a');
    const b = batcher.ask('b');
    queries[0]!.fail(new Error('connection lost'));
    await expect(busy).rejects.toThrow('connection lost');
    await tick();
    queries[1]!.fail(new Error('timeout'));
    await expect(a).rejects.toThrow('timeout');
    await expect(b).rejects.toThrow('timeout');
    const c = batcher.ask('c');
    queries[2]!.finish();
    expect(await c).toBe('answer c #3');
  });
});
