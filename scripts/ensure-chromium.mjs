// Makes sure the browser tests have a Chromium, and fails loudly when they cannot:
// browser tests are never skipped. Order: CHROMIUM_PATH, Debian's /usr/bin/chromium,
// Playwright's own download; as root on Debian/Ubuntu, installs the `chromium` package.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function found(where, executable) {
  console.log(`Chromium per i test del browser: ${executable} (${where})`);
  process.exit(0);
}

const fromEnv = process.env.CHROMIUM_PATH;
if (fromEnv) {
  if (existsSync(fromEnv)) found('CHROMIUM_PATH', fromEnv);
  console.error(`CHROMIUM_PATH=${fromEnv} non esiste. Correggi la variabile o toglila.`);
  process.exit(1);
}

if (existsSync(DEBIAN_CHROMIUM)) found('pacchetto di sistema', DEBIAN_CHROMIUM);

try {
  const { chromium } = await import('playwright-core');
  const own = chromium.executablePath();
  if (own && existsSync(own)) found('browser di Playwright', own);
} catch {
  // playwright-core missing or without a browser registry: try the next option.
}

const isRoot = process.getuid?.() === 0;
if (isRoot && existsSync('/etc/debian_version')) {
  console.log('Nessun Chromium trovato: installo il pacchetto `chromium` con apt-get…');
  try {
    execSync('apt-get update && apt-get install -y chromium', {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    console.error('Installazione di chromium con apt-get non riuscita.');
    process.exit(1);
  }
  if (existsSync(DEBIAN_CHROMIUM)) found('appena installato', DEBIAN_CHROMIUM);
}

console.error(
  [
    'Nessun Chromium per i test del browser. Una di queste:',
    '  - Debian/Ubuntu: sudo apt-get install -y chromium',
    '  - npx playwright install chromium',
    '  - CHROMIUM_PATH=/percorso/di/chromium npm run test:e2e',
  ].join('\n'),
);
process.exit(1);
