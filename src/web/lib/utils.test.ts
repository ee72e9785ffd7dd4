import type * as TailwindMerge from 'tailwind-merge';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('tailwind-merge', async (original) => {
  const actual = await original<typeof TailwindMerge>();
  return {
    ...actual,
    twMerge: (...args: Parameters<typeof actual.twMerge>) => {
      calls.count++;
      return actual.twMerge(...args);
    },
  };
});

const { twMerge } = await vi.importActual<typeof TailwindMerge>('tailwind-merge');

/** lib/utils.ts afresh: tailwind-merge not asked for yet, no list kept. */
async function freshUtils() {
  vi.resetModules();
  return import('./utils');
}

beforeEach(() => {
  calls.count = 0;
});

describe('cn, once tailwind-merge is in', async () => {
  const { adoptClassLists, cn, loadClassMerge, prepareClassMerge, recordClassLists } = await freshUtils();
  await loadClassMerge();

  it('merges as tailwind-merge does: later classes win', () => {
    expect(cn('h-11 px-4 text-base', 'h-12', false, undefined, { 'w-full': true, hidden: false })).toBe('px-4 text-base h-12 w-full');
    expect(cn('p-2', 'px-4 py-1')).toBe(twMerge('p-2 px-4 py-1'));
  });

  it('records the class lists of a render: those left as they were, and the others with their result', () => {
    const { result, classLists } = recordClassLists(() => [cn('flex gap-2'), cn('h-11 rounded-md', 'h-12'), cn('flex gap-2')].join('|'));
    expect(result).toBe('flex gap-2|rounded-md h-12|flex gap-2');
    expect(classLists).toEqual({ same: ['flex gap-2'], changed: [['h-11 rounded-md h-12', 'rounded-md h-12']] });
    // Nothing is recorded outside a render.
    cn('grid');
    expect(recordClassLists(() => null).classLists).toEqual({ same: [], changed: [] });
  });

  it('a page that brings its class lists hydrates without calling tailwind-merge, and says the same', () => {
    adoptClassLists({ same: ['mx-auto max-w-5xl'], changed: [['size-4 size-6 text-sm', 'size-6 text-sm']] });
    expect(cn('mx-auto max-w-5xl')).toBe('mx-auto max-w-5xl');
    expect(cn('size-4', 'size-6 text-sm')).toBe('size-6 text-sm');
    expect(calls.count).toBe(0);
    // A list it did not bring is merged then.
    expect(cn('m-1 m-2')).toBe('m-2');
    expect(calls.count).toBe(1);
  });

  it('ignores anything else a page could hold', () => {
    for (const junk of [null, 'x', 42, { same: 'a b' }, { same: [1, null], changed: [['only-one'], [1, 2], 'x'] }]) adoptClassLists(junk);
    expect(cn('p-3 p-5')).toBe('p-5');
    expect(calls.count).toBe(1);
  });

  it('builds tailwind-merge’s tables when the page asks', async () => {
    await prepareClassMerge();
    expect(calls.count).toBe(1);
  });
});

describe('cn, before tailwind-merge is in (decision 048)', () => {
  it('uses the lists the page brought, and asks for tailwind-merge only for one it did not', async () => {
    const { adoptClassLists, cn, loadClassMerge, whenProvisionalChanged } = await freshUtils();
    const changed = vi.fn();
    whenProvisionalChanged(changed);
    adoptClassLists({ same: ['flex gap-2'], changed: [['h-11 rounded-md h-12', 'rounded-md h-12']] });
    expect(cn('h-11 rounded-md', 'h-12')).toBe('rounded-md h-12');
    expect(cn('flex gap-2')).toBe('flex gap-2');
    // A list it did not bring, without a conflict: given out as joined, and right.
    expect(cn('grid', 'gap-4')).toBe('grid gap-4');
    await loadClassMerge();
    expect(changed).not.toHaveBeenCalled();
    expect(cn('m-1 m-2')).toBe('m-2');
  });

  it('a list given out before it came, which it changes, is logged and the app renders again with it merged', async () => {
    const { cn, loadClassMerge, whenProvisionalChanged } = await freshUtils();
    const changed = vi.fn();
    whenProvisionalChanged(changed);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(cn('px-2', 'px-4')).toBe('px-2 px-4');
      await loadClassMerge();
      expect(changed).toHaveBeenCalledTimes(1);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('"px-2 px-4"'));
      // The next render gets the merged list.
      expect(cn('px-2', 'px-4')).toBe('px-4');
    } finally {
      error.mockRestore();
    }
  });
});
