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

describe('the dashboard page has a budget of its own', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bicielis-budget-dash-'));
    await fakeBuild(dir, 30_000);
    // The dashboard preloads its screen's chunks: here ~75 KB gzip of them.
    await writeFile(path.join(dir, 'assets', 'screen.js'), randomBytes(75_000).toString('base64'));
    await writeFile(
      path.join(dir, 'dashboard.html'),
      `<!doctype html><html><head><script type="module" src="/assets/entry.js"></script>
       <link rel="modulepreload" href="/assets/screen.js"></head><body></body></html>`,
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('fails when the dashboard loads more than its budget, whatever the login page does', async () => {
    const { stdout: passing } = await run(process.execPath, [SCRIPT, dir, '--budget-kb', '60', '--dashboard-budget-kb', '120']);
    expect(passing).toMatch(/PASS {2}dashboard\.html/);
    const failing = await run(process.execPath, [SCRIPT, dir, '--budget-kb', '60', '--dashboard-budget-kb', '80']).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/PASS {2}login\.html/);
    expect(failing.stdout).toMatch(/FAIL {2}dashboard\.html: JavaScript before the first screen (8\d|9\d|10\d)\.\d KB gzip/);
  });

  it('counts the scripts a server-rendered page lists for after its first paint (after-paint.ts)', async () => {
    const afterPaint = path.join(dir, 'after-paint');
    await fakeBuild(afterPaint, 30_000);
    await writeFile(path.join(afterPaint, 'assets', 'screen.js'), randomBytes(75_000).toString('base64'));
    await writeFile(path.join(afterPaint, 'assets', 'after-paint.js'), 'export{};');
    await writeFile(
      path.join(afterPaint, 'dashboard.html'),
      `<!doctype html><html><head><script type="module" crossorigin src="/assets/after-paint.js"></script>
       <script type="application/json" id="bicielis-scripts">["/assets/entry.js","/assets/screen.js"]</script></head><body></body></html>`,
    );
    const failing = await run(process.execPath, [SCRIPT, afterPaint, '--budget-kb', '60', '--dashboard-budget-kb', '80']).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('/assets/screen.js');
    expect(failing.stdout).toContain('/assets/after-paint.js');
    expect(failing.stdout).toMatch(/FAIL {2}dashboard\.html: JavaScript before the first screen (8\d|9\d|10\d)\.\d KB gzip/);
  });
});
