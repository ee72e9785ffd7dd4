import { afterAll } from 'vitest';
import { collectedLogLines, findLeaks } from './leak-scan.js';

// After every test file: no log line of its test apps may hold a secret or SQL text (a
// stack's frames are allowed) (tests/helpers/leak-scan.ts). Registered first, this afterAll runs last, after
// the file's own afterAll has closed its apps (their last lines are in).
afterAll(() => {
  const found: string[] = [];
  for (const line of collectedLogLines) {
    for (const leak of findLeaks(line, undefined, { inLog: true })) found.push(`${leak.what}: …${leak.excerpt}…`);
  }
  collectedLogLines.length = 0;
  if (found.length > 0) {
    throw new Error(`secrets or internals in the log lines of this file's apps:\n${found.slice(0, 20).join('\n')}`);
  }
});
