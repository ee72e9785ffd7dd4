import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { serverLayers } from '../../eslint.config.js';
import structure from '../../eslint-rules/structure.js';

// The structure's lint rules (eslint-rules/structure.js) fail on a deliberate violation and
// pass the same code written the allowed way. Files are virtual: paths only matter for the
// layer and module each one falls in.
const root = path.resolve('/virtual/bicielis');
// The project's own layers and exceptions (eslint.config.js), owners as the modules' tables.ts say.
const { layers } = serverLayers;
const owners = { prenotazioni: 'bookings', pagamenti: 'payments', users: 'users' };

function lint(file: string, code: string, allow = serverLayers.allow) {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' },
        plugins: { structure },
        rules: {
          'structure/layers': ['error', { root, layers, allow }],
          'structure/table-owner': ['error', { root, owners }],
        },
      },
    ],
    { filename: path.join(root, file) },
  );
  return messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('structure/layers', () => {
  it('refuses a module reaching into another module, and accepts its index', () => {
    const bad = lint('src/server/modules/waitlist/service.ts', "import { insertBooking } from '../bookings/service.js';\n");
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/structure\/layers: .*inside the module 'bookings'.*index\.ts/);
    expect(lint('src/server/modules/waitlist/service.ts', "import { insertBooking } from '../bookings/index.js';\n")).toEqual([]);
  });

  it("lets a module read another module's tables, and nothing else of it", () => {
    expect(lint('src/server/modules/admin/lists.ts', "import { prenotazioni } from '../bookings/tables.js';\n")).toEqual([]);
    expect(lint('src/server/modules/admin/lists.ts', "import { MSG } from '../bookings/emails.js';\n")[0]).toMatch(/inside the module 'bookings'/);
    // Without the project's exception, a table is an internal like any other.
    expect(lint('src/server/modules/admin/lists.ts', "import { prenotazioni } from '../bookings/tables.js';\n", [])[0]).toMatch(/inside the module 'bookings'/);
    // Below the modules, no table of theirs: the db layer lists them for drizzle-kit only.
    expect(lint('src/server/db/backup.ts', "import { prenotazioni } from '../modules/bookings/tables.js';\n")[0]).toMatch(/inside the module 'bookings'/);
  });

  it('refuses an import from a higher layer unless it is named in allow', () => {
    const up = lint('src/server/http/auth.ts', "import { findSession } from '../modules/auth/index.js';\n");
    expect(up).toHaveLength(1);
    expect(up[0]).toMatch(/\(infrastructure\) imports 'src\/server\/modules\/auth\/index\.ts' \(modules\), a higher layer/);
    const allowed = lint('src/server/http/auth.ts', "import { findSession } from '../modules/auth/index.js';\n", [
      { from: 'src/server/http/auth.ts', to: 'src/server/modules/auth/index.ts', why: 'test' },
    ]);
    expect(allowed).toEqual([]);
    expect(lint('src/server/modules/auth/routes.ts', "import { AppError } from '../../http/errors.js';\n")).toEqual([]);
  });
});

describe('structure/table-owner', () => {
  it("refuses a Drizzle write to another module's table, and accepts its own", () => {
    const code = "import { prenotazioni } from '../bookings/tables.js';\nexport const f = (db: any) => db.update(prenotazioni).set({});\n";
    const bad = lint('src/server/modules/waitlist/service.ts', code).filter((m) => m.startsWith('structure/table-owner'));
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/'prenotazioni' is not a table of the module 'waitlist'/);
    const own = "import { prenotazioni } from './tables.js';\nexport const f = (db: any) => db.update(prenotazioni).set({});\n";
    expect(lint('src/server/modules/bookings/service.ts', own)).toEqual([]);
    // Read through the owner's face, a table is still not the reader's to write.
    const viaFace = "import { users } from '../users/index.js';\nexport const f = (db: any) => db.delete(users);\n";
    expect(lint('src/server/modules/privacy/erase.ts', viaFace)[0]).toMatch(/'users' is not a table of the module 'privacy'/);
    const viaSchema = "import { pagamenti } from '../../schema.js';\nexport const f = (db: any) => db.insert(pagamenti);\n";
    expect(lint('src/server/modules/bookings/service.ts', viaSchema).filter((m) => m.startsWith('structure/table-owner'))[0]).toMatch(
      /'pagamenti' is not a table of the module 'bookings'/,
    );
  });

  it("refuses SQL that writes another module's table, and lets reads join it", () => {
    const write = "declare const sql: any;\nexport const q = sql`update pagamenti set status = 'failed' where id = ${1}`;\n";
    const bad = lint('src/server/modules/bookings/lifecycle.ts', write);
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/writes the table 'pagamenti' \(update\), owned by the module 'payments'/);
    expect(lint('src/server/modules/payments/settle.ts', write)).toEqual([]);
    const read = "declare const sql: any;\nexport const q = sql`select 1 from pagamenti pay join prenotazioni p on p.id = pay.prenotazione_id for update of p`;\n";
    expect(lint('src/server/modules/bookings/lifecycle.ts', read)).toEqual([]);
    const interpolated =
      "import { users } from '../users/tables.js';\ndeclare const sql: any;\nexport const q = sql`delete from ${users} where id = 1`;\n";
    expect(lint('src/server/modules/privacy/erase.ts', interpolated).filter((m) => m.startsWith('structure/table-owner'))[0]).toMatch(
      /'users' is not a table of the module 'privacy'/,
    );
  });
});
