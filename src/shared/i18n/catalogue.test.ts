import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import * as all from './all';
import { compiledCatalogue, inLingua, tFor } from './all';
import { DOMAIN_SIZES } from './compiled/keys';
import { linguaFromAcceptLanguage, linguaFromCookieHeader, testo } from './index';

const COMPILER = path.resolve(__dirname, '../../../scripts/compile-messages.mjs');

/** The compilers' folders, removed after the file (they were left in the system's temporary folder). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Runs the compiler on a catalogue of its own; returns its exit code and what it said. */
function compile(domains: Record<string, Record<string, Record<string, string>>>, check = false) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bicielis-catalogo-'));
  made.push(dir);
  const source = path.join(dir, 'messages');
  for (const [domain, entries] of Object.entries(domains)) {
    mkdirSync(path.join(source, domain), { recursive: true });
    writeFileSync(path.join(source, domain, 'test.json'), JSON.stringify(entries));
  }
  try {
    const out = execFileSync(process.execPath, [COMPILER, ...(check ? ['--check'] : [])], {
      env: { ...process.env, MESSAGES_SOURCE: source, MESSAGES_OUT: path.join(dir, 'compiled') },
      stdio: 'pipe',
      encoding: 'utf8',
    });
    return { code: 0, output: out, dir };
  } catch (error) {
    const e = error as { status: number; stderr: string };
    return { code: e.status, output: e.stderr, dir };
  }
}

/**
 * The names a compiled message puts values in, and its plural forms. The compiler writes a plural
 * as selects on `n~=` (the `=N` cases) and `n~p` (the forms), a `#` as `n~#`
 * (shared/i18n/plural.ts).
 */
function shape(message: CompiledMessage, names = new Set<string>(), plurals: string[] = []) {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const name = token[0].replace(/~(=|p|#)$/, '');
    names.add(name);
    const format = token[2];
    if (format && typeof format === 'object' && !Array.isArray(format)) {
      if (token[1] === 'select' && token[0].endsWith('~p')) plurals.push(`${name}:${Object.keys(format).sort().join(',')}`);
      for (const value of Object.values(format)) if (Array.isArray(value)) shape(value as CompiledMessage, names, plurals);
    }
  }
  return { names: [...names].sort(), plurals };
}

describe('the message catalogue (issue 36)', () => {
  it('is generated from its sources, not committed: the files the code imports are those the sources give (npm run messages)', () => {
    expect(() => execFileSync(process.execPath, [COMPILER, '--check'], { stdio: 'pipe' })).not.toThrow();
    // A committed copy would be rewritten by every message change and conflict on every merge (issue 46).
    const root = path.resolve(__dirname, '../../..');
    expect(execFileSync('git', ['ls-files', '--', 'src/shared/i18n/compiled'], { cwd: root, encoding: 'utf8' })).toBe('');
  });

  it('has every key in both languages, with the same placeholders', () => {
    const it = compiledCatalogue('it');
    const en = compiledCatalogue('en');
    expect(Object.keys(en).sort()).toEqual(Object.keys(it).sort());
    expect(Object.keys(it).length).toBe(Object.values(DOMAIN_SIZES).reduce((a: number, b: number) => a + b, 0));
    for (const key of Object.keys(it)) expect(shape(en[key]!).names, key).toEqual(shape(it[key]!).names);
  });

  it('gives every plural the forms each language has', () => {
    for (const lingua of ['it', 'en'] as const) {
      const needed = new Intl.PluralRules(lingua).resolvedOptions().pluralCategories.slice().sort().join(',');
      for (const [key, message] of Object.entries(compiledCatalogue(lingua))) {
        for (const plural of shape(message).plurals) expect(plural.split(':')[1], `${key} (${lingua})`).toBe(needed);
      }
    }
  });

  it('refuses a key missing in a language, different placeholders, a plural without its forms, bad ICU, a repeated key', () => {
    const missing = compile({ common: { 'a.b': { it: 'Ciao' } } });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('"a.b" senza testo in en');
    const placeholders = compile({ common: { 'a.b': { it: 'Ciao {nome}', en: 'Hello {name}' } } });
    expect(placeholders.output).toContain('segnaposti diversi');
    const plural = compile({ common: { 'a.b': { it: '{n, plural, one {# bici} other {# bici}}', en: '{n, plural, one {# bike} other {# bikes}}' } } });
    expect(plural.output).toContain('plurale di {n} senza many');
    const icu = compile({ common: { 'a.b': { it: 'Ciao {', en: 'Hello' } } });
    expect(icu.output).toContain('non è ICU valido');
    const repeated = compile({ common: { 'a.b': { it: 'Uno', en: 'One' } }, user: { 'a.b': { it: 'Due', en: 'Two' } } });
    expect(repeated.output).toContain('"a.b" ripetuta');
    const tags = compile({ common: { 'a.b': { it: 'Leggi <0>qui</0>', en: 'Read here' } } });
    expect(tags.output).toContain('tag diversi');
  });

  it('compiles a good catalogue into one file per domain and language, and notices a stale one', () => {
    const good = compile({ common: { 'a.b': { it: '{n, plural, one {# bici} many {# di bici} other {# bici}}', en: '{n, plural, one {# bike} other {# bikes}}' } } });
    expect(good.code, good.output).toBe(0);
    const files = readdirSync(path.join(good.dir, 'compiled')).sort();
    expect(files).toContain('common.it.ts');
    expect(files).toContain('common.en.ts');
    expect(files).toContain('keys.ts');
    // A message changed in its source and not compiled again, or a file the sources no longer give.
    const env = { ...process.env, MESSAGES_SOURCE: path.join(good.dir, 'messages'), MESSAGES_OUT: path.join(good.dir, 'compiled') };
    const check = () => execFileSync(process.execPath, [COMPILER, '--check'], { env, stdio: 'pipe', encoding: 'utf8' });
    expect(check).not.toThrow();
    writeFileSync(path.join(good.dir, 'messages', 'common', 'test.json'), JSON.stringify({ 'a.b': { it: 'Ciao', en: 'Hello' } }));
    expect(check).toThrow(/non aggiornato \(common\.it\.ts, common\.en\.ts, keys\.ts\)/);
    execFileSync(process.execPath, [COMPILER], { env, stdio: 'pipe' });
    writeFileSync(path.join(good.dir, 'compiled', 'old.it.ts'), '');
    expect(check).toThrow(/non aggiornato \(old\.it\.ts\)/);
  });
});

describe('choosing the language', () => {
  it('follows the first preference of Accept-Language: en… gives English, anything else Italian', () => {
    expect(linguaFromAcceptLanguage('en-GB,en;q=0.9,it;q=0.8')).toBe('en');
    expect(linguaFromAcceptLanguage('en')).toBe('en');
    expect(linguaFromAcceptLanguage('it-IT,it;q=0.9,en;q=0.8')).toBe('it');
    expect(linguaFromAcceptLanguage('de-DE,en;q=0.5')).toBe('it');
    expect(linguaFromAcceptLanguage('fr;q=0.5,en-US;q=0.9')).toBe('en');
    expect(linguaFromAcceptLanguage('english')).toBe('it');
    expect(linguaFromAcceptLanguage(undefined)).toBe('it');
    expect(linguaFromAcceptLanguage('')).toBe('it');
  });

  it('reads the lingua cookie only when it names a language', () => {
    expect(linguaFromCookieHeader('a=1; lingua=en; b=2')).toBe('en');
    expect(linguaFromCookieHeader('lingua=de')).toBeUndefined();
    expect(linguaFromCookieHeader(undefined)).toBeUndefined();
  });
});

describe('texts the server sends', () => {
  it('are put into a language by key only: nothing reads an Italian text back', () => {
    expect(tFor('en')('app.loading')).toBe('Loading BiciElis...');
    expect(tFor('it')('app.loading')).toBe('Caricamento BiciElis...');
    expect(inLingua('en', testo('app.loading'))).toBe('Loading BiciElis...');
    expect(Object.keys(all).sort()).toEqual(['compiledCatalogue', 'i18nFor', 'inLingua', 'tFor']);
  });
});
