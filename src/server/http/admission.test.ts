import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAdmission } from './admission.js';

/**
 * The door (decision 058): at most `limit` API requests in flight; one more is answered 503
 * with Retry-After at once, and a place is given back when an answer is sent or cut.
 */
describe('registerAdmission', () => {
  let release: () => void = () => undefined;
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    release();
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  /** A gate the slow route waits at, opened by `release()`. */
  function gateOf() {
    let open: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => (open = resolve));
    release = open;
    return { promise };
  }

  async function appWithLimit(limit: number) {
    const app = Fastify();
    apps.push(app);
    registerAdmission(app, { limit });
    let opened = 0;
    let gate = gateOf();
    app.get('/api/slow', async () => {
      opened += 1;
      await gate.promise;
      return { ok: true };
    });
    app.get('/api/health', async () => ({ ok: true }));
    app.get('/dashboard', async () => 'page');
    await app.ready();
    return {
      app,
      opened: () => opened,
      reopen: () => {
        gate = gateOf();
      },
    };
  }

  it('answers the request over the limit 503 with Retry-After and the busy message, before its route runs', async () => {
    const { app, opened } = await appWithLimit(2);
    const held = [app.inject('/api/slow'), app.inject('/api/slow')];
    await expect.poll(opened).toBe(2);
    const refused = await app.inject({ url: '/api/slow', headers: { 'accept-language': 'en' } });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json()).toEqual({ message: expect.stringMatching(/^[A-Z].{10,}$/), code: 'BUSY' });
    expect(opened()).toBe(2);
    // The health check and what is not the API are never turned away.
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/dashboard')).statusCode).toBe(200);
    release();
    expect((await Promise.all(held)).map((r) => r.statusCode)).toEqual([200, 200]);
  });

  it('gives the places back as answers leave: a full round, then another, all admitted', async () => {
    const { app, opened, reopen } = await appWithLimit(3);
    for (let round = 0; round < 3; round++) {
      const held = [1, 2, 3].map(() => app.inject('/api/slow'));
      await expect.poll(opened).toBe(3 * (round + 1));
      release();
      expect((await Promise.all(held)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
      reopen();
    }
  });

  it('gives a place back when the client goes away before its answer', async () => {
    const { app, opened } = await appWithLimit(1);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    const gone = new AbortController();
    const first = fetch(`http://127.0.0.1:${address.port}/api/slow`, { signal: gone.signal }).catch(() => 'aborted');
    await expect.poll(opened).toBe(1);
    expect((await fetch(`http://127.0.0.1:${address.port}/api/slow`)).status).toBe(503);
    gone.abort();
    expect(await first).toBe('aborted');
    // The cut connection's place is free again (once the server has seen it close): a request
    // reaches the route instead of the 503.
    const admitted = async () => {
      const seen = opened();
      const status = fetch(`http://127.0.0.1:${address.port}/api/slow`).then((r) => r.status);
      for (;;) {
        if (opened() > seen) return 'admitted';
        const answered = await Promise.race([status, new Promise((r) => setTimeout(r, 10, 'waiting'))]);
        if (answered !== 'waiting') return answered;
      }
    };
    await expect.poll(admitted, { timeout: 5_000, interval: 20 }).toBe('admitted');
  });
});
