/**
 * The built app as `npm start` runs it (dist/server/main.js in a process of its own, so that
 * a browser's or Lighthouse's work in the bench's process cannot delay its answers), on a
 * bench database with the demo data: what the browser benches (lighthouse.ts, opens.ts,
 * cpu-after-fcp.ts) measure. Needs `npm run build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/server/db/client.js';
import { seedDemo } from '../../src/server/seed/seed.js';
import { createLogger } from '../../src/server/logger.js';
import { freePort, ROOT, startServer, stopGroup, waitForExit } from '../helpers/server-process.js';
import { benchDatabase, START_MEMORY_FLAGS } from './harness.js';

export interface BuiltApp {
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** The server's process (its RSS is read from /proc: memory.ts). */
  pid: number;
  /** The bench database the server runs on. */
  database: Database;
  /** The session cookie (`name=value`) of a demo account, logged in through the API. */
  sessionOf(email: string, password: string): Promise<string>;
  /** Stops the server, removes its data folder and the bench database. */
  close(): Promise<void>;
}

export async function startBuiltApp(label: string, port?: string): Promise<BuiltApp> {
  const bench = await benchDatabase();
  let dataDir: string | undefined;
  try {
    await seedDemo(bench.database.db, createLogger('warn'));
    const listen = port ?? String(await freePort());
    dataDir = await mkdtemp(path.join(os.tmpdir(), `bicielis-${label}-`));
    const server = await startServer(['node', ...START_MEMORY_FLAGS, path.join(ROOT, 'dist', 'server', 'main.js')], {
      PORT: listen,
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATABASE_URL: bench.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${listen}`,
    });
    const base = server.url;
    const folder = dataDir;
    return {
      base,
      pid: server.child.pid!,
      database: bench.database,
      async sessionOf(email, password) {
        const login = await fetch(`${base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify({ email, password }),
        });
        const cookie = login.headers.get('set-cookie')?.split(';')[0];
        if (login.status !== 200 || !cookie) throw new Error(`login di ${email}: ${login.status}`);
        return cookie;
      },
      async close() {
        stopGroup(server.child, 'SIGTERM');
        await waitForExit(server.child);
        await rm(folder, { recursive: true, force: true });
        await bench.close();
      },
    };
  } catch (error) {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await bench.close();
    throw error;
  }
}
