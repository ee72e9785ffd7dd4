import { describe, expect, it } from 'vitest';
import { EMBEDDED_RESTART_POLICY, restartDecision, type RestartPolicy } from './embedded.js';

/** Decision 037: when the app restarts its embedded PostgreSQL, and when it gives up. */
describe('restartDecision', () => {
  const policy = EMBEDDED_RESTART_POLICY;

  it('waits longer before each attempt of an outage: 250 ms, 500 ms, 1 s, 2 s, 4 s', () => {
    const delays = [0, 1, 2, 3, 4].map((failures) => restartDecision(policy, failures, 0));
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000].map((delayMs) => ({ restart: true, delayMs })));
  });

  it('gives up after five failed attempts, however quick they were', () => {
    expect(restartDecision(policy, 5, 100)).toEqual({ restart: false, reason: 'attempts' });
    expect(restartDecision(policy, 4, 100)).toEqual({ restart: true, delayMs: 4_000 });
  });

  it('gives up when the next wait would end past a minute down', () => {
    expect(restartDecision(policy, 1, 59_500)).toEqual({ restart: false, reason: 'time' });
    expect(restartDecision(policy, 1, 59_499)).toEqual({ restart: true, delayMs: 500 });
    expect(restartDecision(policy, 0, 60_000)).toEqual({ restart: false, reason: 'time' });
  });

  it('repeats the last wait when a policy allows more attempts than it lists waits', () => {
    const long: RestartPolicy = { ...policy, delaysMs: [100, 300], maxAttempts: 4 };
    expect([0, 1, 2, 3, 4].map((failures) => restartDecision(long, failures, 0))).toEqual([
      { restart: true, delayMs: 100 },
      { restart: true, delayMs: 300 },
      { restart: true, delayMs: 300 },
      { restart: true, delayMs: 300 },
      { restart: false, reason: 'attempts' },
    ]);
  });

  it('the whole outage fits the budget: five failed attempts take at most the sum of the waits and of the starts', () => {
    const waits = policy.delaysMs.slice(0, policy.maxAttempts).reduce((a, b) => a + b, 0);
    expect(waits).toBe(7_750);
    expect(waits).toBeLessThan(policy.budgetMs);
  });
});
