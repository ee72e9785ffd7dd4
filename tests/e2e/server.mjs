// Starts the BUILT app for the browser tests (playwright.config.ts `webServer`): port 3100,
// a fresh embedded PostgreSQL in a temporary DATA_DIR with the demo data, which is removed
// when the server stops. The college's login (issue 49) is configured, against a local OpenID
// provider started here (tests/helpers/oidc-provider.ts), never a real one; the specs tell it
// who signs in through a small control server (tests/e2e/oidc.ts).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const serverEntry = path.join(root, 'dist', 'server', 'main.js');
if (!existsSync(serverEntry) || !existsSync(path.join(root, 'dist', 'web', 'index.html'))) {
  console.error('BiciElis non è compilato: esegui `npm run build` (o `npm run test:e2e`, che lo fa da sé).');
  process.exit(1);
}

const port = process.env.E2E_PORT ?? '3100';

// The provider is TypeScript (shared with the API tests): loaded through tsx.
const { tsImport } = await import('tsx/esm/api');
const { startOidcProvider } = await tsImport('../helpers/oidc-provider.ts', import.meta.url);
// Where the specs look for this server's files (the same names they read: tests/e2e/ports.ts).
const { e2ePointer } = await tsImport('./ports.ts', import.meta.url);
const provider = await startOidcProvider({ clientRedirectUri: `http://localhost:${port}/api/auth/oidc/callback` });
// POST /account {sub, claims} and POST /login-as {sub}: the provider's accounts, and who signs in next.
const control = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      const data = JSON.parse(body || '{}');
      if (req.method === 'POST' && req.url === '/account') provider.setAccount(String(data.sub), data.claims ?? {});
      else if (req.method === 'POST' && req.url === '/login-as') provider.loginAs(data.sub === null ? null : String(data.sub));
      else return void res.writeHead(404).end();
      res.writeHead(204).end();
    } catch (error) {
      res.writeHead(400).end(String(error));
    }
  });
});
await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
// Tells the specs where the control server is (tests/e2e/oidc.ts reads this file).
const oidcPointer = e2ePointer(Number(port), 'oidc');
writeFileSync(oidcPointer, `http://127.0.0.1:${control.address().port}`);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bicielis-e2e-'));
// Tells the specs where this server's DATA_DIR is (they read the email outbox in it);
// tests/e2e/outbox.ts reads this file.
const dataDirPointer = e2ePointer(Number(port), 'datadir');
writeFileSync(dataDirPointer, dataDir);
let removed = false;
function removeDataDir() {
  if (removed) return;
  removed = true;
  rmSync(dataDir, { recursive: true, force: true });
  try {
    if (readFileSync(dataDirPointer, 'utf8') === dataDir) rmSync(dataDirPointer, { force: true });
  } catch {
    // Already gone.
  }
}

const child = spawn(process.execPath, ['--enable-source-maps', serverEntry], {
  // Run inside the temporary folder so a developer's ./.env cannot point the tests at a
  // real database, SMTP server or payment account.
  cwd: dataDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    PUBLIC_URL: `http://localhost:${port}`,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    // Empty means unset: embedded PostgreSQL, file outbox, simulated payments.
    DATABASE_URL: '',
    SMTP_URL: '',
    REPORT_EMAIL: '',
    STRIPE_SECRET_KEY: '',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    // The admin's resident import (tests/e2e/admin.spec.ts) needs an initial password.
    RESIDENT_INITIAL_PASSWORD: 'benvenuto-elis-2026',
    RESIDENT_EMAIL_DOMAIN: 'elis.org',
    // The college's login, with the catalogue's label (OIDC_LABEL unset: both languages).
    ...provider.env,
    OIDC_LABEL: '',
  },
});

child.on('exit', (code, signal) => {
  removeDataDir();
  control.close();
  void provider.close();
  process.exit(code ?? (signal ? 1 : 0));
});
process.on('exit', removeDataDir);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Forward once; the server then stops HTTP, the pool and PostgreSQL in order.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
}
