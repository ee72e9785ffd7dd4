import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md's table of modules says, for each server module, the tables it owns and
// the modules it imports. This test reads both from the code and fails when the map drifts.
const MODULES = path.resolve('src/server/modules');
const MAP = fs.readFileSync(path.resolve('docs/ARCHITECTURE.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

/** What the code says of each module: its tables, and the modules it imports (tables only, or more). */
function fromCode(): Map<string, { owns: string[]; imports: string[] }> {
  const result = new Map<string, { owns: string[]; imports: string[] }>();
  for (const m of fs.readdirSync(MODULES).sort()) {
    const tablesFile = path.join(MODULES, m, 'tables.ts');
    const owns = fs.existsSync(tablesFile) ? [...fs.readFileSync(tablesFile, 'utf8').matchAll(/pgTable\(\s*'([a-z_0-9]+)'/g)].map((x) => x[1]!) : [];
    const used = new Map<string, boolean>(); // module → whether only its tables are imported
    for (const file of sourceFiles(path.join(MODULES, m))) {
      for (const spec of fs.readFileSync(file, 'utf8').matchAll(/(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+'(\.[^']+)'/g)) {
        const target = path.resolve(path.dirname(file), spec[1]!);
        if (!target.startsWith(MODULES + path.sep)) continue;
        const other = path.relative(MODULES, target).split(path.sep)[0]!;
        if (other === m) continue;
        const tablesOnly = target.endsWith(`${path.sep}tables.js`);
        used.set(other, (used.get(other) ?? true) && tablesOnly);
      }
    }
    const imports = [...used].sort(([a], [b]) => a.localeCompare(b)).map(([o, tablesOnly]) => (tablesOnly ? `${o} (tables)` : o));
    result.set(m, { owns, imports });
  }
  return result;
}

/** The lines of one `## ` section of the map. */
function section(title: string): string[] {
  const lines = MAP.split('\n');
  const start = lines.indexOf(`## ${title}`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return start < 0 ? [] : lines.slice(start + 1, end < 0 ? undefined : end);
}

/** What the map says: the rows of its table of modules. */
function fromMap(): Map<string, { owns: string[]; imports: string[] }> {
  const rows = new Map<string, { owns: string[]; imports: string[] }>();
  for (const line of section('Modules and their tables')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([a-z-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!name || cells.length < 5) continue;
    const list = (cell: string) => (cell === '—' ? [] : cell.split(',').map((x) => x.trim().replace(/`/g, '')));
    rows.set(name, { owns: list(cells[2]!), imports: list(cells[3]!) });
  }
  return rows;
}

describe('docs/ARCHITECTURE.md, the table of modules', () => {
  it('lists every module of src/server/modules, and no other', () => {
    expect([...fromMap().keys()].sort()).toEqual([...fromCode().keys()].sort());
  });

  it('says, for each module, the tables it owns and the modules it imports, as the code does', () => {
    const map = fromMap();
    for (const [m, code] of fromCode()) {
      expect({ module: m, ...map.get(m) }).toEqual({ module: m, owns: code.owns, imports: code.imports });
    }
  });
});

describe('docs/ARCHITECTURE.md, what the database does by itself', () => {
  it('names each trigger file, with its table, and no other', () => {
    const files = fs.readdirSync(MODULES).flatMap((m) => {
      const dir = path.join(MODULES, m, 'triggers');
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).map((f) => `${f.slice(0, -4)} ${m}/triggers/${f}`) : [];
    });
    const rows = section('What the database does by itself').flatMap((line) => {
      const cells = line.split('|').map((c) => c.trim().replace(/`/g, ''));
      return /^[a-z_]+$/.test(cells[1] ?? '') && cells[2]?.endsWith('.sql') ? [`${cells[1]} ${cells[2]}`] : [];
    });
    expect(files.length).toBeGreaterThan(0);
    expect(rows.sort()).toEqual(files.sort());
  });

  it('stays a map: at most 200 lines', () => {
    expect(MAP.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });
});
