import { describe, expect, it } from 'vitest';
import { serializeError } from '../../src/server/logger.js';
import { collectedLogLines, collectingLogger, findLeaks, knownSecrets, noteRequestSecrets, noteResponseSecrets } from '../helpers/leak-scan.js';

// The scanner of tests/helpers/scan-logs-after-file.ts must be able to fail: each kind of
// leak it looks for is found here, and clean lines pass.

const TOKEN = 'q9Xr3m1ZtWcE7bYp0VhK2sLdN5aGfJ8uOiR4eT6yBnM';

describe('findLeaks', () => {
  it('finds each kind of secret or internal detail', () => {
    const cases: [string, string][] = [
      ['{"hash":"$argon2id$v=19$m=19456,t=2,p=1$abc$def"}', 'password hash'],
      ['{"key":"sk_test_51Habcdefghijkl"}', 'Stripe secret key'],
      ['{"secret":"whsec_abcdefghijkl"}', 'Stripe webhook secret'],
      ['{"err":{"stack":"Error: boom\\n    at run (/app/src/x.ts:10:5)"}}', 'stack trace'],
      ['Error: boom\n    at run (/app/src/x.ts:10:5)', 'stack trace'],
      ['{"msg":"Failed query: select \\"id\\" from \\"users\\" where \\"email\\" = $1"}', 'SQL text'],
      ['insert into "sessions" ("token_hash") values ($1)', 'SQL text'],
    ];
    for (const [line, what] of cases) {
      expect(findLeaks(line, []).map((l) => l.what), line).toContain(what);
    }
  });

  it('finds a known secret as is and inside a JSON string', () => {
    expect(findLeaks(`{"cookie":"bicielis_session=${TOKEN}"}`, [TOKEN])).toHaveLength(1);
    const password = 'pa"ss\\word-2026';
    expect(findLeaks(JSON.stringify({ body: { password } }), [password])).toHaveLength(1);
  });

  it('passes clean lines, a logged URL with a fuzzed SQL fragment included', () => {
    expect(findLeaks('{"level":30,"msg":"request completed","res":{"statusCode":400}}', [TOKEN])).toEqual([]);
    expect(findLeaks(`{"req":{"url":"/api/validate-sigla/'%20OR%201=1;%20DROP%20TABLE%20users;--"}}`, [TOKEN])).toEqual([]);
  });

  it('notes the tokens of cookies and Set-Cookie, and passwords of bodies, then finds them', () => {
    const grant = TOKEN.split('').reverse().join('');
    expect(findLeaks(`${TOKEN} ${grant} Segreta-Lunga-1`)).toEqual([]);
    noteRequestSecrets({ bicielis_session: TOKEN }, { password: 'Segreta-Lunga-1', email: 'a@b.it' });
    noteResponseSecrets([`bicielis_pwchange=${grant}; Path=/api/change-password; HttpOnly`]);
    expect(findLeaks(`${TOKEN} ${grant} Segreta-Lunga-1`).map((l) => l.what)).toHaveLength(3);
    // Short values are not noted: a fuzzed password "abc" would match anything.
    noteRequestSecrets({}, { password: 'abc' });
    expect(findLeaks('abc')).toEqual([]);
    knownSecrets.delete(TOKEN);
    knownSecrets.delete(grant);
    knownSecrets.delete('Segreta-Lunga-1');
  });
});

describe('the logger writes errors without SQL, with the stack’s frames', () => {
  it('a driver error wrapped by drizzle: its cause message, code and constraint only', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
      code: '23505',
      constraint: 'users_email_unique',
    });
    const wrapped = Object.assign(new Error('Failed query: insert into "users" ("email") values ($1)\nparams: a@b.it'), {
      query: 'insert into "users" ("email") values ($1)',
      cause,
    });
    expect(serializeError(wrapped)).toEqual({
      type: 'Error',
      message: 'duplicate key value violates unique constraint "users_email_unique"',
      code: '23505',
      constraint: 'users_email_unique',
      stack: expect.stringMatching(/^\s+at .*leak-scan\.test\.ts:\d+:\d+/),
    });
    const before = collectedLogLines.length;
    collectingLogger('info').error({ err: wrapped }, 'unhandled error');
    const line = collectedLogLines.splice(before)[0]!;
    expect(line).toContain('users_email_unique');
    expect(findLeaks(line, [], { inLog: true })).toEqual([]);
    expect(line).not.toContain('Failed query');
    expect(line).not.toContain('a@b.it');
    // A response with the same stack would be caught.
    expect(findLeaks(line, []).map((l) => l.what)).toEqual(['stack trace']);
    // Without the serializer the same line would be caught (the scanner is not blind).
    expect(findLeaks(JSON.stringify({ err: { message: wrapped.message, stack: wrapped.stack } }), []).length).toBeGreaterThan(0);
  });
});
