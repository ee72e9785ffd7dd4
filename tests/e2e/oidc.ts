import { readFileSync } from 'node:fs';
import type { AccountClaims } from '../helpers/oidc-provider';
import { currentE2ePort, e2ePointer } from './ports';

/**
 * The e2e server's local OpenID provider (tests/e2e/server.mjs starts it, with a small control
 * server whose address it writes into `<tmpdir>/bicielis-e2e-<port>.oidc`): the specs give it
 * accounts and say who signs in at the next interaction. One spec file at a time uses it.
 */

function controlUrl(): string {
  return readFileSync(e2ePointer(currentE2ePort(), 'oidc'), 'utf8').trim();
}

async function send(what: 'account' | 'login-as', body: unknown): Promise<void> {
  const res = await fetch(`${controlUrl()}/${what}`, { method: 'POST', body: JSON.stringify(body) });
  if (res.status !== 204) throw new Error(`the OpenID provider's control answered ${res.status}: ${await res.text()}`);
}

/** The provider knows `sub` with these claims, and signs it in at the next interaction. */
export async function providerSignsIn(sub: string, claims: AccountClaims): Promise<void> {
  await send('account', { sub, claims });
  await send('login-as', { sub });
}
