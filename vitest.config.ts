import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/helpers/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    setupFiles: ['tests/helpers/fail-on-console-error.ts', 'tests/helpers/scan-logs-after-file.ts', 'tests/helpers/italian-texts.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Hang guards, not speed targets: tests wait for the states they need. A fresh clone run
    // beside other builds on the 2 cores took 10 s for tests that take 2 s on a quiet machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { TZ: 'UTC' },
  },
});
