import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { serverLayers } from '../../eslint.config.js';
import structure from '../../eslint-rules/structure.js';

// The layers rule (eslint-rules/structure.js) fails on a deliberate violation and passes the
// same code written the allowed way (table-owner: table-owner-rule.test.ts). Files are virtual: paths only matter for the
// layer and module each one falls in.
const root = path.resolve('/virtual/bicielis');
// The project's own layers and exceptions (eslint.config.js).
const { layers } = serverLayers;

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
