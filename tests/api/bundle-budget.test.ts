import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server-process.js';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'scripts', 'check-bundle-budget.mjs');

/** A built web app whose pages load `entryBytes` of incompressible JavaScript plus a preloaded chunk. */
async function fakeBuild(dir: string, entryBytes: number) {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'assets', 'entry.js'), randomBytes(entryBytes).toString('base64'));
  await writeFile(path.join(dir, 'assets', 'vendor.js'), 'export const x = 1;'.repeat(100));
  await writeFile(path.join(dir, 'assets', 'lazy.js'), randomBytes(200_000).toString('base64'));
  const html = `<!doctype html><html><head>
    <script type="module" crossorigin src="/assets/entry.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor.js">
    <link rel="stylesheet" href="/assets/index.css">
  </head><body><div id="root"></div></body></html>`;
  await writeFile(path.join(dir, 'index.html'), html);
  await writeFile(path.join(dir, 'login.html'), html);
}

async function check(dir: string, budgetKb: number) {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, dir, '--budget-kb', String(budgetKb)]);
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('the login JavaScript budget check (npm test runs it on the real build)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bicielis-budget-'));
    // ~40 KB of base64 from random bytes: it compresses to about 30 KB, whatever the level.
    await fakeBuild(dir, 30_000);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes under the budget, counting scripts and modulepreloads but not lazy chunks', async () => {
    const result = await check(dir, 60);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('/assets/entry.js');
    expect(result.stdout).toContain('/assets/vendor.js');
    expect(result.stdout).not.toContain('/assets/lazy.js');
    expect(result.stdout).toMatch(/PASS {2}login\.html/);
  });

  it('fails when the login page loads more than the budget', async () => {
    const result = await check(dir, 20);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}login\.html: JavaScript before the first screen (29|30)\.\d KB gzip/);
  });
});
