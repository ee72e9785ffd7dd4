import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireCopy } from './wire-copy';

/** What the browser gets from the API: the text, read back. */
const throughJson = (value: unknown): unknown => {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
};

describe('wireCopy', () => {
  it('is what JSON.stringify then JSON.parse give, for any value a service returns', () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.double(),
      fc.integer(),
      fc.date(),
      fc.date({ noInvalidDate: false }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 5 }),
      object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(wireCopy(v)).toStrictEqual(throughJson(v));
      }),
    );
  });

  it('calls toJSON with the member name, unwraps boxed primitives, and refuses a BigInt as JSON does', () => {
    const seen: string[] = [];
    const custom = { toJSON: (key: string) => (seen.push(key), `k:${key}`) };
    const value = { a: custom, list: [custom], n: new Number(3), s: new String('x'), f: () => 1, sym: Symbol('s') };
    expect(wireCopy(value)).toStrictEqual(throughJson(value));
    expect(seen).toEqual(['a', '0', 'a', '0']);
    expect(wireCopy([() => 1, Symbol('s'), Number.NaN])).toStrictEqual([null, null, null]);
    expect(() => wireCopy({ big: 1n })).toThrow(TypeError);
  });

  it('does not change what it copies (a cached answer, such as the public config, stays as it was)', () => {
    const when = new Date('2026-11-30T08:00:00Z');
    const cached = { at: when, items: [{ at: when, gone: undefined }] };
    const copied = wireCopy(cached) as { at: string; items: { at: string }[] };
    expect(copied).toEqual({ at: '2026-11-30T08:00:00.000Z', items: [{ at: '2026-11-30T08:00:00.000Z' }] });
    expect(cached.at).toBe(when);
    expect(cached.items[0]).toHaveProperty('gone');
  });
});
