// Starts the BUILT app for the browser tests (playwright.config.ts `webServer`): port 3100,
// a fresh embedded PostgreSQL in a temporary DATA_DIR with the demo data, which is removed
// when the server stops.
import { spawn } from 'node:child_process';
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
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bicielis-e2e-'));
// Tells the specs where this server's DATA_DIR is (they read the email outbox in it);
// tests/e2e/outbox.ts reads this file.
const dataDirPointer = path.join(os.tmpdir(), `bicielis-e2e-${port}.datadir`);
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
  },
});

child.on('exit', (code, signal) => {
  removeDataDir();
  process.exit(code ?? (signal ? 1 : 0));
});
process.on('exit', removeDataDir);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Forward once; the server then stops HTTP, the pool and PostgreSQL in order.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
}
