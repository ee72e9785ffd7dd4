import { describe, expect, it } from 'vitest';
import { hashSessionToken } from '../modules/auth/index.js';
import { RECENT_TOKEN_HASHES, rememberingHashes } from './auth.js';

describe('the guard remembers the hashes of recent tokens (issue 33)', () => {
  it('gives the same hash as the database keeps, computing it once per token', () => {
    const computed: string[] = [];
    const hashOf = rememberingHashes((token) => {
      computed.push(token);
      return hashSessionToken(token);
    });
    const token = 'a'.repeat(43);
    expect(hashOf(token)).toBe(hashSessionToken(token));
    expect(hashOf(token)).toBe(hashSessionToken(token));
    expect(hashOf('b'.repeat(43))).toBe(hashSessionToken('b'.repeat(43)));
    expect(computed).toEqual([token, 'b'.repeat(43)]);
  });

  it('keeps at most RECENT_TOKEN_HASHES, forgetting the oldest first', () => {
    let calls = 0;
    const hashOf = rememberingHashes((token) => {
      calls += 1;
      return `h:${token}`;
    });
    for (let i = 0; i <= RECENT_TOKEN_HASHES; i++) hashOf(`t${i}`);
    expect(calls).toBe(RECENT_TOKEN_HASHES + 1);
    // The newest is still known; the first one seen was forgotten and is hashed again.
    hashOf(`t${RECENT_TOKEN_HASHES}`);
    expect(calls).toBe(RECENT_TOKEN_HASHES + 1);
    expect(hashOf('t0')).toBe('h:t0');
    expect(calls).toBe(RECENT_TOKEN_HASHES + 2);
  });
});
