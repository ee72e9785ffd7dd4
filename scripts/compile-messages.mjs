// The message catalogue (issue 36, docs/decisions/049-two-languages.md), compiled.
//
// Source: src/shared/i18n/messages/<domain>/<part>.json, each `{ "key": { "it": "…", "en": "…" } }`
// in ICU MessageFormat. Written: src/shared/i18n/compiled/<domain>.<lingua>.ts (each message
// parsed once here by Lingui's compiler, so no page carries a parser and a page loads only its
// own language's messages of its own domains) and src/shared/i18n/compiled/keys.ts (every key
// and the values each needs, for the type checker). They are generated, not committed
// (.gitignore): `npm install`, `build`, `test`, `typecheck`, `test:unit`, `dev`, `dev:server`,
// `bench` and `soak` run this first.
//
// `node scripts/compile-messages.mjs` writes them; `--check` only checks that the written files
// are those the sources give (exit 1 if not). Both refuse a catalogue whose languages differ in
// keys, placeholders or plural forms (src/shared/i18n/catalogue.ts holds the rules, the tests
// use them too).
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { parse } from '@messageformat/parser';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Other folders for the catalogue's own tests (src/shared/i18n/catalogue.test.ts).
const SOURCE = process.env.MESSAGES_SOURCE ?? path.join(root, 'src/shared/i18n/messages');
const OUT = process.env.MESSAGES_OUT ?? path.join(root, 'src/shared/i18n/compiled');
const LINGUE = ['it', 'en'];
/** The catalogue's domains: a domain without messages yet still has its (empty) files. */
const DOMAINS = ['common', 'account', 'user', 'subpages', 'admin', 'rack', 'server'];
/**
 * A domain's folder may hold folders of its own: each is a part of the domain, compiled apart
 * (`messages/admin/biciclette/` → `admin-biciclette.<lingua>.ts`), so that a screen or a tab loads
 * its own messages with its chunk and no other's (decision 061). One level only.
 */
const PART = /^[a-z][a-z0-9]*$/;
const check = process.argv.includes('--check');

/** Every argument a message names, with whether it is counted (plural/selectordinal). */
function argumentsOf(tokens, found = new Map()) {
  for (const token of tokens) {
    if (token.type === 'argument' || token.type === 'function') found.set(token.arg, found.get(token.arg) ?? 'text');
    if (token.type === 'plural' || token.type === 'selectordinal') found.set(token.arg, 'number');
    if (token.type === 'select') found.set(token.arg, found.get(token.arg) ?? 'text');
    if (token.type === 'plural' || token.type === 'selectordinal' || token.type === 'select') {
      for (const c of token.cases) argumentsOf(c.tokens, found);
    }
  }
  return found;
}

/** A `{` or `}` left in the text, unquoted: a placeholder that did not close. */
function hasStrayBrace(tokens) {
  for (const token of tokens) {
    if (token.type === 'content' && /[{}]/.test(token.value) && !/'[{}]/.test(token.ctx?.text ?? '')) return true;
    if (token.cases) for (const c of token.cases) if (hasStrayBrace(c.tokens)) return true;
  }
  return false;
}

/** The plural forms a message gives, per argument. */
function pluralCases(tokens, found = []) {
  for (const token of tokens) {
    if (token.type === 'plural') found.push({ arg: token.arg, keys: token.cases.map((c) => c.key) });
    if (token.type === 'plural' || token.type === 'selectordinal' || token.type === 'select') {
      for (const c of token.cases) pluralCases(c.tokens, found);
    }
  }
  return found;
}

/**
 * A compiled message with its plurals as selects, which Lingui resolves by key alone, with no
 * `Intl` object (src/shared/i18n/plural.ts gives the values): `{n, plural, =0 {…} one {…} other
 * {…}}` becomes `{n~=, select, 0 {…} other {{n~p, select, one {…} other {…}}}}`, and a
 * `#` in it `{n~#}`.
 */
function pluralAsSelect(tokens, counted) {
  return tokens.map((token) => {
    if (token === '#' && counted !== undefined) return [`${counted}~#`];
    if (typeof token === 'string') return token;
    const [name, kind, cases] = token;
    if (kind === undefined) return token;
    // Lingui writes `offset: undefined` among the cases of both kinds.
    const given = Object.entries(cases).filter(([key, value]) => key !== 'offset' || value !== undefined);
    if (kind === 'select') return [name, kind, Object.fromEntries(given.map(([k, v]) => [k, pluralAsSelect(v, counted)]))];
    if (kind !== 'plural') throw new Error(`{${name}, ${kind}} non è previsto: solo plural e select`);
    const exact = {};
    const forms = {};
    for (const [key, value] of given) {
      if (key === 'offset') throw new Error(`{${name}, plural, offset:…} non è previsto`);
      (/^\d+$/.test(key) ? exact : forms)[key] = pluralAsSelect(value, name);
    }
    const byForm = [`${name}~p`, 'select', forms];
    return Object.keys(exact).length === 0 ? byForm : [`${name}~=`, 'select', { ...exact, other: [byForm] }];
  });
}

/** The numbered tags (`<0>…</0>`) a message holds: rich text for `<Trans>`. */
const tagsOf = (message) => [...message.matchAll(/<\/?(\d+)\/?>/g)].map((m) => m[0]).sort().join(' ');

const errors = [];
const catalogue = {}; // domain → key → { it, en }
const argsByKey = {};
for (const extra of readdirSync(SOURCE).filter((d) => !DOMAINS.includes(d))) errors.push(`${extra}: dominio sconosciuto (${DOMAINS.join(', ')})`);
/** Each domain and each of its parts, with its folder. */
const folders = [];
for (const domain of DOMAINS) {
  const dir = path.join(SOURCE, domain);
  folders.push({ name: domain, dir, where: domain });
  for (const part of (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    if (!PART.test(part)) errors.push(`${domain}/${part}: nome di parte non valido (lettere minuscole e cifre)`);
    else folders.push({ name: `${domain}-${part}`, dir: path.join(dir, part), where: `${domain}/${part}` });
  }
}
for (const { name: domain, dir, where: folder } of folders) {
  catalogue[domain] = {};
  for (const file of (existsSync(dir) ? readdirSync(dir) : []).filter((f) => f.endsWith(".json")).sort()) {
    const where = `${folder}/${file}`;
    let entries;
    try {
      entries = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    } catch (e) {
      errors.push(`${where}: JSON non valido (${e.message})`);
      continue;
    }
    for (const [key, texts] of Object.entries(entries)) {
      if (!/^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/.test(key)) errors.push(`${where}: chiave "${key}" non valida (parte.nome, lettere e cifre)`);
      if (argsByKey[key]) errors.push(`${where}: chiave "${key}" ripetuta`);
      const parsed = {};
      for (const lingua of LINGUE) {
        const text = texts?.[lingua];
        if (typeof text !== 'string' || text.trim() === '') {
          errors.push(`${where}: "${key}" senza testo in ${lingua}`);
          continue;
        }
        try {
          parsed[lingua] = parse(text);
          // The parser takes an unmatched brace for text: a placeholder mistyped would show as is.
          if (hasStrayBrace(parsed[lingua])) throw new Error('graffa senza la sua coppia');
          pluralAsSelect(compileMessageOrThrow(text));
        } catch (e) {
          errors.push(`${where}: "${key}" in ${lingua} non è ICU valido (${e.message})`);
        }
      }
      if (Object.keys(texts ?? {}).some((l) => !LINGUE.includes(l))) errors.push(`${where}: "${key}" ha lingue sconosciute`);
      if (!parsed.it || !parsed.en) continue;
      const args = LINGUE.map((l) => argumentsOf(parsed[l]));
      const names = args.map((a) => [...a.keys()].sort().join(','));
      if (names[0] !== names[1]) errors.push(`${where}: "${key}" ha segnaposti diversi (it: {${names[0]}}, en: {${names[1]}})`);
      if (tagsOf(texts.it) !== tagsOf(texts.en)) errors.push(`${where}: "${key}" ha tag diversi (it: ${tagsOf(texts.it)}, en: ${tagsOf(texts.en)})`);
      for (const lingua of LINGUE) {
        const needed = new Intl.PluralRules(lingua).resolvedOptions().pluralCategories;
        for (const { arg, keys } of pluralCases(parsed[lingua])) {
          const missing = needed.filter((c) => !keys.includes(c));
          if (missing.length > 0) errors.push(`${where}: "${key}" in ${lingua}, plurale di {${arg}} senza ${missing.join(', ')}`);
        }
      }
      argsByKey[key] = args[0];
      catalogue[domain][key] = texts;
    }
  }
}
if (errors.length > 0) {
  console.error(`compile-messages: ${errors.length} errori nel catalogo\n  ${errors.join('\n  ')}`);
  process.exit(1);
}

const HEADER = '// Generated by scripts/compile-messages.mjs from src/shared/i18n/messages/: do not edit.\n';
const outputs = new Map();
for (const [domain, entries] of Object.entries(catalogue)) {
  for (const lingua of LINGUE) {
    const compiled = Object.fromEntries(Object.entries(entries).map(([key, texts]) => [key, pluralAsSelect(compileMessageOrThrow(texts[lingua]))]));
    const json = JSON.stringify(JSON.stringify(compiled));
    outputs.set(
      `${domain}.${lingua}.ts`,
      `${HEADER}import type { CompiledCatalogue } from '../catalogue-types.js';\n\nexport const messages: CompiledCatalogue = JSON.parse(${json});\n`,
    );
  }
}
 outputs.set(
  'loaders.ts',
  `${HEADER}// Each domain in each language as a chunk of its own, for the browser (src/web/lib/i18n.ts).\nimport type { CompiledCatalogue } from '../catalogue-types';\n\nexport const loaders: Record<string, () => Promise<{ messages: CompiledCatalogue }>> = {\n${Object.keys(catalogue)
    .flatMap((domain) => LINGUE.map((lingua) => `  '${domain}.${lingua}': () => import('./${domain}.${lingua}'),\n`))
    .join('')}};\n`,
);
 outputs.set(
  'catalogues.ts',
  `${HEADER}// Every domain in both languages, for src/shared/i18n/all.ts (the server, the pre-render, the tests).
${Object.keys(catalogue)
    .flatMap((domain) => LINGUE.map((lingua) => `export { messages as ${domain.replaceAll('-', '_')}_${lingua} } from './${domain}.${lingua}.js';\n`))
    .join('')}`,
);
const keyLines = Object.keys(argsByKey)
  .sort()
  .map((key) => {
    const args = [...argsByKey[key]].sort(([a], [b]) => a.localeCompare(b));
    const shape = args.length === 0 ? 'undefined' : `{ ${args.map(([n, kind]) => `${JSON.stringify(n)}: ${kind === 'number' ? 'number' : 'MessageValue'}`).join('; ')} }`;
    return `  ${JSON.stringify(key)}: ${shape};`;
  });
const domainsOf = Object.entries(catalogue).map(([domain, entries]) => `  ${JSON.stringify(domain)}: ${Object.keys(entries).length},`);
outputs.set(
  'keys.ts',
  `${HEADER}import type { MessageValue } from '../catalogue-types.js';\n\n/** Every message's key, and the values it needs (undefined: none). */\nexport interface MessageValues {\n${keyLines.join('\n')}\n}\n\n/** The catalogue's domains and their parts (\`admin-biciclette\`), and how many messages each holds. */\nexport const DOMAIN_SIZES = {\n${domainsOf.join('\n')}\n} as const;\n\n/** The catalogue's domains and their parts, each a chunk of its own in each language. */\nexport const DOMAINS = ${JSON.stringify(Object.keys(catalogue))} as const;\n`,
);

if (!existsSync(OUT)) mkdirSync(OUT, { recursive: true });
const stale = [];
for (const [file, content] of outputs) {
  const target = path.join(OUT, file);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (current === content) continue;
  if (check) stale.push(file);
  else writeFileSync(target, content);
}
const extra = readdirSync(OUT).filter((f) => !outputs.has(f));
if (check && (stale.length > 0 || extra.length > 0)) {
  console.error(`compile-messages --check: catalogo compilato non aggiornato (${[...stale, ...extra].join(', ')}): npm run messages`);
  process.exit(1);
}
if (!check) for (const file of extra) unlinkSync(path.join(OUT, file));
if (!check) console.log(`compile-messages: ${Object.keys(argsByKey).length} messaggi in ${Object.keys(catalogue).length} domini e parti, ${LINGUE.join(' e ')}`);
