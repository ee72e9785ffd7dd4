import { clsx, type ClassValue } from 'clsx';

/**
 * Class lists are merged by tailwind-merge, a chunk of its own (decision 048): 8 KB gzip that
 * the first screen does not need. Every page brings the lists its first render merged (a page
 * rendered for its user in its state, a pre-rendered page in `#bicielis-classi`); the module
 * is asked for once the page has loaded (boot/main.tsx), or by the first list not seen before.
 *
 * Every class list merged so far, joined → merged. tailwind-merge builds its tables at its
 * first call, tens of milliseconds on this machine and about four times that on a slow phone:
 * hydrating a page that brought its lists calls tailwind-merge not once; its tables are built
 * at the first touch, click or key (lib/started.ts; decision 027, docs/performance.md).
 */
const merged = new Map<string, string>();
const MAX_REMEMBERED = 4096;
let recording: Map<string, string> | undefined;

type Merge = (classList: string) => string;
let merge: Merge | undefined;
let loading: Promise<void> | undefined;
/** Lists given out as joined, before tailwind-merge was in: checked once it is. */
const provisional = new Set<string>();
let onProvisionalChanged: (() => void) | undefined;

/**
 * Asks for tailwind-merge (once). A list given out before it came, which it would have changed,
 * is logged and the app renders again (`whenProvisionalChanged`): the screen then shows it merged.
 */
export function loadClassMerge(): Promise<void> {
  loading ??= import('tailwind-merge').then((module) => {
    merge = module.twMerge;
    const changed = [...provisional].filter((joined) => module.twMerge(joined) !== joined);
    provisional.clear();
    if (changed.length > 0) {
      console.error(`Classi usate prima di tailwind-merge, unite ora: ${changed.map((c) => `"${c}"`).join(', ')}`);
      onProvisionalChanged?.();
    }
  }, (error: unknown) => {
    // Not in (offline, a chunk of an older version gone): asked for again by the next list.
    loading = undefined;
    throw error;
  });
  return loading;
}

/** What to do when lists given out before tailwind-merge came were not as it merges them (boot/main.tsx: render again). */
export function whenProvisionalChanged(callback: () => void): void {
  onProvisionalChanged = callback;
}

/** Joins class names and lets later Tailwind classes override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs);
  let result = merged.get(joined);
  if (result === undefined) {
    if (merge) {
      result = merge(joined);
      if (merged.size >= MAX_REMEMBERED) merged.clear();
      merged.set(joined, result);
    } else {
      // Not kept: merged for real at the next render after tailwind-merge has come.
      result = joined;
      provisional.add(joined);
      loadClassMerge().catch(() => undefined);
    }
  }
  recording?.set(joined, result);
  return result;
}

/** The class lists of a render, for the page's state: those tailwind-merge left as they were, and the others with their result. */
export interface ClassLists {
  same: string[];
  changed: [string, string][];
}

/** Runs `render` (the server's render of a page) and returns what it gave and the class lists it merged. */
export function recordClassLists<T>(render: () => T): { result: T; classLists: ClassLists } {
  recording = new Map();
  try {
    const result = render();
    const classLists: ClassLists = { same: [], changed: [] };
    for (const [joined, output] of recording) {
      if (joined === output) classLists.same.push(joined);
      else classLists.changed.push([joined, output]);
    }
    return { result, classLists };
  } finally {
    recording = undefined;
  }
}

/** Takes the class lists a page came with (anything else is ignored: they are read from the page). */
export function adoptClassLists(lists: unknown): void {
  const { same, changed } = (lists ?? {}) as Partial<ClassLists>;
  if (Array.isArray(same)) for (const joined of same) if (typeof joined === 'string') merged.set(joined, joined);
  if (Array.isArray(changed))
    for (const entry of changed) if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') merged.set(entry[0], entry[1]);
}

/** Builds tailwind-merge's tables now (the person has started using the page), rather than at the first class list no render has seen. */
export function prepareClassMerge(): Promise<void> {
  return loadClassMerge().then(() => void merge!('p-0 p-1'));
}
