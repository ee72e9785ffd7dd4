import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, readPostmasterPid } from './server-process.js';

/**
 * PostgreSQL creates `postmaster.pid` and writes its lines after. CI once read it in between, as
 * pid 0 (which `kill(0, 0)` calls alive: it is the caller's process group) and port NaN.
 */
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-pidfile-'));
afterAll(() => fs.rm(dir, { recursive: true, force: true }));
const write = (text: string) => fs.writeFile(path.join(dir, 'postmaster.pid'), text);

describe('readPostmasterPid', () => {
  it('rejects a file not yet written, or written up to the pid only, and reads a whole one', async () => {
    await expect(readPostmasterPid(dir)).rejects.toThrow();
    await write('');
    await expect(readPostmasterPid(dir)).rejects.toThrow('not written yet');
    await write('4242\n/data/postgres\n');
    await expect(readPostmasterPid(dir)).rejects.toThrow('not written yet');
    await write('4242\n/data/postgres\n1764500000\n45101\n/tmp\n127.0.0.1\n  1234 5\nready   \n');
    await expect(readPostmasterPid(dir)).resolves.toEqual({ pid: 4242, port: 45101 });
  });

  it('isAlive: this process is, pid 0 and a negative pid are no process', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(0)).toBe(false);
    expect(isAlive(-1)).toBe(false);
  });
});
