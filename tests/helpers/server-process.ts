import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A port for a server process this test starts, taken below the kernel's ephemeral range
 * (`ip_local_port_range`, 32768–60999 by default). A port the kernel handed out for `listen(0)`
 * is an ephemeral one: between this check and the server's own listen (tens of seconds when it
 * starts its embedded PostgreSQL first), any outgoing connection of any test could take it as
 * its source port, and the server failed with EADDRINUSE on a loaded machine. Below that range
 * only listeners compete, and each candidate is checked free first.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 20_000;
  const high = Math.max(low + 1_000, ephemeralLow) - 1;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`nessuna porta libera tra ${low} e ${high}`);
}

function ephemeralRange(): [number, number] {
  try {
    const [lowText, highText] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const range: [number, number] = [Number(lowText), Number(highText)];
    if (range.every(Number.isInteger)) return range;
  } catch {
    // Not Linux: the IANA dynamic range is the usual one.
  }
  return [49_152, 65_535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Milliseconds from spawn to the first 200 on /api/health. */
  readyMs: number;
}

/**
 * Starts the app as a real process (`command`, e.g. ['npm', 'start'] or
 * ['node', 'dist/server/main.js']) and waits for GET /api/health to answer 200.
 */
export async function startServer(
  command: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  cwd = ROOT,
): Promise<ServerProcess> {
  const port = Number(env.PORT);
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stopGroup(child, 'SIGKILL');
      throw new Error(`server not ready in ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, url, output: () => out, readyMs: performance.now() - started };
}

/** Signals the whole process group (npm, node and what they started). */
export function stopGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/**
 * Whether a process with this pid exists (signal 0 checks without signalling). Only a positive
 * pid is a process: `kill(0, 0)` signals this test's own process group and succeeds.
 */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function waitForExit(child: ChildProcess, timeoutMs = 30_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('process did not exit')), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

/**
 * The server's entry points (and any extra ones, e.g. a test's own runner) bundled as
 * `npm run build` bundles them (scripts/build-server.mjs), into a folder of the caller's own
 * under .tmp/ (dist/ is left alone): real processes of today's source. `remove()` deletes it.
 */
export async function bundleEntryPoints(
  name: string,
  extra: Record<string, string> = {},
): Promise<{ dir: string; file(entry: string): string; remove(): Promise<void> }> {
  const { build } = await import('esbuild');
  const fs = await import('node:fs/promises');
  await fs.mkdir(path.join(ROOT, '.tmp'), { recursive: true });
  const dir = await fs.mkdtemp(path.join(ROOT, '.tmp', `${name}-`));
  await build({
    entryPoints: { main: 'src/server/main.ts', cli: 'src/server/cli.ts', ...extra },
    absWorkingDir: ROOT,
    outdir: dir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return {
    dir,
    file: (entry) => path.join(dir, `${entry}.js`),
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The pid and port of the PostgreSQL whose data folder is `pgDir`, from its `postmaster.pid`.
 * PostgreSQL creates that file first and writes its lines after: read in between, it is empty or
 * short (a kill -9 test once read pid 0 and port NaN there). Such a file rejects, like a missing
 * one, so a caller polling for a new postmaster tries again.
 */
export async function readPostmasterPid(pgDir: string): Promise<{ pid: number; port: number }> {
  const lines = (await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0) || !(port > 0)) throw new Error(`postmaster.pid of ${pgDir} is not written yet`);
  return { pid, port };
}
