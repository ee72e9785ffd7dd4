// BiciElis's structure, held by lint (issue 31, decision 036). Two rules:
//
// - `layers`: a file imports only from its own layer or the layers below it (the order is the
//   config's `layers`, lowest first), and another module only through that module's `index.ts`.
//   The few justified exceptions are named in the config (`allow`), each with its reason, and
//   listed in docs/ARCHITECTURE.md.
// - `table-owner`: a table is written only by its owner. Owners are read from every `tables.ts`
//   under src/server (a module's tables are the module's; http/, jobs/, integrations/ own theirs);
//   any other file (the seed, the CLI, the app) owns none. A write is a Drizzle `.insert(t)`,
//   `.update(t)` or `.delete(t)` of anything naming a table (`users`, `schema.users`, an alias),
//   or `insert into` / `update` / `delete from` in any string or template. Reads may join
//   across owners; writes may not, except as the config's `exceptions` say, with their reason.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(ts|tsx|js|mjs)$/;

/** The absolute path an import names, `.js` written for a `.ts` file resolved; null for a package. */
function resolveImport(fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((c) => SOURCE.test(c) && fs.existsSync(c)) ?? base.replace(/\.js$/, '.ts');
}

function rel(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

/** `**` any path, `*` any name, `{a,b}` either. */
function globToRegExp(glob) {
  const re = glob
    .split('**')
    .map((part) =>
      part
        .replace(/[.+^$()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\{([^}]*)\}/g, (_, alternatives) => `(${alternatives.split(',').join('|')})`),
    )
    .join('.*');
  return new RegExp(`^${re}$`);
}

function layerOf(layers, file) {
  for (let i = 0; i < layers.length; i++) {
    if (layers[i].files.some((g) => globToRegExp(g).test(file))) return i;
  }
  return -1;
}

/** `src/server/modules/<name>/...` → name; else null. */
function moduleOf(modulesDir, file) {
  const prefix = `${modulesDir}/`;
  if (!file.startsWith(prefix)) return null;
  const rest = file.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? null : rest.slice(0, slash);
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layers, and into another module only through its index.ts' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          modulesDir: { type: 'string' },
          layers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, files: { type: 'array', items: { type: 'string' } } } } },
          allow: {
            type: 'array',
            items: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' }, why: { type: 'string' } } },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      up: "'{{from}}' ({{fromLayer}}) imports '{{to}}' ({{toLayer}}), a higher layer: pass the dependency down instead, or move the code (docs/ARCHITECTURE.md).",
      internal: "'{{from}}' imports '{{to}}', inside the module '{{module}}': import that module only through its index.ts.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const root = options.root ?? context.cwd;
    const modulesDir = options.modulesDir ?? 'src/server/modules';
    const order = options.layers ?? [];
    const allow = options.allow ?? [];
    const file = rel(root, context.filename);
    const fromLayer = layerOf(order, file);
    const fromModule = moduleOf(modulesDir, file);
    const allowed = (to) => allow.some((a) => globToRegExp(a.from).test(file) && globToRegExp(a.to).test(to));

    function check(node, spec) {
      if (typeof spec !== 'string') return;
      const target = resolveImport(context.filename, spec);
      if (!target) return;
      const to = rel(root, target);
      if (allowed(to)) return;
      const toModule = moduleOf(modulesDir, to);
      if (toModule && toModule !== fromModule && !/^index\.tsx?$/.test(to.slice(`${modulesDir}/${toModule}/`.length))) {
        context.report({ node, messageId: 'internal', data: { from: file, to, module: toModule } });
        return;
      }
      const toLayer = layerOf(order, to);
      if (fromLayer >= 0 && toLayer > fromLayer) {
        context.report({ node, messageId: 'up', data: { from: file, to, fromLayer: order[fromLayer].name, toLayer: order[toLayer].name } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

const ownersCache = new Map();

/** Every `tables.ts` under `dir`, recursively. */
function tableFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tableFiles(path.join(dir, e.name)) : e.name === 'tables.ts' ? [path.join(dir, e.name)] : [],
  );
}

/**
 * Who owns each table, from every `tables.ts` under `serverDir`: a module's tables belong to the
 * module (its name), the others' to their folder (`src/server/http`, say). `tables` maps
 * table → owner, `names` the TypeScript name of each table → its table.
 */
export function readOwners(root, serverDir, modulesDir) {
  const key = `${root}|${serverDir}|${modulesDir}`;
  if (ownersCache.has(key)) return ownersCache.get(key);
  const owners = { tables: {}, names: {} };
  for (const file of tableFiles(path.join(root, serverDir))) {
    const folder = rel(root, path.dirname(file));
    const owner = moduleOf(modulesDir, `${folder}/tables.ts`) ?? folder;
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:const\s+(\w+)\s*=\s*)?pgTable\(\s*['"]([a-z_0-9]+)['"]/g)) {
      owners.tables[m[2]] = owner;
      if (m[1]) owners.names[m[1]] = m[2];
    }
  }
  ownersCache.set(key, owners);
  return owners;
}

/** The owner a file writes as: its module, or the folder of a `tables.ts` it lies under; null for none. */
function writerOf(file, modulesDir, ownerFolders) {
  return moduleOf(modulesDir, file) ?? ownerFolders.find((f) => file.startsWith(`${f}/`)) ?? null;
}

const WRITE_IN_SQL = /\b(insert\s+into|update|delete\s+from)\s+(?:public\.)?"?([a-z_][a-z_0-9]*)"?/gi;
const VERB_BEFORE = /(insert\s+into|update|delete\s+from)\s*"?$/i;

const tableOwner = {
  meta: {
    type: 'problem',
    docs: { description: "A table is written only by its owner (its tables.ts's module or folder); others call the owner's functions" },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          serverDir: { type: 'string' },
          modulesDir: { type: 'string' },
          /** table → owner (a module's name or a folder); default: read from the tables.ts files. */
          owners: { type: 'object' },
          /** Files that write tables of others, each with the tables and the reason. */
          exceptions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { files: { type: 'string' }, tables: { type: 'array', items: { type: 'string' } }, why: { type: 'string' } },
              required: ['files', 'tables', 'why'],
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      write: "'{{file}}' writes the table '{{table}}' ({{verb}}), owned by '{{owner}}': call its owner's function.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const root = options.root ?? context.cwd;
    const modulesDir = options.modulesDir ?? 'src/server/modules';
    const read = options.owners ? { tables: options.owners, names: {} } : readOwners(root, options.serverDir ?? 'src/server', modulesDir);
    const ownerFolders = Object.values(read.tables).filter((o) => o.includes('/'));
    const file = rel(root, context.filename);
    const writer = writerOf(file, modulesDir, ownerFolders);
    const excused = new Set((options.exceptions ?? []).filter((e) => globToRegExp(e.files).test(file)).flatMap((e) => e.tables));
    const imported = new Map();

    function report(node, table, verb) {
      const owner = read.tables[table];
      if (!owner || owner === writer || excused.has(table)) return;
      context.report({ node, messageId: 'write', data: { file, table, owner, verb: verb.toLowerCase().replace(/\s+/g, ' ') } });
    }

    /** The table an expression names: `users`, `schema.users`, `t.users`, an alias or a const of one. */
    function tableNamed(node, depth = 0) {
      if (!node || depth > 3) return null;
      if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return tableOf(node.property.name);
      if (node.type !== 'Identifier') return null;
      if (imported.has(node.name)) return tableOf(imported.get(node.name));
      const variable = findVariable(context.sourceCode.getScope(node), node.name);
      const def = variable?.defs[0];
      if (def?.type === 'Variable' && def.node.init) return tableNamed(def.node.init, depth + 1);
      return tableOf(node.name);
    }
    const tableOf = (name) => read.names[name] ?? (read.tables[name] ? name : null);

    function checkText(node, text) {
      for (const m of text.matchAll(WRITE_IN_SQL)) report(node, m[2].toLowerCase(), m[1]);
    }

    return {
      ImportDeclaration(node) {
        for (const s of node.specifiers) if (s.type === 'ImportSpecifier') imported.set(s.local.name, s.imported.name ?? s.imported.value);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const verb = callee.property.name;
        if (!['insert', 'update', 'delete'].includes(verb)) return;
        const table = tableNamed(node.arguments[0]);
        if (table) report(node.arguments[0], table, verb);
      },
      Literal(node) {
        if (typeof node.value === 'string') checkText(node, node.value);
      },
      TemplateLiteral(node) {
        checkText(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' '));
        // `update ${table} set ...`: a Drizzle table interpolated after the verb.
        node.expressions.forEach((expr, i) => {
          const verb = VERB_BEFORE.exec(node.quasis[i].value.cooked ?? node.quasis[i].value.raw)?.[1];
          const table = verb && tableNamed(expr);
          if (table) report(expr, table, verb);
        });
      },
    };
  },
};

function findVariable(scope, name) {
  for (let s = scope; s; s = s.upper) {
    const v = s.set.get(name);
    if (v) return v;
  }
  return null;
}

export default { meta: { name: 'bicielis-structure' }, rules: { layers, 'table-owner': tableOwner } };
