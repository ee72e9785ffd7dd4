/**
 * Who reads which messages (decision 061): the web app's modules as a graph of imports, and
 * the screens' and tabs' text loaders (`withTexts(import('…'), 'domain', …)`, web/lib/i18n.ts)
 * read from the code itself. From each loader, the modules its chunk brings (static imports,
 * and the dynamic ones that are no loader of their own) may read the keys of its domains and
 * of `common` (loaded before the first render, boot/main.tsx); the entry, `common` only. Used
 * by split.test.ts, so that a key placed in a part its screen does not load fails a test
 * instead of showing as a key. Node only (reads the sources).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT_DIR = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT_DIR, 'src');
const MESSAGES = path.join(ROOT_DIR, 'src/shared/i18n/messages');
/** The browser's entry: `common` is loaded before its first render. */
export const ENTRY = 'src/web/boot/main.tsx';

/** Every message's key and the domain (`admin`, or a part: `admin-biciclette`) it is compiled into. */
export function domainOfKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  const read = (dir: string, domain: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) read(file, `${domain}-${entry}`);
      else if (entry.endsWith('.json')) for (const key of Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)) keys.set(key, domain);
    }
  };
  for (const domain of readdirSync(MESSAGES)) read(path.join(MESSAGES, domain), domain);
  return keys;
}

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) {
      if (entry !== 'compiled' && entry !== 'messages') sourceFiles(file, found);
    } else if (/\.tsx?$/.test(entry) && !/\.(test|spec)\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) found.push(file);
  }
  return found;
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

export interface Module {
  file: string;
  /** Imports of values (not `import type`), and re-exports. */
  imports: string[];
  /** `import('…')` */
  dynamic: string[];
  /** Text loaders: a dynamic import with the domains loaded with it. */
  loaders: { file: string; domains: string[] }[];
  /** Keys named as literals, and the prefixes of keys made at run time (`` `staffArea.${name}` ``). */
  keys: string[];
  prefixes: string[];
}

export function readModules(known: ReadonlySet<string>): Map<string, Module> {
  const modules = new Map<string, Module>();
  for (const file of [...sourceFiles(path.join(SRC, 'web')), ...sourceFiles(path.join(SRC, 'shared'))]) {
    const code = readFileSync(file, 'utf8');
    const rel = path.relative(ROOT_DIR, file);
    const imports: string[] = [];
    for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      if (m[2]) continue;
      const to = resolveImport(file, m[4]!);
      if (to) imports.push(path.relative(ROOT_DIR, to));
    }
    const dynamic = [...code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => resolveImport(file, m[1]!)).filter((f) => f !== undefined).map((f) => path.relative(ROOT_DIR, f));
    const loaders = [...code.matchAll(/withTexts\(\s*import\(\s*['"]([^'"]+)['"]\s*\)((?:\s*,\s*['"][^'"]+['"])*)\s*\)/g)].map((m) => ({
      file: path.relative(ROOT_DIR, resolveImport(file, m[1]!) ?? m[1]!),
      domains: [...m[2]!.matchAll(/['"]([^'"]+)['"]/g)].map((d) => d[1]!),
    }));
    const keys = [...new Set([...code.matchAll(/['"`]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)['"`]/g)].map((m) => m[1]!).filter((k) => known.has(k)))];
    const prefixes = [...new Set([...code.matchAll(/`([a-z][A-Za-z0-9]*\.)\$\{/g)].map((m) => m[1]!))];
    modules.set(rel, { file: rel, imports, dynamic, loaders, keys, prefixes });
  }
  return modules;
}

export interface Reading {
  /** The loader's module (or the entry). */
  root: string;
  domains: string[];
  /** The modules its chunk brings. */
  files: string[];
}

/** Each text loader (and the entry) with the modules it brings; a module reached by another loader is that loader's. */
export function readings(modules: Map<string, Module>): Reading[] {
  const roots = new Map<string, Set<string>>([[ENTRY, new Set(['common'])]]);
  for (const m of modules.values())
    for (const l of m.loaders) {
      const set = roots.get(l.file) ?? new Set<string>();
      // The same module loaded by two loaders: it may read only what both load.
      roots.set(l.file, roots.has(l.file) ? new Set(l.domains.filter((d) => set.has(d))) : new Set(l.domains));
    }
  const read = [...roots].map(([root, domains]) => {
    const seen = new Set<string>();
    const visit = (file: string, top: boolean) => {
      const m = modules.get(file);
      if (!m || seen.has(file) || (!top && roots.has(file))) return;
      seen.add(file);
      for (const next of [...m.imports, ...m.dynamic]) visit(next, false);
    };
    visit(root, true);
    // The loaders its chunk holds: theirs load after it, with its domains in.
    const children = [...seen].flatMap((f) => modules.get(f)!.dynamic.filter((d) => d !== root && roots.has(d)));
    return { root, own: ['common', ...domains], children, files: [...seen].sort() };
  });
  // A loader's domains: its own and those every loader holding it has loaded (the entry's `common` at least).
  const domains = new Map(read.map((r) => [r.root, new Set(r.own)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of read) {
      const parents = read.filter((p) => p.children.includes(r.root));
      const inherited = parents.map((p) => domains.get(p.root)!).reduce<Set<string> | undefined>((a, b) => (a ? new Set([...a].filter((d) => b.has(d))) : new Set(b)), undefined);
      const next = new Set([...r.own, ...(inherited ?? [])]);
      if (next.size !== domains.get(r.root)!.size) {
        domains.set(r.root, next);
        changed = true;
      }
    }
  }
  return read.map((r) => ({ root: r.root, domains: [...domains.get(r.root)!].sort(), files: r.files }));
}

/** Keys a module reads that its loader does not load: `file: key (domain) — loader [domains]`. */
export function misplacedKeys(): string[] {
  const domainOf = domainOfKeys();
  const modules = readModules(new Set(domainOf.keys()));
  const wrong: string[] = [];
  for (const r of readings(modules)) {
    for (const file of r.files) {
      const m = modules.get(file)!;
      const keys = [...m.keys, ...[...domainOf.keys()].filter((k) => m.prefixes.some((p) => k.startsWith(p)))];
      for (const key of keys) {
        const domain = domainOf.get(key)!;
        if (!r.domains.includes(domain)) wrong.push(`${file}: ${key} (${domain}) — ${r.root} [${r.domains.join(', ')}]`);
      }
    }
  }
  return [...new Set(wrong)];
}
