import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable, pipeline } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';

/**
 * Backup and restore of the whole database in one gzip file (docs/decisions/020-backup-restore.md).
 *
 * The file is text, one JSON document per line:
 *   1. the header: format, version, creation time, server version, the applied migrations,
 *      every table of `public` (parents before children) with its columns, their types and
 *      its row count, and the state of every column-owned sequence;
 *   2. per table, a line `{"table": name, "rows": n}` then n lines, one per row: a JSON
 *      array holding each column's value in PostgreSQL's own text form (what COPY's text
 *      format writes; null for SQL NULL), read under fixed settings (ISO dates, UTC, hex
 *      bytea) so the text means the same thing on every server;
 *   3. a last line `{"end": true, "rows": total}`: a file cut short is never taken for a
 *      whole one (gzip's own check catches the rest).
 * Values are never parsed in JavaScript: the server writes them and the server reads them.
 */

export const BACKUP_FORMAT = 'bicielis-backup';
export const BACKUP_VERSION = 1;

/** The drizzle migrator's bookkeeping table (drizzle-orm's default, used by migrate.ts). */
const MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';
/** The session cache's channel (modules/auth/session-cache.ts): any unknown payload empties it. */
const AUTH_CHANNEL = 'bicielis_auth';

/** A refusal the user must read (Italian); the database is unchanged. */
export class BackupError extends Error {}

interface TableHeader {
  name: string;
  columns: string[];
  types: string[];
  rows: number;
}

interface SequenceHeader {
  table: string;
  column: string;
  /** bigint as text; null when the sequence was never used (or reset). */
  lastValue: string | null;
}

interface Migration {
  hash: string;
  createdAt: string;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  serverVersion: string;
  migrations: Migration[];
  tables: TableHeader[];
  sequences: SequenceHeader[];
}

export interface TableSummary {
  table: string;
  rows: number;
  /** Bytes of the table's rows in the file before compression. */
  bytes: number;
}

export interface BackupSummary {
  tables: TableSummary[];
  rows: number;
  /** Size of the (compressed) file. */
  fileBytes: number;
  seconds: number;
  header: BackupHeader;
}

const FETCH_ROWS = 500;
const INSERT_ROWS = 1000;
const INSERT_BYTES = 8 * 1024 * 1024;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Settings that make every value's text form unambiguous, as pg_dump sets them. */
async function fixTextForms(client: pg.PoolClient) {
  await client.query(
    `set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'; set local timezone = 'UTC';
     set local extra_float_digits = 3; set local bytea_output = 'hex'; set local client_encoding = 'UTF8'`,
  );
}

async function appliedMigrations(client: pg.PoolClient): Promise<Migration[]> {
  const exists = await client.query<{ t: string | null }>(`select to_regclass($1)::text as t`, [MIGRATIONS_TABLE]);
  if (!exists.rows[0]?.t) return [];
  const { rows } = await client.query<{ hash: string; created_at: string }>(
    `select hash, created_at::text from ${MIGRATIONS_TABLE} order by created_at, id`,
  );
  return rows.map((r) => ({ hash: r.hash, createdAt: r.created_at }));
}

/** Every ordinary table of `public`, parents before children (foreign keys), else by name. */
async function tablesOf(client: pg.PoolClient): Promise<Omit<TableHeader, 'rows'>[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; types: string[] }>(
    `select c.relname::text as name,
            array_agg(a.attname::text order by a.attnum) as columns,
            array_agg(format_type(a.atttypid, a.atttypmod) order by a.attnum) as types
       from pg_class c
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      group by c.relname order by c.relname`,
  );
  const { rows: edges } = await client.query<{ child: string; parent: string }>(
    `select c.relname::text as child, p.relname::text as parent
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and c.relnamespace = 'public'::regnamespace and p.relnamespace = 'public'::regnamespace`,
  );
  const byName = new Map(rows.map((r) => [r.name, r]));
  const parents = new Map(rows.map((r) => [r.name, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent && byName.has(e.parent)) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < rows.length) {
    const ready = rows.find((r) => !placed.has(r.name) && [...parents.get(r.name)!].every((p) => placed.has(p)));
    // A cycle of foreign keys (none today) falls back to name order; its load may then fail, and roll back.
    const next = ready ?? rows.find((r) => !placed.has(r.name))!;
    ordered.push(next.name);
    placed.add(next.name);
  }
  return ordered.map((n) => byName.get(n)!);
}

/** Sequences owned by a column of a `public` table (serial, bigserial, identity). */
async function ownedSequences(client: pg.PoolClient) {
  const { rows } = await client.query<{ table: string; column: string; sequence: string }>(
    `select c.relname::text as table, a.attname::text as column, s.oid::regclass::text as sequence
       from pg_depend d
       join pg_class s on s.oid = d.objid and s.relkind = 'S'
       join pg_class c on c.oid = d.refobjid
       join pg_attribute a on a.attrelid = c.oid and a.attnum = d.refobjsubid
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
        and d.deptype in ('a', 'i') and c.relnamespace = 'public'::regnamespace
      order by 1, 2`,
  );
  return rows;
}

/**
 * Writes the whole database to `file` (through `<file>.partial`, renamed at the end), from
 * one consistent snapshot: a running app may keep working meanwhile.
 */
export async function backupDatabase(pool: pg.Pool, file: string): Promise<BackupSummary> {
  const started = performance.now();
  const partial = `${file}.partial`;
  const client = await pool.connect();
  let header: BackupHeader;
  const summary: TableSummary[] = [];
  try {
    await client.query('begin isolation level repeatable read read only');
    await fixTextForms(client);
    const migrations = await appliedMigrations(client);
    if (migrations.length === 0) throw new BackupError('Il database non ha lo schema di BiciElis (nessuna migrazione applicata): niente da salvare');
    const tables: TableHeader[] = [];
    for (const t of await tablesOf(client)) {
      const { rows } = await client.query<{ n: string }>(`select count(*)::text as n from ${ident(t.name)}`);
      tables.push({ ...t, rows: Number(rows[0]!.n) });
    }
    const sequences: SequenceHeader[] = [];
    for (const s of await ownedSequences(client)) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
        `select last_value::text, is_called from ${s.sequence}`,
      );
      sequences.push({ table: s.table, column: s.column, lastValue: rows[0]!.is_called ? rows[0]!.last_value : null });
    }
    const serverVersion = (await client.query<{ v: string }>('select current_setting($1) as v', ['server_version'])).rows[0]!.v;
    header = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      serverVersion,
      migrations,
      tables,
      sequences,
    };
    const h = header;

    async function* lines(): AsyncGenerator<string> {
      yield `${JSON.stringify(h)}\n`;
      let total = 0;
      for (const t of h.tables) {
        yield `${JSON.stringify({ table: t.name, rows: t.rows })}\n`;
        const values = t.columns.map((c) => `${ident(c)}::text`).join(', ');
        await client.query(`declare backup_rows no scroll cursor for select json_build_array(${values})::text as r from ${ident(t.name)}`);
        let rows = 0;
        let bytes = 0;
        for (;;) {
          const batch = await client.query<{ r: string }>(`fetch ${FETCH_ROWS} from backup_rows`);
          if (batch.rows.length === 0) break;
          let chunk = '';
          for (const { r } of batch.rows) chunk += `${r}\n`;
          rows += batch.rows.length;
          bytes += Buffer.byteLength(chunk);
          yield chunk;
        }
        await client.query('close backup_rows');
        if (rows !== t.rows) throw new Error(`${t.name}: ${rows} righe lette, ${t.rows} contate`);
        summary.push({ table: t.name, rows, bytes });
        total += rows;
      }
      yield `${JSON.stringify({ end: true, rows: total })}\n`;
    }

    await pipelineAsync(Readable.from(lines()), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    await fs.rm(partial, { force: true });
    throw err;
  } finally {
    client.release();
  }
  const handle = await fs.open(partial, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(partial, file);
  const { size } = await fs.stat(file);
  return {
    tables: summary,
    rows: summary.reduce((n, t) => n + t.rows, 0),
    fileBytes: size,
    seconds: (performance.now() - started) / 1000,
    header,
  };
}

/** The file's lines, decompressed; a read or gzip error rejects the iteration. */
async function* fileLines(file: string): AsyncGenerator<string> {
  const source = pipeline(createReadStream(file), createGunzip(), () => undefined);
  source.setEncoding('utf8');
  let rest = '';
  for await (const chunk of source as AsyncIterable<string>) {
    rest += chunk;
    let nl = rest.indexOf('\n');
    let from = 0;
    while (nl !== -1) {
      yield rest.slice(from, nl);
      from = nl + 1;
      nl = rest.indexOf('\n', from);
    }
    rest = rest.slice(from);
  }
  if (rest !== '') yield rest;
}

const DAMAGED = 'File di backup non valido o danneggiato';

function parseJson(line: string | undefined, what: string): unknown {
  if (line === undefined) throw new BackupError(`${DAMAGED}: il file è troncato (manca ${what})`);
  try {
    return JSON.parse(line);
  } catch {
    throw new BackupError(`${DAMAGED}: ${what} illeggibile`);
  }
}

function checkHeader(value: unknown): BackupHeader {
  const h = value as Partial<BackupHeader> | null;
  if (!h || typeof h !== 'object' || h.format !== BACKUP_FORMAT) throw new BackupError(`${DAMAGED}: non è un backup di BiciElis`);
  if (h.version !== BACKUP_VERSION) throw new BackupError(`Versione del formato di backup non supportata: ${String(h.version)} (questa versione legge la ${BACKUP_VERSION})`);
  if (!Array.isArray(h.migrations) || !Array.isArray(h.tables) || !Array.isArray(h.sequences)) throw new BackupError(`${DAMAGED}: intestazione incompleta`);
  return h as BackupHeader;
}

/** Wraps a failure of the file (gzip, read) into the user's message; database errors pass. */
async function nextLine(lines: AsyncGenerator<string>): Promise<string | undefined> {
  try {
    const r = await lines.next();
    return r.done ? undefined : r.value;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') throw new BackupError('File di backup non trovato');
    if (typeof code === 'string' && code.startsWith('Z_')) throw new BackupError(`${DAMAGED} (${(err as Error).message})`);
    throw err;
  }
}

/** The file's header alone, checked (a missing, non-gzip or foreign file is a BackupError). */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new BackupError(`File di backup non trovato: ${file}`);
  const lines = fileLines(file);
  try {
    return checkHeader(parseJson(await nextLine(lines), "l'intestazione"));
  } finally {
    await lines.return(undefined).catch(() => undefined);
  }
}

/**
 * Replaces every row of every table with the file's, in one transaction: either all of the
 * backup is in, or nothing changed. The target must have exactly the backup's migrations.
 */
export async function restoreDatabase(pool: pg.Pool, file: string): Promise<BackupSummary> {
  const started = performance.now();
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new BackupError(`File di backup non trovato: ${file}`);
  const lines = fileLines(file);
  let header: BackupHeader;
  try {
    header = checkHeader(parseJson(await nextLine(lines), "l'intestazione"));
  } catch (err) {
    await lines.return(undefined).catch(() => undefined);
    throw err;
  }
  const client = await pool.connect();
  const summary: TableSummary[] = [];
  try {
    await client.query('begin');
    await fixTextForms(client);
    // Waits at most this long for requests of a running app to let go of the tables.
    await client.query(`set local lock_timeout = '60s'`);

    const here = await appliedMigrations(client);
    const same = here.length === header.migrations.length && here.every((m, i) => m.hash === header.migrations[i]!.hash);
    if (!same) {
      throw new BackupError(
        `Il backup è stato fatto con un'altra versione dello schema (${header.migrations.length} migrazioni nel backup, ` +
          `${here.length} in questo database, non le stesse): ripristinalo con la versione di BiciElis che l'ha creato, ` +
          'poi aggiorna.',
      );
    }
    const target = new Map((await tablesOf(client)).map((t) => [t.name, t]));
    const names = header.tables.map((t) => t.name);
    const differ =
      target.size !== header.tables.length ||
      header.tables.some((t) => {
        const mine = target.get(t.name);
        return !mine || mine.columns.join(',') !== t.columns.join(',') || mine.types.join(',') !== t.types.join(',');
      });
    if (differ) throw new BackupError('Le tabelle del backup non corrispondono a quelle di questo database.');

    // Restored rows are taken as they were: the statistics rollup, the payment transition
    // check and the notifications must not run for them (re-enabled before the commit).
    for (const n of names) await client.query(`alter table ${ident(n)} disable trigger user`);
    await client.query(`truncate ${names.map(ident).join(', ')} restart identity cascade`);

    let total = 0;
    for (const t of header.tables) {
      const marker = parseJson(await nextLine(lines), `la tabella ${t.name}`) as { table?: unknown; rows?: unknown } | null;
      if (marker?.table !== t.name || marker.rows !== t.rows) throw new BackupError(`${DAMAGED}: attesa la tabella ${t.name}`);
      const casts = target.get(t.name)!.types.map((type, i) => `(r->>${i})::${type}`).join(', ');
      const insert =
        `insert into ${ident(t.name)} (${t.columns.map(ident).join(', ')}) overriding system value ` +
        `select ${casts} from json_array_elements($1::json) r where json_array_length(r) = ${t.columns.length}`;
      let bytes = 0;
      let batch: string[] = [];
      let batchBytes = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const res = await client.query(insert, [`[${batch.join(',')}]`]);
        if (res.rowCount !== batch.length) throw new BackupError(`${DAMAGED}: righe malformate nella tabella ${t.name}`);
        batch = [];
        batchBytes = 0;
      };
      for (let i = 0; i < t.rows; i++) {
        const line = await nextLine(lines);
        if (line === undefined) throw new BackupError(`${DAMAGED}: il file è troncato (mancano righe della tabella ${t.name})`);
        if (!line.startsWith('[') || !line.endsWith(']')) throw new BackupError(`${DAMAGED}: riga malformata nella tabella ${t.name}`);
        batch.push(line);
        batchBytes += line.length;
        bytes += Buffer.byteLength(line) + 1;
        if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
      }
      await flush();
      summary.push({ table: t.name, rows: t.rows, bytes });
      total += t.rows;
    }
    const end = parseJson(await nextLine(lines), 'la riga finale') as { end?: unknown; rows?: unknown } | null;
    if (end?.end !== true || end.rows !== total) throw new BackupError(`${DAMAGED}: riga finale non valida`);
    if ((await nextLine(lines)) !== undefined) throw new BackupError(`${DAMAGED}: dati dopo la fine`);

    // Every sequence continues after the larger of its saved value and its column's maximum.
    for (const s of await ownedSequences(client)) {
      const saved = header.sequences.find((h) => h.table === s.table && h.column === s.column);
      await client.query(
        `select setval($1::regclass, v, true) from (select greatest($2::bigint, (select max(${ident(s.column)}) from ${ident(s.table)})::bigint) as v) x where v is not null`,
        [s.sequence, saved?.lastValue ?? null],
      );
    }
    for (const n of names) await client.query(`alter table ${ident(n)} enable trigger user`);
    // Sessions and users were replaced wholesale: every process's session cache starts over.
    await client.query(`select pg_notify($1, 'restore')`, [AUTH_CHANNEL]);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    await lines.return(undefined).catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  // Fresh planner statistics for the new rows (outside the transaction, not needed for correctness).
  await pool.query(`analyze ${header.tables.map((t) => ident(t.name)).join(', ')}`).catch(() => undefined);
  return {
    tables: summary,
    rows: summary.reduce((n, t) => n + t.rows, 0),
    fileBytes: stat.size,
    seconds: (performance.now() - started) / 1000,
    header,
  };
}
