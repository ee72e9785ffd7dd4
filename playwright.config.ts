import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// E2E_PORT (read by tests/e2e/server.mjs too) lets two runs on one machine use two ports.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://localhost:${PORT}`;

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own browser. */
function chromiumExecutable(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return undefined;
}

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: chromiumExecutable(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Date and time inputs follow the browser's language, not the page's locale.
      '--lang=it-IT',
    ],
  },
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  // The app, its PostgreSQL, two Chromiums and the test runner share 2 cores in CI, often
  // with other work: a screen's test waits for states, and these bounds only catch a hang.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    headless: true,
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: /(admin|rules|waitlist|offline|audit|fleet|sedi-.*|sign-in-.*)\.spec\.ts/, use: chromium },
    // The offline app (issue 22) on a phone's width: the service worker, the device's own
    // database, the network cut per browser context. Its people and bikes are its own, so it
    // runs beside `chromium`, before the specs whose changes reach every user.
    { name: 'chromium-offline', testMatch: /offline\.spec\.ts/, use: { ...chromium, viewport: { width: 375, height: 812 } } },
    // The admin's changes reach every user (a bike out of service, the residents imported,
    // a sigla taken): they run after the other specs, alone on the shared server.
    { name: 'chromium-admin', testMatch: /(^|\/)admin\.spec\.ts$/, dependencies: ['chromium', 'chromium-offline'], use: chromium },
    // The college's account and passkeys (issue 49) book nothing and use people and siglas of their
    // own: they run beside the chain that follows (rules, waitlist, audit, fleet, sedi), whose specs
    // each run alone and leave a worker idle. After the admin's spec, whose resident import would
    // take a sigla the completion form is about to use.
    { name: 'chromium-sign-in', testMatch: /sign-in-.*\.spec\.ts/, dependencies: ['chromium-admin'], use: chromium },
    // The service's rules (hours, closures, maintenance) reach every booking: last, alone.
    { name: 'chromium-rules', testMatch: /rules\.spec\.ts/, dependencies: ['chromium-admin'], use: chromium },
    // The waitlist fills whole windows (every bike): after the rest, alone, so no bike another
    // spec adds can free a window meanwhile.
    { name: 'chromium-waitlist', testMatch: /waitlist\.spec\.ts/, dependencies: ['chromium-rules'], use: chromium },
    // The audit log on screen (issue 23), on a phone's width: it reads what every admin change
    // wrote, so it runs after the specs that make them; its own change touches a user of its own.
    {
      name: 'chromium-audit',
      testMatch: /audit\.spec\.ts/,
      dependencies: ['chromium-waitlist'],
      use: { ...chromium, viewport: { width: 375, height: 812 } },
    },
    // The fleet that heals itself (issue 35): a bike out of use moves its bookings to any free
    // bike, and one test takes every other bike for a window: last, alone.
    {
      name: 'chromium-fleet',
      testMatch: /fleet\.spec\.ts/,
      dependencies: ['chromium-audit'],
      use: { ...chromium, viewport: { width: 375, height: 812 } },
    },
    // Several sedi (issue 47), on a phone's width: a second sede's bikes, people and boards. Last,
    // alone: an admin's sede or a bike moved between sedi reaches every list.
    {
      name: 'chromium-sedi',
      testMatch: /sedi-.*\.spec\.ts/,
      dependencies: ['chromium-fleet'],
      use: { ...chromium, viewport: { width: 375, height: 812 } },
    },
  ],
  webServer: {
    command: 'node tests/e2e/server.mjs',
    url: `${BASE_URL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM lets the server stop its PostgreSQL and the wrapper delete the temp folder.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  },
});
