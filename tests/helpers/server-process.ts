import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
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

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
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
