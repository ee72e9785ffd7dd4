import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_ALONE_PORT, E2E_PORT } from './tests/e2e/ports';

// Two servers (tests/e2e/ports.ts): E2E_PORT for the specs that share it, the next port for the
// specs whose changes reach every user. E2E_PORT lets two runs on one machine use other ports.
const BASE_URL = `http://localhost:${E2E_PORT}`;
const ALONE_URL = `http://localhost:${E2E_ALONE_PORT}`;

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
      // One origin per server: no process per site, nor the features a person's browser talks to Google with.
      '--disable-site-isolation-trials',
      '--disable-features=IsolateOrigins,site-per-process,Translate,OptimizationHints,MediaRouter,AutofillServerCommunication',
      '--disable-extensions',
      '--mute-audio',
    ],
  },
  // styles.css stops its animations for this preference: a spinner is not redrawn 60 times a second.
  reducedMotion: 'reduce' as const,
  // A context's service worker would fetch the 158 files of its precache first: only the specs of
  // the offline app (and foundation's check of the worker) let it run.
  serviceWorkers: 'block' as const,
};
/** On the server of their own (E2E_ALONE_PORT), at a phone's width. */
const alone = { ...chromium, baseURL: ALONE_URL };
const alonePhone = { ...alone, viewport: { width: 375, height: 812 } };

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
    { name: 'chromium', testIgnore: /(admin|rules|waitlist|offline|audit|fleet|sedi-.*)\.spec\.ts/, use: chromium },
    // The offline app (issue 22) on a phone's width: the service worker, the device's own
    // database, the network cut per browser context. Its people and bikes are its own.
    {
      name: 'chromium-offline',
      testMatch: /offline\.spec\.ts/,
      use: { ...chromium, serviceWorkers: 'allow', viewport: { width: 375, height: 812 } },
    },
    // The specs whose changes reach every user run on a server of their own, one project after
    // another, beside the two above (which take the other worker): the suite no longer waits for
    // them with a worker idle (decision 069).
    // The admin's changes: a bike out of service, the residents imported, a sigla taken.
    { name: 'chromium-admin', testMatch: /(^|\/)admin\.spec\.ts$/, use: alone },
    // The service's rules (hours, closures, maintenance) reach every booking.
    { name: 'chromium-rules', testMatch: /rules\.spec\.ts/, dependencies: ['chromium-admin'], use: alone },
    // The waitlist fills whole windows (every bike): no bike another spec adds can free a window meanwhile.
    { name: 'chromium-waitlist', testMatch: /waitlist\.spec\.ts/, dependencies: ['chromium-rules'], use: alone },
    // The audit log on screen (issue 23): it reads what every admin change before it wrote; its own
    // change touches a user of its own.
    { name: 'chromium-audit', testMatch: /audit\.spec\.ts/, dependencies: ['chromium-waitlist'], use: alonePhone },
    // The fleet that heals itself (issue 35): a bike out of use moves its bookings to any free
    // bike, and one test takes every other bike for a window.
    { name: 'chromium-fleet', testMatch: /fleet\.spec\.ts/, dependencies: ['chromium-audit'], use: alonePhone },
    // Several sedi (issue 47): a second sede's bikes, people and boards; an admin's sede or a bike
    // moved between sedi reaches every list.
    { name: 'chromium-sedi', testMatch: /sedi-.*\.spec\.ts/, dependencies: ['chromium-fleet'], use: alonePhone },
  ],
  webServer: [E2E_PORT, E2E_ALONE_PORT].map((port) => ({
    command: 'node tests/e2e/server.mjs',
    env: { E2E_PORT: String(port) },
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    // SIGTERM lets the server stop its PostgreSQL and the wrapper delete the temp folder.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 20_000 },
  })),
});
