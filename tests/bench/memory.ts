/**
 * The app's memory (issue 51): `npm run bench -- memory` starts the built app as `npm start`
 * does (its V8 flags, decision 041) on the demo data of the sedi, in a process of its own, and
 * reads its RSS from outside (`VmRSS` in /proc/<pid>/status):
 * - idle, MEMORY_IDLE_SECONDS (30) after it said it was ready — its start's own work (the
 *   missed days' PDF reports, the base backup) included;
 * - its peak (sampled every 100 ms) under the guard's heaviest loads, one after the other:
 *   availability of 2,000 random windows and `GET /api/current-user` at 50 clients, the
 *   `/dashboard` and `/admin` renders at 10, MEMORY_LOAD_SECONDS (10) each.
 * Targets: ≤ 150 MB idle, ≤ 200 MB at the peak. With each, the process's own breakdown
 * (`/metrics`: V8's heap used and total, external memory), to say what the RSS holds.
 * Needs `npm run build`.
 */
import { readFile } from 'node:fs/promises';
import type { Database } from '../../src/server/db/client.js';
import os from 'node:os';
import { allowedDays, readServiceDays } from '../helpers/days.js';
import { randomWindows } from './availability.js';
import { startBuiltApp } from './built-app.js';
import { fmt, load } from './harness.js';

const IDLE_SECONDS = Number(process.env.MEMORY_IDLE_SECONDS ?? 30);
const LOAD_SECONDS = Number(process.env.MEMORY_LOAD_SECONDS ?? 10);
export const IDLE_TARGET_MB = 150;
export const PEAK_TARGET_MB = 200;

const rssMb = async (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** V8's heap (used / total) and external memory, MB, from the process's own /metrics (prom-client's defaults). */
async function breakdown(base: string): Promise<string> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return `heap ${fmt(metric('nodejs_heap_size_used_bytes'))} of ${fmt(metric('nodejs_heap_size_total_bytes'))} MB, external ${fmt(metric('nodejs_external_memory_bytes'))} MB`;
}

/** The demo's open days ahead (its closures leave fewer than the availability bench's 30). */
async function openDays(db: Database['db']): Promise<string[]> {
  return allowedDays({ ...(await readServiceDays(db)), maintenance: [] }, { now: new Date(), count: 14 });
}

export async function benchMemory(): Promise<boolean> {
  console.log(`\n## Memory: the built app's RSS from outside, on the demo data — load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const built = await startBuiltApp('memory');
  try {
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idle = await rssMb(built.pid);
    const idleDetail = await breakdown(built.base);
    const resident = await built.sessionOf('residente@bicielis.demo', 'residente-demo-2026');
    const admin = await built.sessionOf('admin@bicielis.demo', 'admin-demo-2026');
    const windows = randomWindows(await openDays(built.database.db), 2000).map((w) => JSON.stringify(w));

    let peak = 0;
    const sampler = setInterval(() => void rssMb(built.pid).then((mb) => (peak = Math.max(peak, mb)), () => undefined), 100);
    const json = { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'same-origin', origin: built.base };
    const html = { accept: 'text/html', 'accept-encoding': 'gzip, br', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' };
    const peaks: string[] = [];
    try {
      const plans = [
        ['availability, 2,000 random windows', `${built.base}/api/biciclette/available`, { connections: 50, method: 'POST', headers: json, bodies: windows, cookies: [resident] }],
        ['GET /api/current-user', `${built.base}/api/current-user`, { connections: 50, method: 'GET', headers: { 'accept-encoding': 'gzip, br' }, cookies: [resident] }],
        ['render /dashboard', `${built.base}/dashboard`, { connections: 10, method: 'GET', headers: { ...html, cookie: resident } }],
        ['render /admin', `${built.base}/admin`, { connections: 10, method: 'GET', headers: { ...html, cookie: admin } }],
      ] satisfies [string, string, Omit<Parameters<typeof load>[1], 'seconds'>][];
      for (const [name, url, plan] of plans) {
        const result = await load(url, { ...plan, seconds: LOAD_SECONDS });
        if (result.errors > 0 || result.non2xx > 0 || result.total === 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} not 2xx, ${result.total} answers`);
        peaks.push(`${name} ${fmt(peak)} MB (${fmt(result.requestsPerSec)} req/s)`);
      }
    } finally {
      clearInterval(sampler);
    }
    const peakDetail = await breakdown(built.base);
    console.log(`      idle ${IDLE_SECONDS} s after ready: ${fmt(idle)} MB (${idleDetail})`);
    console.log(`      peak so far after each load: ${peaks.join('; ')}`);
    console.log(`      after the loads: ${peakDetail}`);
    console.log('\n| issue 51 target | measured | target | |\n|---|--:|--:|--|');
    console.log(`| RSS ${IDLE_SECONDS} s after start, idle | ${fmt(idle)} MB | ≤ ${IDLE_TARGET_MB} MB | ${idle <= IDLE_TARGET_MB ? 'met' : '**missed**'} |`);
    console.log(`| RSS, peak under the heaviest loads | ${fmt(peak)} MB | ≤ ${PEAK_TARGET_MB} MB | ${peak <= PEAK_TARGET_MB ? 'met' : '**missed**'} |`);
    return idle <= IDLE_TARGET_MB && peak <= PEAK_TARGET_MB;
  } finally {
    await built.close();
  }
}
