import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startServer, stopGroup, waitForExit } from '../helpers/server-process.js';

/**
 * A checkout and its DATA_DIR inside a folder of mode 700, as for root in /root or in a
 * `mktemp -d` folder (issue 7). As root, PostgreSQL runs as the `postgres` user, which
 * cannot walk through that folder: the binaries of the checkout and the data must still be
 * reached, and no permission outside the checkout and DATA_DIR may be widened.
 * As another user, the same set-up must keep working (PostgreSQL runs as that user).
 */
const asRoot = process.getuid?.() === 0;
let privateRoot: string;
let checkout: string;
let tmp: string;
let binCache: string;

/** The entries of the checkout the app and the Vitest suite need, hard-linked (a copy if links fail). */
const ENTRIES = ['package.json', 'tsconfig.json', 'vitest.config.ts', 'src', 'drizzle', 'tests/helpers', 'tests/api/foundation.test.ts', 'node_modules'];

beforeAll(async () => {
  await fs.mkdir(path.join(ROOT, '.tmp'), { recursive: true });
  privateRoot = await fs.mkdtemp(path.join(ROOT, '.tmp', 'private-'));
  expect(statSync(privateRoot).mode & 0o777).toBe(0o700);
  checkout = path.join(privateRoot, 'bicielis');
  tmp = path.join(privateRoot, 'tmp');
  await fs.mkdir(path.join(checkout, 'tests', 'api'), { recursive: true });
  await fs.mkdir(tmp);
  for (const entry of ENTRIES) {
    const linked = spawnSync('cp', ['-al', path.join(ROOT, entry), path.join(checkout, entry)]);
    if (linked.status !== 0) expect(spawnSync('cp', ['-a', path.join(ROOT, entry), path.join(checkout, entry)]).status).toBe(0);
  }
  // A binaries cache of this test's own, so the copy made for the postgres user is tested
  // from nothing (as on a new machine) and removed after.
  binCache = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-pgbin-'));
}, 120_000);

afterAll(async () => {
  await fs.rm(privateRoot, { recursive: true, force: true });
  await fs.rm(binCache, { recursive: true, force: true });
});

function modeOf(p: string) {
  return statSync(p).mode & 0o777;
}

describe('checkout and DATA_DIR behind a folder of mode 700', () => {
  it('the app starts on its embedded PostgreSQL, twice, with the data in DATA_DIR', { timeout: 120_000 }, async () => {
    const dataDir = path.join(privateRoot, 'data');
    const start = async () => {
      const port = String(await freePort());
      return startServer(
        ['node', '--import', 'tsx', 'src/server/main.ts'],
        {
          PORT: port,
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          SEED_DEMO: 'true',
          TMPDIR: tmp,
          EMBEDDED_PG_CACHE_DIR: binCache,
        },
        90_000,
        checkout,
      );
    };
    for (let run = 1; run <= 2; run++) {
      const server = await start();
      try {
        expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ status: 'ok', db: 'ok' });
        const login = await fetch(`${server.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'residente@bicielis.demo', password: 'residente-demo-2026' }),
        });
        expect(login.status).toBe(200);
      } finally {
        stopGroup(server.child, 'SIGTERM');
        expect(await waitForExit(server.child)).toBe(0);
      }
    }
    // The cluster is where the user asked for it, and nothing above it was opened up.
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(modeOf(privateRoot)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'postgres'))).toBe(0o700);
    expect(await fs.readdir(tmp)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^bicielis-initdb-/)]));
    if (asRoot) {
      // The postgres user could not run the checkout's binaries: they were copied into a
      // folder that only root and the postgres group can open.
      const copies = (await fs.readdir(binCache)).filter((f) => f.startsWith('postgresql-'));
      expect(copies).toHaveLength(1);
      expect(modeOf(binCache)).toBe(0o750);
      expect(statSync(binCache).gid).toBe(Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout));
      expect(statSync(path.join(dataDir, 'postgres')).uid).toBe(Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout));
    }
  });

  it("the test suite's own embedded PostgreSQL starts there too", { timeout: 180_000 }, () => {
    const run = spawnSync(path.join(checkout, 'node_modules', '.bin', 'vitest'), ['run', 'tests/api/foundation.test.ts', '-t', 'health'], {
      cwd: checkout,
      env: { ...process.env, TMPDIR: tmp, EMBEDDED_PG_CACHE_DIR: binCache, TEST_DATABASE_URL: '', CI: 'true', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 170_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output, output).toMatch(/Tests\s+\d+ passed/);
    expect(run.status, output).toBe(0);
    expect(modeOf(privateRoot)).toBe(0o700);
  });
});
