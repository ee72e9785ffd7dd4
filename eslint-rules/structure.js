// BiciElis's structure, held by lint (issue 31, decision 036). Two rules:
//
// - `layers`: a file imports only from its own layer or the layers below it (the order is the
//   config's `layers`, lowest first), and another module only through that module's `index.ts`.
//   The few justified exceptions are named in the config (`allow`), each with its reason, and
//   listed in docs/ARCHITECTURE.md.
// - `table-owner`: a module writes only the tables it owns. Owners are read from the modules'
//   own `tables.ts` files (every `pgTable('name'` there belongs to that folder's module). A
//   write is a Drizzle `.insert(t)`, `.update(t)` or `.delete(t)` of a table imported from
//   outside the module, or an `insert into` / `update` / `delete from` of another module's
//   table in an SQL template. Reads may join across modules; writes may not.
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

/** table name → owning module, from every `<modulesDir>/<m>/tables.ts`. */
export function readOwners(root, modulesDir) {
  const key = `${root}|${modulesDir}`;
  if (ownersCache.has(key)) return ownersCache.get(key);
  const owners = {};
  const dir = path.join(root, modulesDir);
  if (fs.existsSync(dir)) {
    for (const m of fs.readdirSync(dir)) {
      const tables = path.join(dir, m, 'tables.ts');
      if (!fs.existsSync(tables)) continue;
      for (const match of fs.readFileSync(tables, 'utf8').matchAll(/pgTable\(\s*['"]([a-z_0-9]+)['"]/g)) owners[match[1]] = m;
    }
  }
  ownersCache.set(key, owners);
  return owners;
}

const WRITE_IN_SQL = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z_0-9]*)"?/gi;

const tableOwner = {
  meta: {
    type: 'problem',
    docs: { description: "A module writes only the tables it owns (its tables.ts); others call the owner's functions" },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, modulesDir: { type: 'string' }, owners: { type: 'object' } },
        additionalProperties: false,
      },
    ],
    messages: {
      drizzle: "'{{table}}' is not a table of the module '{{module}}' (imported from '{{source}}'): call its owner's function to {{verb}} it.",
      sql: "The module '{{module}}' writes the table '{{table}}' ({{verb}}), owned by the module '{{owner}}': call the owner's function.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const root = options.root ?? context.cwd;
    const modulesDir = options.modulesDir ?? 'src/server/modules';
    const file = rel(root, context.filename);
    const module = moduleOf(modulesDir, file);
    if (!module) return {};
    const owners = options.owners ?? readOwners(root, modulesDir);
    const importedFrom = new Map();
    // A table passed to a write is the module's own when it comes from the module's own files;
    // from anywhere else (another module's face, the schema's list, a lower layer's tables) it
    // is someone else's. Package imports (a name from drizzle-orm, say) are no tables.
    const ownTable = (target) => moduleOf(modulesDir, rel(root, target)) === module;

    function checkSql(node, text) {
      for (const match of text.matchAll(WRITE_IN_SQL)) {
        const table = match[2].toLowerCase();
        const owner = owners[table];
        if (owner && owner !== module) {
          context.report({ node, messageId: 'sql', data: { module, table, owner, verb: match[1].toLowerCase().replace(/\s+/g, ' ') } });
        }
      }
    }

    return {
      ImportDeclaration(node) {
        for (const s of node.specifiers) importedFrom.set(s.local.name, node.source.value);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const verb = callee.property.name;
        if (!['insert', 'update', 'delete'].includes(verb)) return;
        const arg = node.arguments[0];
        if (!arg || arg.type !== 'Identifier' || !importedFrom.has(arg.name)) return;
        const source = importedFrom.get(arg.name);
        const target = resolveImport(context.filename, source);
        if (!target) return;
        if (ownTable(target)) return;
        context.report({ node: arg, messageId: 'drizzle', data: { table: arg.name, module, source, verb } });
      },
      TemplateLiteral(node) {
        checkSql(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' '));
        // `update ${table} set ...`: a Drizzle table interpolated after the verb.
        node.expressions.forEach((expr, i) => {
          const before = node.quasis[i].value.cooked ?? node.quasis[i].value.raw;
          const verb = /(insert\s+into|update|delete\s+from)\s*"?$/i.exec(before)?.[1];
          if (!verb || expr.type !== 'Identifier' || !importedFrom.has(expr.name)) return;
          const target = resolveImport(context.filename, importedFrom.get(expr.name));
          if (!target || ownTable(target)) return;
          context.report({ node: expr, messageId: 'drizzle', data: { table: expr.name, module, source: importedFrom.get(expr.name), verb: verb.toLowerCase() } });
        });
      },
    };
  },
};

export default { meta: { name: 'bicielis-structure' }, rules: { layers, 'table-owner': tableOwner } };
