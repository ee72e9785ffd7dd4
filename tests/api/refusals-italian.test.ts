import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inLingua } from '../../src/shared/i18n/all.js';
import type { MessageValue, Testo } from '../../src/shared/i18n/index.js';

/**
 * Issue 46, decision 051: every refusal is thrown as a catalogue key with its values, and its
 * Italian is byte for byte what the server sent before (tests/fixtures/refusals-it.json, written
 * once from the code as it was: every MSG_ constant, every text given to AppError and its
 * helpers, the handler's maps, the server domain of the catalogue). The English comes from
 * the same key: nothing reads an Italian text back.
 */
interface Frozen {
  catalogue: Record<string, string>;
  thrown: { text: string; key: string; values?: Record<string, MessageValue>; from: string[] }[];
}

const ROOT = path.resolve(__dirname, '../..');
const frozen = JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/refusals-it.json'), 'utf8')) as Frozen;

/** A domain's sources as written: key → its Italian (ICU, before compiling). */
function italianOf(domain: string): Map<string, string> {
  const dir = path.join(ROOT, 'src/shared/i18n/messages', domain);
  const entries = readdirSync(dir).flatMap((file) => Object.entries(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, { it: string }>));
  return new Map(entries.map(([key, texts]) => [key, texts.it]));
}
const server = italianOf('server');
const common = italianOf('common');
/** The server's and the shared code, where the keys are thrown. */
const source = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => /^(server|shared)\/.*\.ts$/.test(f) && !/compiled|\.test\./.test(f))
  .map((f) => readFileSync(path.join(ROOT, 'src', f), 'utf8'))
  .join('\n');

describe('the refusals’ Italian, held against the texts the server sent before refusals were keys', () => {
  it('every message of the server domain keeps its Italian byte for byte (a key removed only if another holds its text)', () => {
    const texts = new Set(server.values());
    const changed = Object.entries(frozen.catalogue).filter(([key, text]) => (server.has(key) ? server.get(key) !== text : !texts.has(text)));
    expect(Object.keys(frozen.catalogue).length).toBeGreaterThan(400);
    expect(changed).toEqual([]);
  });

  it('every text thrown or sent is the Italian of the key it is thrown as now, with its values', () => {
    expect(frozen.thrown.length).toBeGreaterThan(160);
    const wrong = frozen.thrown.filter(({ text, key, values }) => inLingua('it', { key, values } as Testo) !== text);
    expect(wrong).toEqual([]);
  });

  it('the key of a refusal is the server’s, named where it is thrown; only the shared schemas’ messages are the forms’ (common)', () => {
    expect(frozen.thrown.filter(({ key }) => !source.includes(`'${key}'`))).toEqual([]);
    const elsewhere = frozen.thrown.filter(({ key, from }) => {
      if (server.has(key)) return false;
      return !(common.has(key) && from.every((where) => where.startsWith('src/shared/schemas/')));
    });
    expect(elsewhere).toEqual([]);
  });

  it('the English comes from the same key and values: every refusal has English words of its own', () => {
    const untranslated = frozen.thrown.filter(({ text, key, values }) => inLingua('en', { key, values } as Testo) === text);
    expect(untranslated).toEqual([]);
    expect(inLingua('en', { key: 'bookingsApi.pickupFrom', values: { ora: '10:30' } })).toBe('You can pick up the bike from 10:30');
  });

  it('nothing in the server or the shared code reads Italian back or keeps a refusal’s Italian in a constant', () => {
    expect(source).not.toMatch(/fromItalian|italianPatterns|\blocalise\(/);
    expect(source).not.toMatch(/export const MSG_\w+ = ['"`]/);
  });
});
