/**
 * A time zone's UTC offsets over a span of time, computed by the server with its own time-zone
 * data and sent with a page it renders (boot/server-state.ts), so that the browser can turn
 * instants into the college's wall clock and back without an `Intl` object (shared/time.ts).
 */
export interface ZoneTable {
  timeZone: string;
  /** The span covered: epoch milliseconds, `from` included, `to` not. */
  from: number;
  to: number;
  /** `[start, offset]`: from the epoch millisecond `start` on, `offset` minutes east of UTC. Sorted; the first starts at `from`. */
  offsets: [number, number][];
}

/** The offset at `ms`, or undefined outside the table's span. */
export function tableOffset(table: ZoneTable, ms: number): number | undefined {
  if (!(ms >= table.from && ms < table.to)) return undefined;
  let offset: number | undefined;
  for (const [start, minutes] of table.offsets) {
    if (start > ms) break;
    offset = minutes;
  }
  return offset;
}

const STEP_MS = 6 * 3_600_000;

/**
 * The table of `timeZone` from `from` to `to`, from `offsetAt` (minutes east of UTC at an
 * instant). The zone is sampled every 6 hours and each change is found to the millisecond by
 * bisection: a zone that changed its offset twice within 6 hours would lose one change, and
 * none does.
 */
export function buildZoneTable(timeZone: string, from: number, to: number, offsetAt: (ms: number) => number): ZoneTable {
  const offsets: [number, number][] = [[from, offsetAt(from)]];
  let previous = from;
  let previousOffset = offsets[0]![1];
  const samples: number[] = [];
  for (let at = from + STEP_MS; at < to - 1; at += STEP_MS) samples.push(at);
  samples.push(to - 1);
  for (const at of samples) {
    const offset = offsetAt(at);
    if (offset !== previousOffset) {
      // The first millisecond with the new offset: in (previous, at].
      let low = previous;
      let high = at;
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (offsetAt(middle) === previousOffset) low = middle;
        else high = middle;
      }
      offsets.push([high, offset]);
      previousOffset = offset;
    }
    previous = at;
  }
  return { timeZone, from, to, offsets };
}

/** Whether `value` is a table (a page's state is read from the page, and could be anything). */
export function isZoneTable(value: unknown): value is ZoneTable {
  const table = value as ZoneTable | null;
  return (
    typeof table === 'object' &&
    table !== null &&
    typeof table.timeZone === 'string' &&
    Number.isFinite(table.from) &&
    Number.isFinite(table.to) &&
    Array.isArray(table.offsets) &&
    table.offsets.length > 0 &&
    table.offsets.every((entry) => Array.isArray(entry) && entry.length === 2 && entry.every((n) => Number.isFinite(n)))
  );
}
