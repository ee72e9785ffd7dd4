/**
 * The load-independent measure of docs/performance.md ("A load-independent measure"): a
 * Chromium trace per open of a logged-in page, CPU 1× and no network throttling; the thread
 * CPU time of every main-thread task after the first contentful paint × 4 − 50 ms, summed
 * (Lighthouse's TBT with its 4× CPU slowdown, from CPU time instead of wall time, which the
 * shared machine inflates), and the main thread's CPU time over the whole load.
 * Run: `npx tsx tests/bench/cpu-after-fcp.ts [/dashboard,/admin] [opens]` after `npm run build`.
 */
import { chromium } from '@playwright/test';
import { startBuiltApp } from './built-app.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = (process.argv[2] ?? '/dashboard,/admin').split(',');
const OPENS = Number(process.argv[3] ?? 5);
const SETTLE_MS = 5000;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string } };
}

const KINDS = new Set(['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'Paint', 'TimerFire', 'FireAnimationFrame', 'v8.compileModule', 'EventDispatch', 'v8.run', 'RunMicrotasks', 'ParseAuthorStyleSheet', 'PrePaint']);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function measure(events: TraceEvent[]): { blocking: number; afterFcp: number; total: number; fcpMs: number; top: string } {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) throw new Error('no firstContentfulPaint in the trace');
  const nav = events.filter((e) => e.name === 'navigationStart' && e.pid === fcp.pid && e.ts <= fcp.ts).at(-1) ?? fcp;
  const inThread = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === 'X' && e.name !== 'RunTask');
  const what = (t: TraceEvent) => {
    const end = t.ts + (t.dur ?? 0);
    const parts = new Map<string, number>();
    for (const e of inThread) {
      if (e.ts < t.ts || e.ts > end || !KINDS.has(e.name)) continue;
      const url = e.args?.data?.url ?? (e.args as { data?: { stackTrace?: { url?: string }[] } })?.data?.stackTrace?.[0]?.url ?? '';
      const key = `${e.name}${url ? ' ' + url.split('/').pop() : ''}`;
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0) / 1000);
    }
    return [...parts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k}=${Math.round(v)}`).join(',');
  };
  const tasks = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === 'X' && e.name === 'RunTask' && e.ts >= nav.ts);
  let blocking = 0;
  let afterFcp = 0;
  let total = 0;
  const big: string[] = [];
  for (const t of tasks) {
    const cpu = (t.tdur ?? t.dur ?? 0) / 1000;
    total += cpu;
    if (t.ts >= fcp.ts) {
      afterFcp += cpu;
      blocking += Math.max(0, cpu * 4 - 50);
      if (cpu * 4 > 50) big.push(`${Math.round((t.ts - nav.ts) / 1000)}:${Math.round(cpu)} [${what(t)}]`);
    }
  }
  if (process.env.CPU_DEBUG) {
    const ev = events.filter((e) => e.pid === fcp.pid && (e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule' || e.name === 'v8.compileModule'));
    console.log(ev.map((e) => `${e.name}@${Math.round((e.ts - nav.ts) / 1000)} ${JSON.stringify(e.args).slice(0, 100)}`).join('\n'));
  }
  return { blocking, afterFcp, total, fcpMs: (fcp.ts - nav.ts) / 1000, top: big.join(' ') };
}

async function main() {
  const app = await startBuiltApp('cpu');
  try {
    const { base, sessionOf } = app;
    const cookies: Record<string, string> = {
      '/dashboard': await sessionOf('residente@bicielis.demo', 'residente-demo-2026'),
      '/admin': await sessionOf('admin@bicielis.demo', 'admin-demo-2026'),
    };
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      for (const pageName of PAGES) {
        const rows: ReturnType<typeof measure>[] = [];
        for (let i = 0; i < OPENS; i++) {
          const context = await browser.newContext({ viewport: { width: 412, height: 823 }, locale: 'it-IT', timezoneId: 'Europe/Rome' });
          const [name, value] = cookies[pageName]!.split('=') as [string, string];
          await context.addCookies([{ name, value, url: base }]);
          const page = await context.newPage();
          await browser.startTracing(page, {
            categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'blink.user_timing', 'loading'],
          });
          await page.goto(`${base}${pageName}`, { waitUntil: 'load' });
          await page.waitForTimeout(SETTLE_MS);
          const buffer = await browser.stopTracing();
          const trace = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
          rows.push(measure(trace.traceEvents));
          await context.close();
        }
        const f = (n: number) => String(Math.round(n));
        console.log(
          `${pageName}: blocking(4x CPU after FCP) median ${f(median(rows.map((r) => r.blocking)))} ms (${rows.map((r) => f(r.blocking)).join(', ')}); ` +
            `CPU after FCP ${f(median(rows.map((r) => r.afterFcp)))} ms; main-thread CPU ${f(median(rows.map((r) => r.total)))} ms (${rows.map((r) => f(r.total)).join(', ')}); ` +
            `FCP ${f(median(rows.map((r) => r.fcpMs)))} ms (${rows.map((r) => f(r.fcpMs)).join(', ')})`,
        );
        for (const r of rows) console.log(`   tasks >12.5 ms CPU after FCP (at ms: CPU ms): ${r.top}`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await app.close();
  }
}

await main();
