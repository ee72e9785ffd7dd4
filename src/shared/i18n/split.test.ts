import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOMAINS } from './compiled/keys';
import { domainOfKeys, misplacedKeys, readings, readModules, ROOT_DIR } from './readers';

/** The parts of `admin` (decision 061), and the shell every admin screen loads. */
const ADMIN = DOMAINS.filter((d) => d === 'admin' || d.startsWith('admin-'));

/** The compilers' folders, removed after the file (they were left in the system's temporary folder). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Runs the compiler on folders of its own: `files` maps `domain/part/file.json` to its entries. */
function compileParts(files: Record<string, Record<string, { it: string; en: string }>>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bicielis-parti-'));
  made.push(dir);
  for (const [file, entries] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, 'messages', file)), { recursive: true });
    writeFileSync(path.join(dir, 'messages', file), JSON.stringify(entries));
  }
  const out = path.join(dir, 'compiled');
  try {
    execFileSync(process.execPath, [path.join(ROOT_DIR, 'scripts/compile-messages.mjs')], {
      env: { ...process.env, MESSAGES_SOURCE: path.join(dir, 'messages'), MESSAGES_OUT: out },
      stdio: 'pipe',
      encoding: 'utf8',
    });
    return { code: 0, out, output: '' };
  } catch (error) {
    return { code: (error as { status: number }).status, out, output: (error as { stderr: string }).stderr };
  }
}

describe('the compiler\'s parts (decision 061)', () => {
  it('compiles a folder of a domain into a part of its own, in each language, listed with the domains', () => {
    const { code, out } = compileParts({
      'admin/shell.json': { 'shell.title': { it: 'Gestione', en: 'Management' } },
      'admin/biciclette/tab.json': { 'tab.title': { it: 'Biciclette', en: 'Bikes' } },
    });
    expect(code).toBe(0);
    expect(readFileSync(path.join(out, 'admin-biciclette.en.ts'), 'utf8')).toContain('Bikes');
    expect(readFileSync(path.join(out, 'admin-biciclette.it.ts'), 'utf8')).not.toContain('Gestione');
    expect(readFileSync(path.join(out, 'admin.it.ts'), 'utf8')).not.toContain('Biciclette');
    expect(readFileSync(path.join(out, 'keys.ts'), 'utf8')).toContain('"admin-biciclette"');
    expect(readFileSync(path.join(out, 'loaders.ts'), 'utf8')).toContain(`'admin-biciclette.it': () => import('./admin-biciclette.it')`);
    expect(readFileSync(path.join(out, 'catalogues.ts'), 'utf8')).toContain('admin_biciclette_en');
  });

  it('refuses a part with a name that is not lower-case letters and digits, and a key repeated across parts', () => {
    const badName = compileParts({ 'admin/Bici_Tab/tab.json': { 'tab.title': { it: 'Biciclette', en: 'Bikes' } } });
    expect(badName.code).toBe(1);
    expect(badName.output).toContain('admin/Bici_Tab: nome di parte non valido');
    const repeated = compileParts({
      'admin/shell.json': { 'tab.title': { it: 'Biciclette', en: 'Bikes' } },
      'admin/biciclette/tab.json': { 'tab.title': { it: 'Biciclette', en: 'Bikes' } },
    });
    expect(repeated.code).toBe(1);
    expect(repeated.output).toContain('"tab.title" ripetuta');
  });
});

describe('the catalogue split the way the code is (decision 061)', () => {
  it('gives each of /admin\'s tabs, the workshop, the statistics, the reports and the sedi a part of its own', () => {
    expect(ADMIN.slice().sort()).toEqual(
      ['admin', 'admin-biciclette', 'admin-doc', 'admin-officina', 'admin-registro', 'admin-regole', 'admin-sedi', 'admin-statistiche', 'admin-utenti'].sort(),
    );
  });

  it('loads each part with the chunk that reads it: every admin key a module reads is in a domain its loader loads', () => {
    // Only the keys of `admin` and its parts: they are what the split moved. A key left in a
    // part its screen does not load would show as the key itself.
    const wrong = misplacedKeys().filter((line) => / \((admin(-[a-z]+)?)\) — /.test(line) && !line.includes('src/web/boot/main.tsx'));
    expect(wrong).toEqual([]);
  });

  it('reads the loaders from the code: /admin\'s shell does not load its tabs\' parts, each tab loads its own', () => {
    const modules = readModules(new Set(domainOfKeys().keys()));
    const byRoot = new Map(readings(modules).map((r) => [r.root, r.domains]));
    const admin = byRoot.get('src/web/features/admin/admin-page.tsx');
    expect(admin).toBeDefined();
    for (const tab of ['admin-biciclette', 'admin-utenti', 'admin-regole', 'admin-registro']) expect(admin).not.toContain(tab);
    expect(byRoot.get('src/web/features/admin/bikes-tab.tsx')).toContain('admin-biciclette');
    expect(byRoot.get('src/web/features/admin/audit-tab.tsx')).toContain('admin-registro');
    // The workshop's screen: its tickets, not the whole of /admin's texts.
    expect(byRoot.get('src/web/features/officina/officina-page.tsx')).not.toContain('admin');
  });

  it('notices a key moved to a part its screen does not load', () => {
    // The checker itself: a module of /admin's shell reading a key of the bikes' tab.
    const modules = readModules(new Set(domainOfKeys().keys()));
    const shell = modules.get('src/web/features/admin/admin-page.tsx')!;
    const domainOf = domainOfKeys();
    const bikesKey = [...domainOf].find(([, d]) => d === 'admin-biciclette')![0];
    const reading = readings(modules).find((r) => r.root === shell.file)!;
    expect(reading.domains.includes(domainOf.get(bikesKey)!)).toBe(false);
  });
});

// /admin as built (its first download's catalogue, each tab's chunk): scripts/check-bundle-budget.mjs, after the build.
