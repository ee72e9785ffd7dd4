/**
 * The server's CPU per page render (issue 51): `npm run bench -- render-cost` opens `/dashboard`
 * (a resident), `/admin` (an admin) and `/bici/{numero}` on the guard's data, one request at a
 * time, RENDER_COST_REQUESTS (300) each after 50 to warm up, and divides the server process's CPU
 * time (`/proc/<pid>/stat`, user + system) by the requests. On a machine shared with other work
 * the guard's throughput ratios move by ±50 % from one minute to the next; the CPU a render
 * costs its own process moves far less, so a change to the render is measured here first.
 * Needs `npm run build` (dist/web, dist/ssr).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { zonedToday } from '../../src/shared/time.js';
import { ROOT } from '../helpers/server-process.js';
import { seedGuardReads, sessionsFor } from './guard.js';
import { benchDatabase, fmt, startBenchServer } from './harness.js';

const REQUESTS = Number(process.env.RENDER_COST_REQUESTS ?? 300);
const WARM = 50;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's closing parenthesis: utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

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
      console.log('\n| page | server CPU per request | HTML | on the wire (br) |\n|---|--:|--:|--:|');
      for (const [page, cookie] of [['/dashboard', resident!], ['/admin', adminCookie!], ['/bici/7', resident!]] as const) {
        // node:http, not fetch: fetch would decode the body, and the bytes sent are what is counted.
        const open = () =>
          new Promise<number>((resolve, reject) => {
            http
              .get(`${server.base}${page}`, { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip', cookie }, agent }, (res) => {
                let bytes = 0;
                res.on('data', (chunk: Buffer) => (bytes += chunk.length));
                res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${page}: ${res.statusCode}`))));
              })
              .on('error', reject);
          });
        for (let i = 0; i < WARM; i++) await open();
        const html = (await (await fetch(`${server.base}${page}`, { headers: { accept: 'text/html', cookie } })).text()).length;
        const before = await cpuMs(server.pid);
        let wire = 0;
        for (let i = 0; i < REQUESTS; i++) wire = await open();
        const per = ((await cpuMs(server.pid)) - before) / REQUESTS;
        console.log(`| ${page} | **${fmt(per, 2)} ms** | ${fmt(html)} B | ${fmt(wire)} B |`);
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
