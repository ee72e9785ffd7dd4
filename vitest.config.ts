import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that load the machine and hold a time bound of their own: several app processes under a
 * burst, a database restarted or failed over under load, a recovery replayed. Beside another such
 * file on 2 cores, a 5 s pool wait or a 200 MB ceiling measured the neighbour, not the app (the
 * two-process burst answered 106 × 503 beside the four-process one, none alone). `npm test` runs
 * them after the rest, one at a time (VITEST_GROUP=serial); a plain `vitest run` runs everything.
 */
export const SERIAL_FILES = [
  'tests/api/many-processes.test.ts',
  'tests/api/four-processes.test.ts',
  'tests/api/fail-over.test.ts',
  'tests/api/commit-fate-failover.test.ts',
  'tests/api/database-restart.test.ts',
  'tests/api/crash-under-load.test.ts',
  'tests/api/point-in-time.test.ts',
];

const group = process.env.VITEST_GROUP;
const ALL = ['src/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/helpers/**/*.test.ts', 'tests/lint/**/*.test.ts'];

export default defineConfig({
  test: {
    include: group === 'serial' ? SERIAL_FILES : ALL,
    exclude: [...configDefaults.exclude, ...(group === 'parallel' ? SERIAL_FILES : [])],
    fileParallelism: group !== 'serial',
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
