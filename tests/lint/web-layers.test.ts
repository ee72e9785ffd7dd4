import path from 'node:path';
import boundaries from 'eslint-plugin-boundaries';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { webBoundaries, webLayers } from '../../eslint.config.js';

// The web app's layers (eslint.config.js `webLayers`, eslint-plugin-boundaries) fail on a
// deliberate breach and pass the same import written the allowed way. The code is a sample;
// the file it is linted as, and the files it imports, are the repository's own.
const root = path.resolve('.');
const { settings, options } = webBoundaries(webLayers, root);

function lint(file: string, code: string) {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' },
        plugins: { boundaries },
        settings,
        rules: { 'boundaries/dependencies': ['error', options], 'boundaries/no-unknown-files': 'error' },
      },
    ],
    { filename: path.join(root, file) },
  );
  return messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('web layers', () => {
  it("refuses a feature importing another feature's inside, and accepts its face", () => {
    const inside = lint('src/web/features/admin/desk-booking-form.tsx', "import { useBookingWindow } from '../dashboard/use-booking-window';\n");
    expect(inside).toHaveLength(1);
    expect(inside[0]).toMatch(/boundaries\/dependencies: .*may not import src\/web\/features\/dashboard\/use-booking-window\.ts/);
    expect(lint('src/web/features/admin/desk-booking-form.tsx', "import { useBookingWindow } from '../dashboard';\n")).toEqual([]);
    // A screen is a face too: loaded on demand, a chunk of its own.
    expect(lint('src/web/features/bike/bike-page.tsx', "const page = import('../dashboard/dashboard-page');\n")).toEqual([]);
    // Inside its own feature, a file imports any other.
    expect(lint('src/web/features/dashboard/booking-form.tsx', "import { useBookingWindow } from './use-booking-window';\n")).toEqual([]);
  });

  it('refuses an import from a higher layer', () => {
    const component = lint('src/web/lib/utils.ts', "import { Button } from '../components/ui/button';\n");
    expect(component).toHaveLength(1);
    expect(component[0]).toMatch(/src\/web\/lib\/utils\.ts \(lib\) may not import src\/web\/components\/ui\/button\.tsx/);
    expect(lint('src/web/components/language-switch.tsx', "import { AppRoutes } from '../routes';\n")).toHaveLength(1);
    expect(lint('src/web/offline/queue.ts', "import { useWaits } from '../features/waitlist';\n")).toHaveLength(1);
    // Down the layers, and within one, is the way.
    expect(lint('src/web/components/language-switch.tsx', "import { firstScreen } from '../lib/guards';\nimport { Button } from './ui/button';\n")).toEqual([]);
  });

  it('lets an arrow up through only where allow names it, and only as a lazy import()', () => {
    expect(lint('src/web/lib/session.ts', "const fallback = () => import('../offline/session-fallback');\n")).toEqual([]);
    expect(lint('src/web/lib/session.ts', "import { rememberConfirmedUser } from '../offline/session-fallback';\n")).toHaveLength(1);
    expect(lint('src/web/lib/i18n.ts', "const fallback = () => import('../offline/session-fallback');\n")).toHaveLength(1);
  });

  it('refuses a file in no layer', () => {
    expect(lint('src/web/stray.ts', 'export const x = 1;\n')).toEqual(['boundaries/no-unknown-files: File does not match any file pattern and does not belong to any known element']);
  });
});
