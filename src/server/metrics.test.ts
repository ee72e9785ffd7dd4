import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RouteDurations } from './metrics.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The exposition's sample lines, each with its labels sorted (the order of labels is not meaningful). */
async function samples(registry: Registry): Promise<string[]> {
  const text = await registry.metrics();
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (.+)$/.exec(line)!;
      const labels = (match[2] ?? '').split(/,(?=\w+=")/).filter(Boolean).sort().join(',');
      return `${match[1]}{${labels}} ${Number(match[3])}`;
    })
    .sort();
}

describe('the request histogram (issue 33)', () => {
  const observations: [string, string, number, number][] = [
    ['GET', '/api/current-user', 200, 0.001],
    ['GET', '/api/current-user', 200, 0.005],
    ['GET', '/api/current-user', 200, 0.0051],
    ['GET', '/api/current-user', 401, 0.3],
    ['HEAD', '/api/current-user', 200, 0.02],
    ['POST', '/api/prenotazioni', 201, 12],
    ['GET', 'unmatched', 404, 10],
  ];

  it('prints what prom-client’s own Histogram prints for the same observations', async () => {
    const reference = new Registry();
    const histogram = new Histogram({ name: 'h_seconds', help: 'aiuto', labelNames: ['method', 'route', 'status_code'], buckets: BUCKETS, registers: [reference] });
    const ours = new Registry();
    const durations = new RouteDurations('h_seconds', 'aiuto', BUCKETS);
    ours.registerMetric(durations as never);
    const recorders = new Map<string, ReturnType<RouteDurations['forRoute']>>();
    for (const [method, route, status, seconds] of observations) {
      histogram.observe({ method, route, status_code: String(status) }, seconds);
      if (!recorders.has(route)) recorders.set(route, durations.forRoute(route));
      recorders.get(route)!(method, status, seconds);
    }
    const expected = await samples(reference);
    expect(expected.length).toBe(5 * (BUCKETS.length + 3));
    expect(await samples(ours)).toEqual(expected);
    expect((await ours.metrics()).split('\n').slice(0, 2)).toEqual((await reference.metrics()).split('\n').slice(0, 2));
  });

  it('routes of one pattern share their series: a label set is printed once', async () => {
    const registry = new Registry();
    const durations = new RouteDurations('h_seconds', 'aiuto', BUCKETS);
    registry.registerMetric(durations as never);
    durations.forRoute('/x')('GET', 200, 0.2);
    durations.forRoute('/x')('GET', 200, 0.3);
    const counts = (await samples(registry)).filter((line) => line.startsWith('h_seconds_count'));
    expect(counts).toEqual(['h_seconds_count{method="GET",route="/x",status_code="200"} 2']);
  });

  it('a reset forgets the observations, and recording goes on', async () => {
    const registry = new Registry();
    const durations = new RouteDurations('h_seconds', 'aiuto', BUCKETS);
    registry.registerMetric(durations as never);
    const record = durations.forRoute('/x');
    record('GET', 200, 0.2);
    registry.resetMetrics();
    record('GET', 200, 0.002);
    const lines = await samples(registry);
    expect(lines).toContain('h_seconds_count{method="GET",route="/x",status_code="200"} 1');
    expect(lines).toContain('h_seconds_bucket{le="0.005",method="GET",route="/x",status_code="200"} 1');
    expect(lines).toContain('h_seconds_bucket{le="0.25",method="GET",route="/x",status_code="200"} 1');
  });
});
