import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

// Algorithm.Argon2id of @node-rs/argon2 (an ambient const enum, so written as its value).
const ARGON2ID = 2;

/**
 * argon2id, 64 MiB, 4 passes, 1 lane: about 70 ms per hash on the 2-core reference
 * machine (docs/decisions/005-password-hashing.md). Stored hashes carry their own
 * parameters, so raising the cost later keeps old hashes verifiable.
 */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 65_536,
  timeCost: 4,
  parallelism: 1,
} as const;

/**
 * argon2 runs on libuv's thread pool (4 threads), which the database driver also needs
 * (SCRAM authentication of new connections hashes there). A burst of logins must not take
 * every thread: at most one hash per core at a time, the rest wait in this queue.
 */
const hashing = pLimit(Math.max(1, Math.min(2, os.availableParallelism())));

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, ARGON2_OPTIONS));
}

/**
 * True when `password` is the one `storedHash` was made from. An account with no password (made
 * by a college login, issue 49) matches nothing, after the same work as a wrong password.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    await verifyPassword(await dummyPasswordHash(), password);
    return false;
  }
  try {
    return await hashing(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

/** A hash that matches no password, verified when the email is unknown so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('bicielis-dummy-password-never-matches');
  return dummyHash;
}
