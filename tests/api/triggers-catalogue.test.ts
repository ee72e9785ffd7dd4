import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { readOwners } from '../../eslint-rules/structure.js';
import { migrationsFolder, projectRoot, runMigrations } from '../../src/server/db/migrate.js';
import { applyTriggerFiles, definitionsOf, triggerFiles, type TriggerFile } from '../../src/server/db/triggers.js';
import { createTestDatabase } from '../helpers/db.js';

// Each owner's triggers live in src/server/modules/<m>/triggers/<table>.sql (decision 050). The
// database after migrating holds exactly what those files define, no more and no less; a file
// writes only its module's tables unless it says whose table it writes and why.

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bicielis-triggers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every trigger (by table) and every function of `public`, those of extensions (btree_gist) left out, with its definition. */
async function catalogue(pool: pg.Pool): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ k: string; d: string }>(`
    select 'trigger ' || c.relname || '.' || t.tgname as k, pg_get_triggerdef(t.oid) as d
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and c.relnamespace = 'public'::regnamespace
    union all
    select 'function ' || p.oid::regprocedure::text, pg_get_functiondef(p.oid)
      from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend e where e.objid = p.oid and e.deptype = 'e')`);
  return new Map(rows.map((r) => [r.k, r.d]));
}

/** What the files alone make: the migrated schema with every trigger and function dropped, then the files of `root` applied. */
async function fromFiles(root = projectRoot): Promise<Map<string, string>> {
  const database = await createTestDatabase();
  try {
    await database.pool.query(`do $$ declare f regprocedure; begin
      for f in select p.oid from pg_proc p where p.pronamespace = 'public'::regnamespace
                  and not exists (select 1 from pg_depend e where e.objid = p.oid and e.deptype = 'e')
      loop execute 'drop function ' || f || ' cascade'; end loop; end $$`);
    await database.pool.query('delete from drizzle.trigger_files');
    await applyTriggerFiles(database.db, root, true);
    return await catalogue(database.pool);
  } finally {
    await database.drop();
  }
}

function differences(live: Map<string, string>, files: Map<string, string>): string[] {
  return [...new Set([...live.keys(), ...files.keys()])].sort().flatMap((k) => {
    if (!files.has(k)) return [`${k}: live, in no file`];
    if (!live.has(k)) return [`${k}: in a file, not live`];
    return live.get(k) === files.get(k) ? [] : [`${k}: live differs from its file`];
  });
}

/** The trigger DDL of the migrations after the files took over (0023): a trigger is changed in its file, not in a migration. */
function triggersInMigrations(folder: string): string[] {
  const journal = readMigrationFiles({ migrationsFolder: folder });
  const baseline = journal.findIndex((m) => m.folderMillis === 1_795_795_137_908); // 0023_languages
  return journal.slice(baseline + 1).flatMap((m) =>
    m.sql.flatMap((s) => s.match(/create\s+(?:or\s+replace\s+)?(?:constraint\s+)?(?:trigger|function|procedure)\s+\w+/gi) ?? []),
  );
}

const WRITE = /\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+"?(?:public\.)?([a-z_][a-z_0-9]*)/gi;
const DECLARED = /^--\s*writes\s+([a-z_0-9]+)\s+\(owner\s+([a-z-]+)\):\s*\S/gm;

/** The one-writer rule over a trigger file: a write to another module's table needs its line `-- writes <table> (owner <module>): <why>`. */
function refusedWrites(file: TriggerFile, owners: Record<string, string>): string[] {
  const declared = new Map([...file.text.matchAll(DECLARED)].map((m) => [m[1]!, m[2]!]));
  const written = new Set([...file.text.replace(/--[^\n]*/g, '').matchAll(WRITE)].map((m) => m[1]!.toLowerCase()));
  const refused = [...written]
    .filter((t) => owners[t] && owners[t] !== file.module && declared.get(t) !== owners[t])
    .map((t) => `${file.path} writes ${t} (owner ${owners[t]}) and does not say why`);
  for (const [t, owner] of declared) {
    if (owners[t] !== owner) refused.push(`${file.path} says ${t} is owned by ${owner}: it is ${owners[t] ?? 'no module'}'s`);
    else if (!written.has(t)) refused.push(`${file.path} says it writes ${t} and does not`);
  }
  return refused;
}

describe('each owner’s triggers, live as their files say', () => {
  it('the catalogue after migrating is the files’, both ways, body and definition', async () => {
    const database = await createTestDatabase();
    try {
      const live = await catalogue(database.pool);
      expect(differences(live, await fromFiles())).toEqual([]);
      const files = triggerFiles(projectRoot).map(definitionsOf);
      const triggers = files.reduce((n, f) => n + f.triggers.size, 0);
      expect(triggers).toBeGreaterThan(30);
      expect([...live.keys()].filter((k) => k.startsWith('trigger ')).length).toBe(triggers);
      expect([...live.keys()].filter((k) => k.startsWith('function ')).length).toBe(files.reduce((n, f) => n + f.functions.size, 0));
    } finally {
      await database.drop();
    }
  });

  it('reports a trigger added or a function changed outside the files, and a trigger gone', async () => {
    const database = await createTestDatabase();
    try {
      await database.pool.query(`
        create trigger regole_extra after update on regole for each statement execute function bicielis_rules_changed();
        create or replace function bicielis_wait_joined() returns trigger language plpgsql as $$ begin return null; end $$;
        drop trigger prenotazioni_residente on prenotazioni`);
      expect(differences(await catalogue(database.pool), await fromFiles())).toEqual([
        'function bicielis_wait_joined(): live differs from its file',
        'trigger prenotazioni.prenotazioni_residente: in a file, not live',
        'trigger regole.regole_extra: live, in no file',
      ]);
    } finally {
      await database.drop();
    }
  });

  it('a migration that makes a trigger: the catalogue reports it, and the migrations’ check refuses its DDL', async () => {
    expect(triggersInMigrations(migrationsFolder)).toEqual([]);
    const folder = path.join(tmp, 'drizzle');
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const meta = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
    const last = meta.entries.at(-1)!;
    meta.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_extra' });
    writeFileSync(journalFile, JSON.stringify(meta));
    writeFileSync(
      path.join(folder, '9999_extra.sql'),
      `CREATE TRIGGER regole_extra AFTER UPDATE ON regole FOR EACH STATEMENT EXECUTE FUNCTION bicielis_rules_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION bicielis_wait_joined() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;`,
    );
    expect(triggersInMigrations(folder)).toEqual(['CREATE TRIGGER regole_extra', 'CREATE OR REPLACE FUNCTION bicielis_wait_joined']);
    const database = await createTestDatabase();
    try {
      expect(await runMigrations(database.db, folder)).toBe(1);
      // The changed function is the file's again (every file runs after a migration); the new trigger stays, reported.
      expect(differences(await catalogue(database.pool), await fromFiles())).toEqual(['trigger regole.regole_extra: live, in no file']);
    } finally {
      await database.drop();
    }
  });

  it('a file changed runs again at the next start; what it no longer defines, or a file deleted, is dropped', async () => {
    const root = path.join(tmp, 'root');
    for (const f of triggerFiles(projectRoot)) cpSync(path.join(projectRoot, f.path), path.join(root, f.path));
    const users = path.join(root, 'src/server/modules/users/triggers/users.sql');
    const text = readFileSync(users, 'utf8');
    writeFileSync(users, text.slice(0, text.indexOf('-- A user deactivated')).replace("'u:' || NEW.id", "'u:' || NEW.id || ':'"));
    rmSync(path.join(root, 'src/server/modules/closures/triggers/chiusure.sql'));
    const database = await createTestDatabase();
    try {
      expect(await applyTriggerFiles(database.db, root, false)).toBe(1);
      const live = await catalogue(database.pool);
      expect(differences(live, await fromFiles(root))).toEqual([]);
      for (const gone of ['trigger users.users_tempo_liberato_upd', 'function bicielis_user_gone()', 'trigger chiusure.chiusure_notify', 'function bicielis_closure_changed()']) {
        expect(live.has(gone), gone).toBe(false);
      }
      expect(live.get('function bicielis_notify_user_changed()')).toContain("|| ':'");
      expect(await applyTriggerFiles(database.db, root, false)).toBe(0);
      // The project's own files again, as at a start: no migration pending, the changed ones run.
      expect(await runMigrations(database.db)).toBe(0);
      expect(differences(await catalogue(database.pool), await fromFiles())).toEqual([]);
    } finally {
      await database.drop();
    }
  });

  it('db verify’s schema (`only`): the files run on this version’s whole schema, not on an older one', async () => {
    const journal = readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis);
    const older = await createTestDatabase({ empty: true });
    const whole = await createTestDatabase({ empty: true });
    try {
      expect(await runMigrations(older.db, migrationsFolder, { only: new Set(journal.slice(0, -1)) })).toBe(journal.length - 1);
      const { rows } = await older.pool.query<{ t: string | null }>(`select to_regclass('drizzle.trigger_files')::text as t`);
      expect(rows[0]!.t).toBeNull();
      expect(await runMigrations(whole.db, migrationsFolder, { only: new Set(journal) })).toBe(journal.length);
      expect(differences(await catalogue(whole.pool), await fromFiles())).toEqual([]);
    } finally {
      await older.drop();
      await whole.drop();
    }
  });

  it('a file holds only CREATE OR REPLACE of functions and of triggers on its own table', () => {
    const file = (text: string): TriggerFile => ({ path: 'x/regole.sql', module: 'rules', table: 'regole', text });
    expect(() => definitionsOf(file('drop trigger regole_notify on regole;'))).toThrow(/neither/);
    expect(() => definitionsOf(file('create or replace trigger t after insert on chiusure for each row execute function f();'))).toThrow(/neither/);
    const ok = definitionsOf(file("-- x; y\ncreate or replace function f() returns trigger language plpgsql as $$ begin /* ; */ return null; end $$;\n" +
      'CREATE OR REPLACE TRIGGER t AFTER INSERT ON regole FOR EACH ROW EXECUTE FUNCTION f()'));
    expect([[...ok.functions.keys()], [...ok.triggers.keys()]]).toEqual([['f'], ['t']]);
  });

  it('a trigger writes its own module’s tables, or its file says whose table it writes and why', () => {
    const owners = readOwners(projectRoot, 'src/server', 'src/server/modules').tables;
    for (const f of triggerFiles(projectRoot)) {
      expect(owners[f.table], f.path).toBe(f.module);
      expect(refusedWrites(f, owners)).toEqual([]);
    }
    const file = (text: string): TriggerFile => ({ path: 'p.sql', module: 'bookings', table: 'prenotazioni', text });
    const write = 'begin UPDATE lucchetti l SET codice = NULL; INSERT INTO disponibilita_modifiche VALUES (1); end';
    expect(refusedWrites(file(write), owners)).toEqual(['p.sql writes lucchetti (owner locks) and does not say why']);
    expect(refusedWrites(file(`-- writes lucchetti (owner locks): the code shown must change\n${write}`), owners)).toEqual([]);
    expect(refusedWrites(file(`-- writes lucchetti (owner bikes): wrong owner\n${write}`), owners)).toEqual([
      'p.sql writes lucchetti (owner locks) and does not say why',
      'p.sql says lucchetti is owned by bikes: it is locks\'s',
    ]);
    expect(refusedWrites(file('-- writes codici_corsa (owner locks): stale\nselect 1'), owners)).toEqual(['p.sql says it writes codici_corsa and does not']);
  });
});
