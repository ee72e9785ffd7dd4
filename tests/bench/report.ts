/**
 * The nightly report (issue 10): time and size of the PDF of a day of 2,000 bookings, read
 * from PostgreSQL and drawn with pdfkit, as the 23:00 job does. Targets: < 2 s, < 1 MB.
 * Also the empty day, and the first render of the process (pdfkit loads its font metrics).
 */
import { ManualClock } from '../../src/server/clock.js';
import { renderReport } from '../../src/server/modules/reports/service.js';
import { seedBusyDay } from '../helpers/report-fixtures.js';
import { benchDatabase, fmt } from './harness.js';

const TARGET_MS = 2000;
const TARGET_BYTES = 1024 * 1024;
const RUNS = 5;

export async function benchReport(): Promise<boolean> {
  console.log('\n== Nightly report PDF: a day of 2,000 bookings ==');
  const bench = await benchDatabase();
  try {
    const { db } = bench.database;
    await seedBusyDay(db, '2026-11-23', 2000);
    const deps = { db, clock: new ManualClock(new Date('2026-11-23T22:00:00Z')), config: { timeZone: 'Europe/Rome' } };
    let t = performance.now();
    const empty = await renderReport(deps, '2026-11-22');
    console.log(`0 bookings (first render of the process): ${fmt(performance.now() - t)} ms, ${fmt(empty.length)} bytes`);
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      size = (await renderReport(deps, '2026-11-23')).length;
      times.push(performance.now() - t);
    }
    t = performance.now();
    await renderReport(deps, '2026-11-22');
    console.log(`0 bookings (warm): ${fmt(performance.now() - t)} ms`);
    times.sort((a, b) => a - b);
    const worst = times.at(-1)!;
    console.log(`2,000 bookings: median ${fmt(times[Math.floor(RUNS / 2)]!)} ms, worst ${fmt(worst)} ms of ${RUNS}; ${fmt(size)} bytes (target < ${fmt(TARGET_MS)} ms, < 1 MB)`);
    const ok = worst < TARGET_MS && size < TARGET_BYTES;
    console.log(ok ? 'target met' : 'TARGET MISSED');
    return ok;
  } finally {
    await bench.close();
  }
}
