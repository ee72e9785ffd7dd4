import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { tableWriters } from '../../eslint.config.js';
import structure from '../../eslint-rules/structure.js';

// structure/table-owner (eslint-rules/structure.js) over the whole server: each sample breach
// fails, and the same write from the table's owner passes. Files are virtual: only their paths
// matter (the module or folder each one falls in).
const root = path.resolve('/virtual/bicielis');
const owners = { prenotazioni: 'bookings', pagamenti: 'payments', users: 'users', job_runs: 'src/server/jobs', attese: 'waitlist' };

function lint(file: string, code: string, options: object = {}) {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' },
        plugins: { structure },
        rules: { 'structure/table-owner': ['error', { root, owners, ...options }] },
      },
    ],
    { filename: path.join(root, file) },
  );
  return messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const writes = (table: string, verb: string, owner: string) => new RegExp(`writes the table '${table}' \\(${verb}\\), owned by '${owner}'`);

describe('structure/table-owner: Drizzle writes', () => {
  it("refuses a write to another module's table, however the table is named, and accepts the owner's", () => {
    const update = "import { prenotazioni } from '../bookings/tables.js';\nexport const f = (db: any) => db.update(prenotazioni).set({});\n";
    expect(lint('src/server/modules/waitlist/service.ts', update)).toEqual([expect.stringMatching(writes('prenotazioni', 'update', 'bookings'))]);
    expect(lint('src/server/modules/bookings/service.ts', update.replace('../bookings/tables.js', './tables.js'))).toEqual([]);
    // Through a namespace, the schema's list, an alias, a local const, a transaction.
    const viaSchema = "import * as schema from '../../schema.js';\nexport const f = (db: any) => db.update(schema.users).set({});\n";
    expect(lint('src/server/modules/privacy/erase.ts', viaSchema)).toEqual([expect.stringMatching(writes('users', 'update', 'users'))]);
    const alias = "import { users as usersTable } from '../users/index.js';\nexport const f = (tx: any) => tx.insert(usersTable).values({});\n";
    expect(lint('src/server/modules/admin/users.ts', alias)).toEqual([expect.stringMatching(writes('users', 'insert', 'users'))]);
    const local = "import { pagamenti } from '../../schema.js';\nconst t = pagamenti;\nexport const f = (db: any) => db.delete(t);\n";
    expect(lint('src/server/modules/bookings/lifecycle.ts', local)).toEqual([expect.stringMatching(writes('pagamenti', 'delete', 'payments'))]);
    const member = "export const f = (db: any, t: any) => db.insert(t.users).values({});\n";
    expect(lint('src/server/modules/auth/service.ts', member)).toEqual([expect.stringMatching(writes('users', 'insert', 'users'))]);
  });

  it('covers every file of the server: a write from the seed or the CLI is refused, a read is not', () => {
    const seed = "import { users } from '../schema.js';\nexport const ensureAdmin = (db: any) => db.insert(users).values({ email: 'a@b.c' });\n";
    expect(lint('src/server/seed/seed.ts', seed)).toEqual([expect.stringMatching(writes('users', 'insert', 'users'))]);
    expect(lint('src/server/cli.ts', seed.replace('../schema.js', './modules/users/tables.js'))).toHaveLength(1);
    expect(lint('src/server/seed/seed.ts', "import { users } from '../schema.js';\nexport const f = (db: any) => db.select().from(users);\n")).toEqual([]);
  });
});

describe('structure/table-owner: SQL text', () => {
  it('refuses SQL writing a table of another owner in a template, a raw string or a plain string', () => {
    const tagged = "declare const sql: any;\nexport const q = sql`update pagamenti set status = 'failed' where id = ${1}`;\n";
    expect(lint('src/server/modules/bookings/lifecycle.ts', tagged)).toEqual([expect.stringMatching(writes('pagamenti', 'update', 'payments'))]);
    expect(lint('src/server/modules/payments/settle.ts', tagged)).toEqual([]);
    const raw = "declare const sql: any;\nexport const q = sql.raw('insert into users (email) values ($1)');\n";
    expect(lint('src/server/seed/seed.ts', raw)).toEqual([expect.stringMatching(writes('users', 'insert into', 'users'))]);
    const plain = "export const f = (pool: any) => pool.query('DELETE FROM attese where user_id = $1', [1]);\n";
    expect(lint('src/server/cli.ts', plain)).toEqual([expect.stringMatching(writes('attese', 'delete from', 'waitlist'))]);
    const untagged = 'export const q = (id: number) => `update prenotazioni set stato = $1 where id = ${id}`;\n';
    expect(lint('src/server/db/backup.ts', untagged)).toEqual([expect.stringMatching(writes('prenotazioni', 'update', 'bookings'))]);
    const interpolated = "import { users } from '../users/tables.js';\ndeclare const sql: any;\nexport const q = sql`delete from ${users} where id = 1`;\n";
    expect(lint('src/server/modules/privacy/erase.ts', interpolated)).toEqual([expect.stringMatching(writes('users', 'delete from', 'users'))]);
    // Reads join across owners.
    const read = "declare const sql: any;\nexport const q = sql`select 1 from pagamenti pay join prenotazioni p on p.id = pay.prenotazione_id for update of p`;\n";
    expect(lint('src/server/modules/bookings/lifecycle.ts', read)).toEqual([]);
  });

  it('lets a folder outside the modules write the tables of its own tables.ts, and nobody else', () => {
    const runs = "export const f = (pool: any) => pool.query('update job_runs set finished_at = now()');\n";
    expect(lint('src/server/jobs/scheduler.ts', runs)).toEqual([]);
    expect(lint('src/server/modules/system/readiness.ts', runs)).toEqual([expect.stringMatching(writes('job_runs', 'update', 'src/server/jobs'))]);
  });

  it("accepts a write only where the config's exceptions name the file and the table, with the reason", () => {
    const waits = "declare const sql: any;\nexport const q = sql`insert into attese (user_id) values (1)`;\n";
    expect(lint('src/server/seed/seed-history.ts', waits)).toHaveLength(1);
    expect(lint('src/server/seed/seed-history.ts', waits, tableWriters)).toEqual([]);
    expect(lint('src/server/seed/seed.ts', waits, tableWriters)).toHaveLength(1);
    const users = "declare const sql: any;\nexport const q = sql`insert into users (email) values ('a')`;\n";
    expect(lint('src/server/seed/seed-history.ts', users, tableWriters)).toHaveLength(1);
    for (const e of tableWriters.exceptions) expect(e.why.length).toBeGreaterThan(20);
  });
});
