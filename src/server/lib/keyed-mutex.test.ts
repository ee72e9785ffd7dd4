import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('KeyedMutex', () => {
  it('runs tasks of one key one at a time, in order, and other keys alongside', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([mutex.run('a', task('a1')), mutex.run('a', task('a2')), mutex.run('b', task('b1'))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(mutex.size).toBe(0);
  });

  it('a failing task rejects its caller and does not block the next', async () => {
    const mutex = new KeyedMutex();
    const failed = mutex.run('a', async () => {
      throw new Error('boom');
    });
    const next = mutex.run('a', async () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    expect(mutex.size).toBe(0);
  });
});
