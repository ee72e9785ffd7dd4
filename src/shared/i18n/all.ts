/**
 * Every domain of the catalogue in both languages, loaded at once: for the server (answers,
 * emails, notices, the PDF, the pages it renders), the build's pre-render and the tests. The
 * browser never imports this file: it loads one domain at a time (web/lib/i18n.ts).
 */
import { setupI18n, type I18n } from '@lingui/core';
import { LINGUE, translator, render, type Lingua, type Testo, type Translate } from './index.js';
import type { CompiledCatalogue } from './catalogue-types.js';
import * as catalogues from './compiled/catalogues.js';

const byLingua: Record<Lingua, CompiledCatalogue> = { it: {}, en: {} };
for (const [name, module] of Object.entries(catalogues)) {
  const lingua = name.endsWith('_en') ? 'en' : 'it';
  Object.assign(byLingua[lingua], module);
}

const instances = Object.fromEntries(
  LINGUE.map((lingua) => [lingua, setupI18n({ locale: lingua, messages: { [lingua]: byLingua[lingua] } })]),
) as Record<Lingua, I18n>;
const translators = Object.fromEntries(LINGUE.map((lingua) => [lingua, translator(instances[lingua])])) as Record<Lingua, Translate>;

/** A translator into `lingua`, every domain loaded. */
export const tFor = (lingua: Lingua): Translate => translators[lingua];

/** A Lingui instance in `lingua` with every domain, for a render that needs one (the server's pages). */
export const i18nFor = (lingua: Lingua): I18n => instances[lingua];

/** A `Testo` in `lingua`. */
export const inLingua = (lingua: Lingua, text: Testo): string => render(translators[lingua], text);

/** Every key of the catalogue in `lingua`, compiled: for the catalogue's tests. */
export const compiledCatalogue = (lingua: Lingua): Readonly<CompiledCatalogue> => byLingua[lingua];

/**
 * A text the server wrote in Italian, as a `Testo`: the key whose Italian text it is, with the
 * values read back out of it. Refusals are written in Italian where they arise (services know no
 * request); the one error handler puts each into its reader's language through this (decision
 * 049). A message with plurals or choices is matched only when thrown as a `Testo`.
 */
export function fromItalian(text: string): Testo | undefined {
  const exact = italianExact.get(text);
  if (exact) return { key: exact as Testo['key'] };
  for (const { key, pattern, names } of italianPatterns) {
    const match = pattern.exec(text);
    if (match) return { key: key as Testo['key'], values: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return undefined;
}

/** A string, or a `Testo`, in `lingua`: an Italian string the catalogue knows is put into it; any other is left as it is. */
export function localise(text: string | Testo, lingua: Lingua): string {
  if (typeof text !== 'string') return inLingua(lingua, text);
  if (lingua === 'it') return text;
  const found = fromItalian(text);
  return found ? inLingua(lingua, found) : text;
}

const italianExact = new Map<string, string>();
const italianPatterns: { key: string; pattern: RegExp; names: string[] }[] = [];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * The messages an Italian string may be read back from by pattern: the server's and the forms'
 * (`server`, `common`), and only those with enough text of their own. A screen's short pieces
 * (`{available} di {total}`, `Bici {numero}`) would match any refusal holding ` di ` or
 * starting with `Bici `, and half-translate a text the catalogue does not know.
 */
const READ_BACK_DOMAINS = new Set(['server', 'common']);
const MIN_LITERAL_CHARS = 12;
const readBack = new Set(
  Object.entries(catalogues)
    .filter(([name]) => name.endsWith('_it') && READ_BACK_DOMAINS.has(name.slice(0, -3)))
    .flatMap(([, module]) => Object.keys(module)),
);
for (const [key, message] of Object.entries(byLingua.it)) {
  if (message.every((token) => typeof token === 'string')) {
    const text = message.join('');
    if (!italianExact.has(text)) italianExact.set(text, key);
    continue;
  }
  // Only plain placeholders ({name}): plurals and choices are not read back.
  if (!readBack.has(key)) continue;
  if (!message.every((token) => typeof token === 'string' || (Array.isArray(token) && token.length === 1))) continue;
  if (message.filter((token) => typeof token === 'string').join('').replace(/\s/g, '').length < MIN_LITERAL_CHARS) continue;
  const names: string[] = [];
  const source = message
    .map((token) => {
      if (typeof token === 'string') return escapeRegExp(token);
      names.push(token[0]);
      return '(.+?)';
    })
    .join('');
  italianPatterns.push({ key, pattern: new RegExp(`^${source}$`, 's'), names });
}
// The most specific first: more literal text, fewer placeholders.
italianPatterns.sort((a, b) => b.pattern.source.length - b.names.length * 10 - (a.pattern.source.length - a.names.length * 10));
