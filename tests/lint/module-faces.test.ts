import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { is, SQL } from 'drizzle-orm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Each module's public face (its index.ts) is small (issue 46): at most 25 names, and no SQL
// fragment; a module that needs another's rows calls a function of the owner.
const MODULES = path.resolve('src/server/modules');
const MAX_NAMES = 25;
const faces = fs
  .readdirSync(MODULES)
  .map((m) => path.join(MODULES, m, 'index.ts'))
  .filter((f) => fs.existsSync(f));

/** Every name a file exports, types included, as TypeScript resolves its re-exports. */
export function exportedNames(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
  const checker = program.getTypeChecker();
  return new Map(
    files.map((f) => {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(f)!);
      return [f, symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []];
    }),
  );
}

/**
 * The exports that are SQL fragments (drizzle's sql``), or objects holding one (a column list
 * such as P_COLUMNS). A select shape's named column (`sql`…`.as(name)`, a Drizzle select of the
 * owner's own table) is no fragment of text to paste into another's query.
 */
export function sqlFragments(face: Record<string, unknown>): string[] {
  return Object.entries(face)
    .filter(([, v]) => is(v, SQL) || is(v, SQL.Aliased) || (v !== null && typeof v === 'object' && Object.values(v).some((x) => is(x, SQL))))
    .map(([name]) => name);
}

describe('the modules’ public faces', () => {
  const names = exportedNames(faces);

  it(`each exports at most ${MAX_NAMES} names`, () => {
    const over = [...names].filter(([, n]) => n.length > MAX_NAMES).map(([f, n]) => `${path.relative(MODULES, f)}: ${n.length}`);
    expect(over).toEqual([]);
  });

  it('none exports a SQL fragment', async () => {
    const found: string[] = [];
    for (const f of faces) for (const name of sqlFragments(await import(f))) found.push(`${path.relative(MODULES, f)}: ${name}`);
    expect(found).toEqual([]);
  });

  it('the checks fail on a face too large or holding SQL', async () => {
    const { sql } = await import('drizzle-orm');
    expect(sqlFragments({ P_COLUMNS: { stato: sql`p.stato` }, ROW: sql`p.id`, f: () => sql`1`, n: 3 })).toEqual(['P_COLUMNS', 'ROW']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-'));
    try {
      const big = path.join(dir, 'index.ts');
      fs.writeFileSync(big, Array.from({ length: MAX_NAMES + 1 }, (_, i) => `export const n${i} = ${i};`).join('\n'));
      expect(exportedNames([big]).get(big)).toHaveLength(MAX_NAMES + 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
