/**
 * Start-up benchmark (issue 2): time from `npm start` (installed and built) to the first
 * 200 on /api/health, on an empty DATA_DIR and on an existing one; RSS of the node
 * process at idle. Targets: < 15 s, < 3 s, < 150 MB.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer, stopGroup, waitForExit } from '../helpers/server-process.js';

async function rssOfNodeServer(rootPid: number): Promise<number> {
  // npm → sh → node: find the node process running dist/server/main.js below npm.
  const pids = execSync(`pgrep -f "dist/server/main.js"`).toString().trim().split('\n').map(Number);
  for (const pid of pids) {
    // pgrep also finds the `sh -c node …` that npm runs: only the node process counts.
    const comm = (await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
    if (comm !== 'node') continue;
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const ppidChain = await ancestors(pid);
    if (ppidChain.includes(rootPid)) {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    }
  }
  throw new Error('server process not found');
}

async function ancestors(pid: number): Promise<number[]> {
  const chain: number[] = [];
  let current = pid;
  for (let i = 0; i < 10 && current > 1; i++) {
    const stat = await fs.readFile(`/proc/${current}/stat`, 'utf8').catch(() => '');
    current = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    chain.push(current);
  }
  return chain;
}

export async function benchStartup() {
  execSync('node scripts/ensure-build.mjs', { stdio: 'inherit' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-bench-start-'));
  const env = async () => {
    const port = String(await freePort());
    return { PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}` };
  };
  try {
    const cold = await startServer(['npm', 'start', '--silent'], await env(), 120_000);
    stopGroup(cold.child, 'SIGTERM');
    await waitForExit(cold.child);

    const warmRuns: number[] = [];
    let rss = 0;
    for (let i = 0; i < 3; i++) {
      const warm = await startServer(['npm', 'start', '--silent'], await env(), 60_000);
      warmRuns.push(warm.readyMs);
      if (i === 0) {
        await new Promise((r) => setTimeout(r, 3000)); // idle
        rss = await rssOfNodeServer(warm.child.pid!);
      }
      stopGroup(warm.child, 'SIGTERM');
      await waitForExit(warm.child);
    }
    const warmMedian = [...warmRuns].sort((a, b) => a - b)[1]!;
    const rows = [
      ['start-up, empty DATA_DIR', `${(cold.readyMs / 1000).toFixed(2)} s`, '< 15 s', cold.readyMs < 15_000],
      ['start-up, existing DATA_DIR (median of 3)', `${(warmMedian / 1000).toFixed(2)} s`, '< 3 s', warmMedian < 3000],
      ['RSS of the node process at idle', `${rss.toFixed(1)} MB`, '< 150 MB', rss < 150],
    ] as const;
    console.log('\n## Start-up (npm start → first 200 on /api/health)');
    for (const [what, value, target, ok] of rows) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}: ${value} (target ${target})`);
    console.log(`      warm runs: ${warmRuns.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`);
    return rows.every((r) => r[3]);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
