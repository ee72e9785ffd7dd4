import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createLogger, type Logger } from '../logger.js';
import { isRealDate, offsetMinutes } from '../../shared/time.js';
import { clusterUser, embeddedRunAs, startEmbeddedPostgres, type EmbeddedDatabase, type RunAs } from './embedded.js';
import { baseBackupStamp, listBaseBackups, lsnSegment, openWalArchive, parseSegmentName, type StoredBaseBackup, type WalArchiveConfig } from './wal-archive.js';

/**
 * `db restore --at`: the embedded database brought back to a second (issue 50, decision 056).
 * A new cluster from the newest base backup that ended before that second, the archived log
 * (and the old cluster's `pg_wal`, which holds what is not archived yet) replayed up to it,
 * promoted, stopped, and swapped in; the old folder is kept beside it.
 */

export type ParsedTarget = { ok: true; at: Date } | { ok: false; reason: string };

const TARGET = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The instant `text` names: `2026-12-01 10:15:30` on the wall clock of `timeZone`, or with an
 * explicit offset (`2026-12-01T10:15:30+01:00`, `…Z`). Seconds may be left out (`:00`). A
 * wall time that does not exist there (the hour skipped when summer time starts) is refused;
 * so is one that happens twice (the hour repeated when it ends), which needs its offset.
 */
export function parseRecoveryTarget(text: string, timeZone: string): ParsedTarget {
  const m = TARGET.exec(text.trim());
  const example = '"2026-12-01 10:15:30" oppure "2026-12-01T10:15:30+01:00"';
  if (!m) return { ok: false, reason: `Istante non valido: "${text}" (formato ${example})` };
  const [, date, hh, mm, ss = '0', fraction = '', offset] = m;
  const [hours, minutes, seconds] = [Number(hh), Number(mm), Number(ss)];
  if (!isRealDate(date!) || hours > 23 || minutes > 59 || seconds > 59) {
    return { ok: false, reason: `Istante non valido: "${text}" (data o ora inesistente; formato ${example})` };
  }
  const [y, mo, d] = date!.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, mo - 1, d, hours, minutes, seconds, Number(fraction.padEnd(3, '0').slice(0, 3)));
  if (offset) {
    if (/^z$/i.test(offset)) return { ok: true, at: new Date(wall) };
    const o = /^([+-])(\d{2}):?(\d{2})?$/.exec(offset)!;
    const east = (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3] ?? 0));
    if (Math.abs(east) > 14 * 60) return { ok: false, reason: `Offset non valido: ${offset}` };
    return { ok: true, at: new Date(wall - east * MINUTE_MS) };
  }
  // The instants whose wall clock reads `wall`: one, none or two (src/shared/time.ts's reasoning).
  const candidates = new Set<number>();
  for (const east of new Set([offsetMinutes(wall - DAY_MS, timeZone), offsetMinutes(wall, timeZone), offsetMinutes(wall + DAY_MS, timeZone)])) {
    const instant = wall - east * MINUTE_MS;
    if (offsetMinutes(instant, timeZone) === east) candidates.add(instant);
  }
  const found = [...candidates].sort((a, b) => a - b);
  if (found.length === 0) return { ok: false, reason: `${date} ${hh}:${mm} non esiste in ${timeZone} (l'ora salta al cambio dell'ora legale)` };
  if (found.length > 1) {
    const offsets = found.map((t) => formatOffset(offsetMinutes(t, timeZone))).join(' o ');
    return { ok: false, reason: `${date} ${hh}:${mm} ricorre due volte in ${timeZone} (fine dell'ora legale): indica l'offset, ${offsets} (ad esempio ${date}T${hh}:${mm}:${ss.padStart(2, '0')}${formatOffset(offsetMinutes(found[0]!, timeZone))})` };
  }
  return { ok: true, at: new Date(found[0]!) };
}

function formatOffset(east: number): string {
  const a = Math.abs(east);
  return `${east < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** `2026-12-01 10:15:30` on the wall clock of `timeZone` (the second, truncated). */
export function formatInZone(at: Date, timeZone: string): string {
  const wall = new Date(at.getTime() + offsetMinutes(at.getTime(), timeZone) * MINUTE_MS);
  return wall.toISOString().slice(0, 19).replace('T', ' ');
}

/** The first whole second at or after `at`: the oldest target a backup that ended at `at` allows. */
const ceilSecond = (at: Date) => new Date(Math.ceil(at.getTime() / 1000) * 1000);

/** A restore that cannot be done as asked; its message says why, for the operator. */
export class RestoreRefused extends Error {}

export interface RestoreOptions {
  dataDir: string;
  archive: WalArchiveConfig;
  target: Date;
  timeZone: string;
  log: Logger;
  /** Progress lines for the operator. */
  out: (line: string) => void;
  now?: Date;
}

export interface RestoreResult {
  backup: StoredBaseBackup;
  /** Where the cluster in use until now was moved (absent when there was none). */
  before: string | undefined;
  timeline: number;
  /** The last transaction replayed, by its commit time; null when none after the backup. */
  lastTransaction: Date | null;
  /** The log ended before the target: the database is as at its end (which is the same state). */
  endOfLog: boolean;
  seconds: number;
}

/** The base backup a restore to `target` starts from, or the refusal naming the oldest time possible. */
export function chooseBaseBackup(backups: StoredBaseBackup[], target: Date, timeZone: string, archiveDir: string): StoredBaseBackup {
  if (backups.length === 0) {
    throw new RestoreRefused(
      `Nessuna copia di base in ${path.join(archiveDir, 'base')}: non c'è un punto da cui ripartire. ` +
        `L'app ne fa una al primo avvio e ogni notte; a mano: npm run cli -- db base-backup`,
    );
  }
  const chosen = backups.filter((b) => Date.parse(b.finishedAt) <= target.getTime()).at(-1);
  if (!chosen) {
    const oldest = ceilSecond(new Date(backups[0]!.finishedAt));
    throw new RestoreRefused(
      `Non si può tornare a ${formatInZone(target, timeZone)} (${timeZone}): la copia di base più vecchia dell'archivio ` +
        `è finita alle ${formatInZone(new Date(backups[0]!.finishedAt), timeZone)}. L'istante più vecchio possibile è ` +
        `${formatInZone(oldest, timeZone)} (${timeZone}).`,
    );
  }
  return chosen;
}

async function chownTree(dir: string, user: RunAs): Promise<void> {
  await fs.chown(dir, user.uid, user.gid);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(p, user);
    else await fs.chown(p, user.uid, user.gid);
  }
}

/** Log lines of the servers a restore starts, kept to say why one stopped. */
function capturingLogger(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const log = createLogger('debug', {
    write(line: string) {
      lines.push(line);
      if (lines.length > 400) lines.shift();
    },
  });
  const text = () =>
    lines
      .map((l) => {
        try {
          return String((JSON.parse(l) as { msg?: unknown }).msg ?? '');
        } catch {
          return l;
        }
      })
      .join('\n');
  return { log, text };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'bicielis-restore' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The cluster in use is started once with archiving and stopped cleanly: an orphan left by a
 * crash is stopped (as at any start), the segment being written is closed and archived, and
 * what the archiver had not sent yet is sent at the shutdown. A cluster that does not start
 * (the reason for the restore, sometimes) is left as it is: its `pg_wal` is copied anyway.
 */
async function closeCurrentCluster(o: RestoreOptions, runAs: RunAs | undefined): Promise<void> {
  const archive = await openWalArchive(o.archive, runAs);
  const { log, text } = capturingLogger();
  let db: EmbeddedDatabase | undefined;
  try {
    db = await startEmbeddedPostgres(o.dataDir, log, archive.startOptions);
    await query(db.adminUrl, 'select pg_switch_wal()');
  } catch (err) {
    o.out(`Il database attuale non si avvia (${err instanceof Error ? err.message.split('\n')[0] : String(err)}): uso i file di log che contiene così come sono.`);
    o.log.debug(text());
  } finally {
    await db?.stop();
    archive.close();
  }
}

/** The old cluster's log segments from `fromSegno` on (and its histories): what the archive may lack. */
async function copyCurrentWal(oldPgDir: string, newPgDir: string, fromSegno: number): Promise<number> {
  const from = path.join(oldPgDir, 'pg_wal');
  let copied = 0;
  for (const name of await fs.readdir(from).catch(() => [] as string[])) {
    const segment = parseSegmentName(name);
    if ((segment && segment.segno >= fromSegno) || /^[0-9A-F]{8}\.history$/.test(name)) {
      await fs.copyFile(path.join(from, name), path.join(newPgDir, 'pg_wal', name));
      copied++;
    }
  }
  return copied;
}

const stoppedUnexpectedly = /PostgreSQL incorporato terminato inaspettatamente/;
const targetNotReached = /recovery ended before configured recovery target was reached/;

/** Starts the copy in recovery and waits until it has promoted itself; resolves with what it says. */
async function recover(work: string, o: RestoreOptions, runAs: RunAs | undefined, target: Date | undefined) {
  const archive = await openWalArchive(o.archive, runAs, {
    ...(target ? { recovery_target_time: `${target.toISOString().replace('T', ' ').replace('Z', '')}+00`, recovery_target_inclusive: 'true' } : {}),
    recovery_target_action: 'promote',
    recovery_target_timeline: 'latest',
  });
  const { log, text } = capturingLogger();
  let db: EmbeddedDatabase | undefined;
  try {
    db = await startEmbeddedPostgres(work, log, archive.startOptions);
    for (;;) {
      const rows = await query<{ recovering: boolean }>(db.adminUrl, 'select pg_is_in_recovery() as recovering').catch(() => undefined);
      if (rows && !rows[0]!.recovering) break;
      if (stoppedUnexpectedly.test(text())) throw new Error(text().split('\n').filter((l) => /FATAL|ERROR|PANIC/.test(l)).slice(-3).join(' ') || 'PostgreSQL si è fermato');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The new timeline's first segment closed, so that the archive holds all the restored
    // cluster has (the shutdown below archives it, with the timeline's history).
    await query(db.adminUrl, 'select pg_switch_wal()');
    const [state] = await query<{ timeline: string; last: Date | null }>(
      db.adminUrl,
      `select substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) as timeline, pg_last_xact_replay_timestamp() as last`,
    );
    return { timeline: Number.parseInt(state!.timeline, 16), lastTransaction: state!.last };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (targetNotReached.test(message) || targetNotReached.test(text())) return 'target-not-reached' as const;
    throw new Error(`recupero non riuscito: ${message}`, { cause: err });
  } finally {
    // A fast shutdown: the archiver sends the new timeline's history and first segment first.
    await db?.stop();
    archive.close();
  }
}

export async function restoreToTime(o: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const now = o.now ?? new Date();
  const dataDir = path.resolve(o.dataDir);
  if (o.target.getTime() > now.getTime()) {
    throw new RestoreRefused(
      `${formatInZone(o.target, o.timeZone)} (${o.timeZone}) è nel futuro: adesso sono le ${formatInZone(now, o.timeZone)}. Scegli un istante passato.`,
    );
  }
  const user = await clusterUser(dataDir, o.log);
  if (user) {
    throw new RestoreRefused(
      `Il database è in uso (PostgreSQL pid ${user.postmaster}, porta ${user.port}): ferma l'app (ad esempio sudo systemctl stop bicielis) ` +
        `e ogni altro comando, poi ripeti il ripristino.`,
    );
  }
  const backup = chooseBaseBackup(await listBaseBackups(o.archive.dir), o.target, o.timeZone, o.archive.dir);
  const runAs = embeddedRunAs(o.log);
  const pgDir = path.join(dataDir, 'postgres');
  const hasCluster = existsSync(path.join(pgDir, 'PG_VERSION'));
  o.out(`Copia di base ${backup.name} (finita alle ${formatInZone(new Date(backup.finishedAt), o.timeZone)}), log fino a ${formatInZone(o.target, o.timeZone)} (${o.timeZone}).`);
  if (hasCluster) await closeCurrentCluster(o, runAs);

  const stamp = baseBackupStamp(now);
  // A restore cut half-way left its work folder: it holds nothing the archive does not.
  for (const name of await fs.readdir(dataDir)) {
    if (/^restore-\d{4}-\d{2}-\d{2}T\d{6}Z$/.test(name)) await fs.rm(path.join(dataDir, name), { recursive: true, force: true });
  }
  const work = path.join(dataDir, `restore-${stamp}`);
  const workPg = path.join(work, 'postgres');
  const prepare = async () => {
    await fs.rm(work, { recursive: true, force: true });
    await fs.mkdir(work, { mode: 0o700 });
    // The cluster's password is the one in the copied pg_authid.
    await fs.copyFile(path.join(dataDir, 'postgres.password'), path.join(work, 'postgres.password'));
    await fs.cp(path.join(backup.dir, 'data'), workPg, { recursive: true });
    await fs.chmod(workPg, 0o700);
    const copied = hasCluster ? await copyCurrentWal(pgDir, workPg, lsnSegment(backup.startLsn)) : 0;
    await fs.writeFile(path.join(workPg, 'recovery.signal'), '', { mode: 0o600 });
    if (runAs) await chownTree(workPg, runAs);
    return copied;
  };
  try {
    const copied = await prepare();
    o.out(`Recupero in ${workPg} (${copied} segmenti di log presi dal database attuale)…`);
    let endOfLog = false;
    let outcome = await recover(work, o, runAs, o.target);
    if (outcome === 'target-not-reached') {
      // No transaction ended after the target: the database at that second is the one at the
      // end of the log. From a fresh copy (the failed attempt replayed into this one).
      o.out(`Il log finisce prima di ${formatInZone(o.target, o.timeZone)}: nessuna transazione dopo. Recupero fino alla fine del log…`);
      endOfLog = true;
      await prepare();
      outcome = await recover(work, o, runAs, undefined);
      if (outcome === 'target-not-reached') throw new Error('recupero non riuscito: fine del log non raggiunta');
    }
    let before: string | undefined;
    if (existsSync(pgDir)) {
      before = path.join(dataDir, `postgres.before-restore-${stamp}`);
      await fs.rename(pgDir, before);
    }
    await fs.rename(workPg, pgDir);
    await fs.rm(work, { recursive: true, force: true });
    return { backup, before, timeline: outcome.timeline, lastTransaction: outcome.lastTransaction, endOfLog, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    await fs.rm(work, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}
