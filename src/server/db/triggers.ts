import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * Each owner's triggers (decision 050): `src/server/modules/<module>/triggers/<table>.sql`, the
 * live definition of the table's triggers and their functions, applied by runMigrations.
 */
export interface TriggerFile {
  /** From the project's root, with forward slashes. */
  path: string;
  module: string;
  table: string;
  text: string;
}

export function triggerFiles(root: string): TriggerFile[] {
  const modules = path.join(root, 'src', 'server', 'modules');
  return readdirSync(modules).sort().flatMap((module) => {
    const dir = path.join(modules, module, 'triggers');
    if (!existsSync(dir)) return [];
    return readdirSync(dir).filter((f) => f.endsWith('.sql')).sort().map((f) => ({
      path: `src/server/modules/${module}/triggers/${f}`,
      module,
      table: f.slice(0, -'.sql'.length),
      text: readFileSync(path.join(dir, f), 'utf8'),
    }));
  });
}

/** What a statement is made of, to split at the semicolons outside quotes, dollar quotes and comments. */
const PARTS = /\$(\w*)\$[\s\S]*?\$\1\$|'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\/|;/g;
const FUNCTION = /^create\s+or\s+replace\s+function\s+(?:public\.)?(\w+)\s*\(/i;
const TRIGGER = /^create\s+or\s+replace\s+trigger\s+(\w+)\s[\s\S]*?\son\s+(?:public\.)?(\w+)\s/i;

/** A file's functions and triggers by name, each with its statement (its leading comments left out). */
export function definitionsOf(file: TriggerFile): { functions: Map<string, string>; triggers: Map<string, string> } {
  const statements: string[] = [];
  let start = 0;
  for (const m of [...file.text.matchAll(PARTS), { 0: ';', index: file.text.length }]) {
    if (m[0] !== ';') continue;
    const statement = file.text.slice(start, m.index).replace(/^(?:\s|--[^\n]*)*/, '');
    if (statement) statements.push(statement);
    start = m.index + 1;
  }
  const functions = new Map<string, string>();
  const triggers = new Map<string, string>();
  for (const statement of statements) {
    const fn = FUNCTION.exec(statement);
    const trigger = TRIGGER.exec(statement);
    if (fn) functions.set(fn[1]!.toLowerCase(), statement);
    else if (trigger?.[2]!.toLowerCase() === file.table) triggers.set(trigger[1]!.toLowerCase(), statement);
    else throw new Error(`${file.path}: neither CREATE OR REPLACE FUNCTION nor CREATE OR REPLACE TRIGGER on ${file.table}: ${statement.slice(0, 80)}`);
  }
  return { functions, triggers };
}

type Applied = {
  path: string;
  hash: string;
  functions: string[];
  /** `table.trigger` */
  triggers: string[];
};

/**
 * Runs the trigger files that changed since they were last applied (all of them when `all`: a
 * migration may have dropped a table with its triggers), functions first, since a trigger may
 * call another file's function; then drops what a file defined when last applied and no file
 * defines now. A trigger or function made elsewhere (a migration) is left for the catalogue's
 * test to report. Returns how many files ran.
 */
export async function applyTriggerFiles(tx: Db, root: string, all: boolean): Promise<number> {
  await tx.execute(sql`create table if not exists drizzle.trigger_files
    (path text primary key, hash text not null, functions text[] not null, triggers text[] not null)`);
  const applied = (await tx.execute<Applied>(sql`select * from drizzle.trigger_files`)).rows;
  const files = triggerFiles(root).map((f) => {
    const { functions, triggers } = definitionsOf(f);
    const hash = createHash('sha256').update(f.text).digest('hex');
    return { path: f.path, hash, functions, triggers, names: { functions: [...functions.keys()], triggers: [...triggers.keys()].map((t) => `${f.table}.${t}`) } };
  });
  const changed = files.filter((f) => all || !applied.some((r) => r.path === f.path && r.hash === f.hash));
  const before = applied.filter((r) => !files.some((f) => f.path === r.path && f.hash === r.hash));
  if (changed.length === 0 && before.length === 0) return 0;
  for (const f of changed) for (const statement of f.functions.values()) await tx.execute(sql.raw(statement));
  for (const f of changed) for (const statement of f.triggers.values()) await tx.execute(sql.raw(statement));

  const functions = new Set(files.flatMap((f) => f.names.functions));
  const triggers = new Set(files.flatMap((f) => f.names.triggers));
  for (const t of new Set(before.flatMap((r) => r.triggers).filter((t) => !triggers.has(t)))) {
    const [table, name] = t.split('.') as [string, string];
    await tx.execute(sql`drop trigger if exists ${sql.identifier(name)} on ${sql.identifier(table)}`);
  }
  for (const fn of new Set(before.flatMap((r) => r.functions).filter((fn) => !functions.has(fn)))) {
    await tx.execute(sql`drop function if exists ${sql.identifier(fn)}`);
  }
  await tx.execute(sql`delete from drizzle.trigger_files`);
  for (const f of files) {
    await tx.execute(sql`insert into drizzle.trigger_files values (${f.path}, ${f.hash}, ${sql.param(f.names.functions)}, ${sql.param(f.names.triggers)})`);
  }
  return changed.length;
}
