import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setupI18n } from '@lingui/core';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { compiledCatalogue, tFor } from './all';
import { numberText, pluralForm } from './plural';

const LINGUE = ['it', 'en'] as const;
const SOURCE = path.resolve(__dirname, 'messages');
const COUNTS = [0, 1, 2, 3, 5, 11, 21, 100, 999, 1000, 1001, 9999, 10000, 12345, 100000, 1000000, 2000000, 1500000, 1.5, 0.25, -1, -2];

/** Every message of the sources, as written (before the compiler turns its plurals into selects). */
function sources(): { key: string; it: string; en: string }[] {
  const out: { key: string; it: string; en: string }[] = [];
  for (const domain of readdirSync(SOURCE)) {
    for (const file of readdirSync(path.join(SOURCE, domain)).filter((f) => f.endsWith('.json'))) {
      const entries = JSON.parse(readFileSync(path.join(SOURCE, domain, file), 'utf8')) as Record<string, { it: string; en: string }>;
      for (const [key, texts] of Object.entries(entries)) out.push({ key, ...texts });
    }
  }
  return out;
}

/** The names a message takes, and which of them it counts. */
function argumentsOf(message: CompiledMessage, found = new Map<string, boolean>()): Map<string, boolean> {
  for (const token of message) {
    if (typeof token === 'string') continue;
    found.set(token[0], found.get(token[0]) === true || token[1] === 'plural');
    const cases = token[2];
    if (cases && typeof cases === 'object') for (const value of Object.values(cases)) if (Array.isArray(value)) argumentsOf(value as CompiledMessage, found);
  }
  return found;
}

describe('plurals with no Intl object (shared/i18n/plural.ts)', () => {
  it("picks CLDR's form as Intl.PluralRules does, in Italian and English", () => {
    const numbers = [...Array.from({ length: 2100 }, (_, i) => i), 1_000_000, 2_000_000, 3_000_000, 1_000_001, 10_000_000, 1.5, 1.0001, 0.5, -1, -2, -1_000_000];
    for (const lingua of LINGUE) {
      const rules = new Intl.PluralRules(lingua);
      for (const n of numbers) expect(pluralForm(lingua, n), `${lingua} ${n}`).toBe(rules.select(n));
    }
  });

  it('writes a number as Intl.NumberFormat does with its defaults', () => {
    const numbers = [...COUNTS, 1234567, 10_000_000, 0.1234, 2.5, 12.005, -12345.5, 999_999_999];
    for (const lingua of LINGUE) {
      const format = new Intl.NumberFormat(lingua);
      for (const n of numbers) expect(numberText(lingua, n), `${lingua} ${n}`).toBe(format.format(n));
    }
  });

  it("gives every plural message of the catalogue Lingui's own text, for every count, in both languages", () => {
    let checked = 0;
    for (const { key, ...texts } of sources()) {
      for (const lingua of LINGUE) {
        const original = compileMessageOrThrow(texts[lingua]);
        const args = argumentsOf(original);
        if (![...args.values()].some(Boolean)) continue;
        // Lingui's runtime on the message as written: its plurals through Intl.
        const reference = setupI18n({ locale: lingua, messages: { [lingua]: { [key]: original } } });
        for (const count of COUNTS) {
          const values = Object.fromEntries([...args].map(([name, counted]) => [name, counted ? count : `«${name}»`]));
          const ours = (tFor(lingua) as (k: string, v: Record<string, unknown>) => string)(key, values);
          expect(ours, `${key} (${lingua}, ${count})`).toBe(reference._(key, values));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50 * COUNTS.length);
  });

  it('leaves no plural token in the compiled catalogue: nothing there asks for an Intl object', () => {
    const kinds = (message: CompiledMessage, found = new Set<string>()): Set<string> => {
      for (const token of message) {
        if (typeof token === 'string') continue;
        if (token[1]) found.add(token[1]);
        const cases = token[2];
        if (cases && typeof cases === 'object') for (const value of Object.values(cases)) if (Array.isArray(value)) kinds(value as CompiledMessage, found);
      }
      return found;
    };
    for (const lingua of LINGUE) {
      const used = new Set<string>();
      for (const message of Object.values(compiledCatalogue(lingua))) for (const kind of kinds(message)) used.add(kind);
      expect([...used]).toEqual(['select']);
    }
  });

  it('is the only place a Lingui instance is made: every other goes through catalogueI18n', () => {
    const root = path.resolve(__dirname, '../../..');
    const hits = execFileSync('git', ['grep', '--untracked', '-l', 'setupI18n', '--', 'src/**/*.ts', 'src/**/*.tsx'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.endsWith('.test.ts'));
    expect(hits).toEqual(['src/shared/i18n/plural.ts']);
  });
});
