import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';

/** GET /metrics from this machine, parsed by a Prometheus text-format parser. */
export async function scrape(app: FastifyInstance): Promise<Scrape> {
  const res = await app.inject({ method: 'GET', url: '/metrics' });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}: ${res.body}`);
  return new Scrape(res.body);
}

/**
 * The exposition as parse-prometheus-text-format reads it. That parser keeps counters and
 * gauges with their labels, but folds every series of a labelled histogram into one (it
 * keeps the buckets of the last series and drops the labels and `_count`). So a histogram's
 * `_count` series are read by the same parser as the counter family they are: the exposition
 * is the server's, only the family's TYPE line is restated.
 */
export class Scrape {
  readonly families: ParsedFamily[];

  constructor(readonly text: string) {
    this.families = parsePrometheusTextFormat(text);
  }

  family(name: string): ParsedFamily | undefined {
    return this.families.find((f) => f.name === name);
  }

  /** The samples of `name` whose labels include `labels`. */
  samples(name: string, labels: Record<string, string> = {}): ParsedSample[] {
    return (this.family(name)?.metrics ?? []).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** The value of the one sample of a counter or gauge with these labels; 0 when absent. */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples(name, labels);
    if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
    return found[0]?.value === undefined ? 0 : Number(found[0].value);
  }

  /** A histogram's observation count for these labels (summed over the matching series). */
  count(name: string, labels: Record<string, string> = {}): number {
    if (this.family(name)?.type !== 'HISTOGRAM') throw new Error(`${name} is not a histogram`);
    const counts = this.text.split('\n').filter((line) => line.startsWith(`${name}_count{`) || line.startsWith(`${name}_count `));
    const [family] = parsePrometheusTextFormat(`# TYPE ${name}_count counter\n${counts.join('\n')}\n`);
    return (family?.metrics ?? [])
      .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
      .reduce((n, m) => n + Number(m.value ?? 0), 0);
  }
}
