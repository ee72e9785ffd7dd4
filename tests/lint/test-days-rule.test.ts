import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import testDays from '../../eslint-rules/test-days.js';

// The tests' day rule (eslint-rules/test-days.js) fails on a day picked by an offset of today
// and passes a day from the helper, or a day in the past.
function lint(code: string) {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' },
        plugins: { 'test-days': testDays },
        rules: { 'test-days/no-day-offset': 'error' },
      },
    ],
    { filename: 'tests/e2e/sample.spec.ts' },
  );
  return messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('test-days/no-day-offset', () => {
  it('refuses a future day picked by an offset of today', () => {
    const bad = lint("const date = addDays(zonedToday(new Date(), 'Europe/Rome'), 10);\n");
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/^test-days\/no-day-offset: A day picked by the offset 10 may fall in a closure .*tests\/helpers\/days\.ts/);
    // Any offset that is not plainly in the past: an expression, a variable, a method of a library.
    expect(lint('const d = addDays(today, 1 + n);\n')[0]).toMatch(/the offset 1 \+ n/);
    expect(lint('const d = addDays(today, ahead);\n')).toHaveLength(1);
    expect(lint('const d = dates.addDays(today, 3);\n')).toHaveLength(1);
  });

  it('accepts a day from the helper, today, and a day in the past', () => {
    expect(lint("const [first, second] = await openDays({ from: 9, count: 2 });\n")).toEqual([]);
    expect(lint('const a = addDays(today, 0);\nconst b = addDays(today, -7);\nconst c = addDays(today, -back);\n')).toEqual([]);
  });
});
