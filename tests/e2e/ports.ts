import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';

/**
 * The e2e servers (playwright.config.ts): `E2E_PORT` (3100 unless set) serves the specs that
 * share it, and the next port a server of its own for the specs whose changes reach every user
 * (they run one project after another there, beside the rest). Each writes where its DATA_DIR and
 * its OpenID provider's control are into `<tmpdir>/bicielis-e2e-<port>.<what>` (tests/e2e/server.mjs).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ALONE_PORT = E2E_PORT + 1;

/** The port of the server the running test's project talks to. */
export function currentE2ePort(): number {
  const baseURL = test.info().project.use.baseURL;
  if (!baseURL) throw new Error('the project has no baseURL (playwright.config.ts)');
  return Number(new URL(baseURL).port);
}

/** The file in which the server on `port` says where its `what` is. */
export function e2ePointer(port: number, what: 'datadir' | 'oidc'): string {
  return path.join(os.tmpdir(), `bicielis-e2e-${port}.${what}`);
}
