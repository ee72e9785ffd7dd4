import { afterEach, vi } from 'vitest';

// A console.error during a test is a failure: it is how unexpected problems show up.
const errors: unknown[][] = [];
const original = console.error;
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  errors.push(args);
  original(...args);
});

afterEach(() => {
  if (errors.length > 0) {
    const found = errors.splice(0).map((a) => a.map(String).join(' '));
    throw new Error(`console.error was called during the test:\n${found.join('\n')}`);
  }
});
