import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { BACKUP_DATA_DIR, takeBaseBackup } from '../../src/server/db/base-backup.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/db/embedded.js';
import type { Logger } from '../../src/server/logger.js';
import { freePort, isAlive, readPostmasterPid } from './server-process.js';

/**
 * A primary and a synchronous standby from the embedded binaries, behind one address that
 * moves (issue 50, decision 057 "How the test fails over"): what Patroni and HAProxy, or a
 * managed provider's high availability, give an app in production.
 *
 * - Each server is a cluster of its own in a temporary `DATA_DIR` (`startEmbeddedPostgres`).
 *   A standby is a base backup of the primary (`takeBaseBackup`) with `standby.signal` and
 *   `primary_conninfo`: it streams the primary's WAL from the backup's start on
 *   (`wal_keep_size` keeps it on the primary long enough).
 * - The primary waits for the standby's flush at each commit (`synchronous_commit = on` and
 *   `synchronous_standby_names`), set by `alter system` + `pg_reload_conf()` only once the
 *   standby streams: a primary that waits for a standby not there yet hangs every commit.
 * - The standby never carries `synchronous_standby_names` (the copy of the primary's
 *   `postgresql.auto.conf` has it, and it is taken out): promoted, it would wait for a
 *   standby of its own that does not exist, and every commit would hang.
 * - The relay is the one address the app knows (`url`). Moving it sends new connections to
 *   the other server and cuts those open to the old one, as HAProxy's `on-marked-down
 *   shutdown-sessions` does when Patroni's health check fails.
 */

/** The settings both servers start with: a primary streams, a standby answers reads. */
export const STANDBY_SETTINGS = {
  wal_level: 'replica',
  synchronous_commit: 'on',
  hot_standby: 'on',
  max_wal_senders: '5',
  // The standby made from a base backup streams from the backup's start: the primary keeps
  // that much WAL (a slot would also hold it, and outlive the standby it was made for).
  wal_keep_size: '256MB',
};

export interface Server {
  name: string;
  /** The `DATA_DIR` (the cluster is in `postgres/` under it). */
  dir: string;
  db: EmbeddedDatabase;
}

/** A TCP relay in front of PostgreSQL whose target moves. */
export class Relay {
  private constructor(
    private readonly server: net.Server,
    private target: number,
    readonly port: number,
  ) {}

  private readonly pairs = new Set<{ target: number; client: net.Socket; upstream: net.Socket }>();
  /** Connections opened through the relay to each target port (a state a test can wait for). */
  readonly opened = new Map<number, number>();

  static async start(target: number): Promise<Relay> {
    const server = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const relay = new Relay(server, target, port);
    server.on('connection', (client) => relay.carry(client));
    return relay;
  }

  get targetPort(): number {
    return this.target;
  }

  private carry(client: net.Socket) {
    const target = this.target;
    const upstream = net.connect(target, '127.0.0.1');
    const pair = { target, client, upstream };
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.once('connect', () => this.opened.set(target, (this.opened.get(target) ?? 0) + 1));
    // A refused connect (the target is dead) or a cut on either side ends both: the client
    // sees its connection end, as it would at a dead address behind a proxy.
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** New connections go to `target`; those open to any other are cut. */
  moveTo(target: number) {
    this.target = target;
    for (const pair of this.pairs) {
      if (pair.target === target) continue;
      this.pairs.delete(pair);
      pair.client.destroy();
      pair.upstream.destroy();
    }
  }

  async close() {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** One row of `pg_stat_replication`, as the primary sees its standby. */
interface ReplicationState {
  application_name: string;
  state: string;
  sync_state: string;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'bicielis-replica-pair' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Waits until `probe` gives a value (polled every 50 ms), or fails after `timeoutMs` saying `what`. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `postgresql.auto.conf` without the lines setting `names`, then `extra` appended. */
async function rewriteAutoConf(pgDir: string, names: string[], extra: string[]) {
  const file = path.join(pgDir, 'postgresql.auto.conf');
  const kept = (await fs.readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => !names.some((name) => new RegExp(`^\\s*${name}\\s*=`).test(line)));
  while (kept.at(-1) === '') kept.pop();
  await fs.writeFile(file, `${[...kept, ...extra].join('\n')}\n`, { mode: 0o600 });
}

/** A libpq string value: single quotes doubled, backslashes escaped. */
const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

export class ReplicaPair {
  private constructor(
    private readonly root: string,
    private readonly log: Logger,
    public primary: Server,
    public relay: Relay,
  ) {}

  /** The synchronous standby; none between a promotion and `addStandby()`. */
  standby: Server | undefined;
  /** Servers made so far (names `node1`, `node2`, …). */
  private made = 1;
  /** Servers killed and left for `stop()` to clear. */
  private readonly dead: Server[] = [];

  /** A primary in a folder of its own under a new temporary root, and the relay leading to it. */
  static async start(log: Logger): Promise<ReplicaPair> {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-replica-pair-'));
    const dir = path.join(root, 'node1');
    const db = await startEmbeddedPostgres(dir, log, { port: await freePort(), settings: STANDBY_SETTINGS });
    const relay = await Relay.start(db.port);
    return new ReplicaPair(root, log, { name: 'node1', dir, db }, relay);
  }

  /** The app database through the relay: the `DATABASE_URL` the app is given. */
  get url(): string {
    const u = new URL(this.primary.db.url);
    u.port = String(this.relay.port);
    return u.toString();
  }

  /** The current primary's app database, directly (not through the relay). */
  get primaryUrl(): string {
    return this.primary.db.url;
  }

  /**
   * A new standby of the current primary: a base backup into a folder of its own, made a
   * standby, started; then the primary waits for it at each commit. Resolves when the
   * primary reports it `sync`.
   */
  async addStandby(): Promise<Server & { phases: { copyMs: number; startMs: number; syncMs: number } }> {
    const began = performance.now();
    if (this.standby) throw new Error(`${this.standby.name} is already the standby`);
    const name = `node${++this.made}`;
    const dir = path.join(this.root, name);
    await fs.mkdir(dir, { mode: 0o700 });
    const { primary } = this;
    // The copy, owned by the user PostgreSQL runs as; the same password as its primary
    // (the roles are copied with the data, the embedded start reads the file beside it).
    await takeBaseBackup({ adminUrl: primary.db.adminUrl, pgDir: primary.db.pgDir, target: path.join(dir, 'backup'), owner: primary.db.runAs });
    const pgDir = path.join(dir, 'postgres');
    await fs.rename(path.join(dir, 'backup', BACKUP_DATA_DIR), pgDir);
    await fs.rm(path.join(dir, 'backup'), { recursive: true, force: true });
    await fs.copyFile(path.join(primary.dir, 'postgres.password'), path.join(dir, 'postgres.password'));
    const password = (await fs.readFile(path.join(dir, 'postgres.password'), 'utf8')).trim();
    const conninfo = `host=127.0.0.1 port=${primary.db.port} user=postgres password=${password} application_name=${name}`;
    await rewriteAutoConf(pgDir, ['synchronous_standby_names', 'primary_conninfo'], [`primary_conninfo = ${quoted(conninfo)}`]);
    await fs.writeFile(path.join(pgDir, 'standby.signal'), '');
    if (primary.db.runAs) {
      for (const file of ['postgresql.auto.conf', 'standby.signal']) await fs.chown(path.join(pgDir, file), primary.db.runAs.uid, primary.db.runAs.gid);
    }
    const copied = performance.now();
    // Ready (read-only) once it has replayed the primary's WAL up to the end of the copy.
    const db = await startEmbeddedPostgres(dir, this.log, { port: await freePort(), settings: STANDBY_SETTINGS });
    const started = performance.now();
    const standby: Server = { name, dir, db };
    this.standby = standby;
    await waitFor(async () => {
      const rows = await query<ReplicationState>(primary.db.adminUrl, 'select application_name, state, sync_state from pg_stat_replication where application_name = $1', [name]);
      return rows[0]?.state === 'streaming' ? true : undefined;
    }, 30_000, `${name} streaming from ${primary.name}`);
    // Only now: from here every commit on the primary waits for the standby's flush.
    await query(primary.db.adminUrl, `alter system set synchronous_standby_names = ${quoted(`FIRST 1 ("${name}")`)}`);
    await query(primary.db.adminUrl, 'select pg_reload_conf()');
    await waitFor(async () => {
      const rows = await query<ReplicationState>(primary.db.adminUrl, 'select application_name, state, sync_state from pg_stat_replication where application_name = $1', [name]);
      return rows[0]?.sync_state === 'sync' ? true : undefined;
    }, 30_000, `${name} synchronous for ${primary.name}`);
    const phases = { copyMs: copied - began, startMs: started - copied, syncMs: performance.now() - started };
    return { ...standby, phases };
  }

  /** The primary's `pg_stat_replication` rows. */
  async replication(): Promise<ReplicationState[]> {
    return query<ReplicationState>(this.primary.db.adminUrl, 'select application_name, state, sync_state from pg_stat_replication');
  }

  /** `kill -9` of the primary's postmaster; resolves once it is gone. Its backends die as they notice. */
  async killPrimary(): Promise<number> {
    const { pid } = await readPostmasterPid(this.primary.db.pgDir);
    process.kill(pid, 'SIGKILL');
    await waitFor(() => (isAlive(pid) ? undefined : true), 10_000, `postmaster ${pid} gone`);
    this.dead.push(this.primary);
    return pid;
  }

  /** Whether the standby is still in recovery (not promoted). */
  async standbyInRecovery(): Promise<boolean> {
    if (!this.standby) throw new Error('no standby');
    const [row] = await query<{ r: boolean }>(this.standby.db.adminUrl, 'select pg_is_in_recovery() as r');
    return row!.r;
  }

  /**
   * `select pg_promote()` on the standby (what `pg_ctl promote` does), waiting until it
   * accepts writes; it is the primary from then on, with no standby until `addStandby()`.
   */
  async promote(): Promise<Server> {
    const standby = this.standby;
    if (!standby) throw new Error('no standby to promote');
    const [row] = await query<{ promoted: boolean }>(standby.db.adminUrl, 'select pg_promote(true, 60) as promoted');
    if (!row?.promoted) throw new Error(`${standby.name} was not promoted within 60 s`);
    this.primary = standby;
    this.standby = undefined;
    return standby;
  }

  /** Stops every server (the killed ones' leftovers included) and the relay, and removes the folders. */
  async stop() {
    await this.relay.close();
    for (const server of [this.standby, this.primary, ...this.dead]) {
      if (server) await server.db.stop().catch(() => undefined);
    }
    await fs.rm(this.root, { recursive: true, force: true });
  }
}
