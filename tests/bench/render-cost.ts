/**
 * The server's CPU per page render (issue 51): `npm run bench -- render-cost` opens `/dashboard`
 * (a resident), `/admin` (an admin) and `/bici/{numero}` on the guard's data, one request at a
 * time, RENDER_COST_REQUESTS (300) each after 50 to warm up, and divides the server process's CPU
 * time (`/proc/<pid>/stat`, user + system) by the requests, and PostgreSQL's likewise (its
 * processes share the machine's two cores with the app). On a machine shared with other work
 * the guard's throughput ratios move by ±50 % from one minute to the next; the CPU a render
 * costs its own process moves far less, so a change to the render is measured here first.
 * Then each page under the guard's load (10 clients, RENDER_COST_SECONDS, 5): its answers a
 * second and the CPU per request of both processes, where the two cores go.
 * RENDER_COST_PAGES (a comma list) measures only those pages; with BENCH_CPU_PROF=1 the
 * server's CPU profile is then of one page alone. Needs `npm run build` (dist/web, dist/ssr).
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { zonedToday } from '../../src/shared/time.js';
import { ROOT } from '../helpers/server-process.js';
import { seedGuardReads, sessionsFor } from './guard.js';
import { benchDatabase, fmt, load, processCpuMs, startBenchServer } from './harness.js';

const REQUESTS = Number(process.env.RENDER_COST_REQUESTS ?? 300);
const WARM = 50;
/** The guard's clients for a page render, and a run's length. */
const LOAD_CONNECTIONS = 10;
const LOAD_SECONDS = Number(process.env.RENDER_COST_SECONDS ?? 5);
/** RENDER_COST_PAGES=/dashboard,/admin: only these pages (a CPU profile of one page, BENCH_CPU_PROF=1). */
const ONLY = process.env.RENDER_COST_PAGES?.split(',');
/** What Chromium asks for: the page's bytes are those a person's browser gets. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
export async function benchRenderCost(): Promise<boolean> {
  if (!existsSync(path.join(ROOT, 'dist', 'ssr', 'entry-server.js'))) {
    console.log('\n## Render cost: no build in dist/ (`npm run build` first)');
    return false;
  }
  console.log(`\n## Render cost: the server's CPU per page, one request at a time — load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const reads = await benchDatabase();
  try {
    await seedGuardReads(reads.database, zonedToday(new Date(), 'Europe/Rome'));
    const [resident] = await sessionsFor(reads.database.db, [3002]);
    const admin = await reads.database.db.execute<{ id: number }>(sql`
      insert into users (nome, cognome, email, password_hash, ruolo) values ('Ada', 'Admin', 'cost-admin@example.it', 'x', 'admin') returning id`);
    const [adminCookie] = await sessionsFor(reads.database.db, [admin.rows[0]!.id]);
    const server = await startBenchServer({ BENCH_MODE: 'app', DATABASE_URL: reads.url, BENCH_WEB: '1' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      console.log(
        `\n| page | server CPU per request | PostgreSQL CPU per request | HTML | on the wire | ${LOAD_CONNECTIONS} clients for ${LOAD_SECONDS} s: answers a second, server / PostgreSQL CPU per request |\n|---|--:|--:|--:|--:|--:|`,
      );
      const pages = [['/dashboard', resident!], ['/admin', adminCookie!], ['/bici/7', resident!]] as const;
      for (const [page, cookie] of pages.filter(([p]) => !ONLY || ONLY.includes(p))) {
        // node:http, not fetch: fetch would decode the body, and the bytes sent are what is counted.
        const open = () =>
          new Promise<string>((resolve, reject) => {
            http
              .get(`${server.base}${page}`, { headers: { accept: 'text/html', 'accept-encoding': ACCEPT_ENCODING, cookie }, agent }, (res) => {
                let bytes = 0;
                res.on('data', (chunk: Buffer) => (bytes += chunk.length));
                const encoding = String(res.headers['content-encoding'] ?? 'none');
                res.on('end', () => (res.statusCode === 200 ? resolve(`${fmt(bytes)} B (${encoding})`) : reject(new Error(`${page}: ${res.statusCode}`))));
              })
              .on('error', reject);
          });
        for (let i = 0; i < WARM; i++) await open();
        const html = (await (await fetch(`${server.base}${page}`, { headers: { accept: 'text/html', cookie } })).text()).length;
        const before = await processCpuMs(server.pid);
        const dbBefore = await reads.cpuMs();
        let wire = '';
        for (let i = 0; i < REQUESTS; i++) wire = await open();
        const per = ((await processCpuMs(server.pid)) - before) / REQUESTS;
        const dbPer = ((await reads.cpuMs()) - dbBefore) / REQUESTS;
        // Then as the guard loads it: its clients at once, the page's whole cost on the two cores.
        const [appCpu, dbCpu] = [await processCpuMs(server.pid), await reads.cpuMs()];
        const loaded = await load(`${server.base}${page}`, { connections: LOAD_CONNECTIONS, seconds: LOAD_SECONDS, headers: { accept: 'text/html', 'accept-encoding': ACCEPT_ENCODING, cookie } });
        if (loaded.non2xx > 0 || loaded.errors > 0) throw new Error(`${page} under load: ${loaded.non2xx} non-2xx, ${loaded.errors} errors`);
        const under = `${fmt(loaded.requestsPerSec)}/s, ${fmt(((await processCpuMs(server.pid)) - appCpu) / loaded.total, 2)} / ${fmt(((await reads.cpuMs()) - dbCpu) / loaded.total, 2)} ms`;
        console.log(`| ${page} | **${fmt(per, 2)} ms** | ${fmt(dbPer, 2)} ms | ${fmt(html)} B | ${wire} | ${under} |`);
      }
      console.log(`      the app's RSS after the renders: ${fmt(await server.rssMb())} MB`);
    } finally {
      agent.destroy();
      await server.stop();
    }
    return true;
  } finally {
    await reads.close();
  }
}
