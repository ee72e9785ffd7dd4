import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Every class list merged so far, joined → merged. tailwind-merge builds its tables at its
 * first call, tens of milliseconds on this machine and about four times that on a slow phone:
 * a page rendered on the server brings the lists its render merged (`ClassLists`), so that
 * hydrating it calls tailwind-merge not once; its tables are built at the first touch, click
 * or key (lib/started.ts; decision 027, docs/performance.md).
 */
const merged = new Map<string, string>();
const MAX_REMEMBERED = 4096;
let recording: Map<string, string> | undefined;

/** Joins class names and lets later Tailwind classes override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs);
  let result = merged.get(joined);
  if (result === undefined) {
    result = twMerge(joined);
    if (merged.size >= MAX_REMEMBERED) merged.clear();
    merged.set(joined, result);
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
export function prepareClassMerge(): void {
  twMerge('p-0', 'p-1');
}
