import fsCallbacks from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';

/**
 * What the server sends a phone (issue 11): the pre-compressed build with the right
 * Content-Encoding and Vary, compressed JSON over 1 KB, immutable hashed assets and
 * revalidated pages, and each page's own pre-rendered HTML.
 */
let ctx: TestContext;
let webRoot: string;
const SCRIPT = `export const text = ${JSON.stringify('BiciElis '.repeat(400))};\n`;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-delivery-'));
  await fs.mkdir(path.join(webRoot, 'assets'));
  await fs.writeFile(path.join(webRoot, 'index.html'), '<!doctype html><div id="root" data-prerendered="loading"></div>');
  await fs.writeFile(path.join(webRoot, 'login.html'), '<!doctype html><div id="root" data-prerendered="login"></div>');
  await fs.writeFile(path.join(webRoot, 'dashboard.html'), '<!doctype html><link rel="modulepreload" href="/assets/dashboard.js">');
  await fs.writeFile(path.join(webRoot, 'sw.js'), 'self.skipWaiting();');
  const asset = path.join(webRoot, 'assets', 'index-abc123.js');
  await fs.writeFile(asset, SCRIPT);
  // As scripts/precompress.mjs leaves them.
  await fs.writeFile(`${asset}.br`, zlib.brotliCompressSync(SCRIPT));
  await fs.writeFile(`${asset}.gz`, zlib.gzipSync(SCRIPT));
  ctx = await createTestApp({
    deps: { webRoot },
    register(app) {
      app.get('/api/test/large', async () => Array.from({ length: 100 }, (_, i) => ({ id: i, modello: 'City Bike' })));
      app.get('/api/test/small', async () => ({ ok: true }));
    },
  });
});

afterAll(async () => {
  await ctx.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});

describe('static assets', () => {
  it('sends the brotli copy to a browser that takes it, gzip to one that takes only gzip, the file to others', async () => {
    const url = '/assets/index-abc123.js';
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 5);

    const gz = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await ctx.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('marks hashed assets immutable, and the pages and the service worker to be revalidated', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/login', '/dashboard', '/sw.js']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves each page the HTML with its own first screen: the login form at /login, the loading state elsewhere', async () => {
    for (const url of ['/login', '/login/', '/login?next=1']) {
      expect((await ctx.app.inject({ method: 'GET', url })).body, url).toContain('data-prerendered="login"');
    }
    for (const url of ['/dashboard', '/dashboard/', '/dashboard?x=1']) {
      expect((await ctx.app.inject({ method: 'GET', url })).body, url).toContain('/assets/dashboard.js');
    }
    // /admin has no admin.html in this build: the loading page, as for every other address.
    for (const url of ['/', '/admin', '/registrazione', '/admin/statistiche', '/loginx', '/dashboardx']) {
      expect((await ctx.app.inject({ method: 'GET', url })).body, url).toContain('data-prerendered="loading"');
    }
  });

  it('answers a page or a missing file without looking its address up on the disk: each built file is a route (issue 33)', async () => {
    // A wildcard route would stat and read the folder for every page's address first.
    expect(ctx.app.hasRoute({ method: 'GET', url: '/*' })).toBe(false);
    expect(ctx.app.hasRoute({ method: 'GET', url: '/assets/index-abc123.js' })).toBe(true);
    const stats: string[] = [];
    const watched = ['stat', 'lstat', 'readdir'] as const;
    const originals = watched.map((name) => [name, fsCallbacks[name]] as const);
    for (const [name, original] of originals) {
      (fsCallbacks as unknown as Record<string, unknown>)[name] = (file: unknown, ...rest: unknown[]) => {
        stats.push(`${name} ${String(file)}`);
        return (original as (...a: unknown[]) => unknown)(file, ...rest);
      };
    }
    try {
      for (const url of ['/dashboard', '/assets/missing-123.js']) {
        await ctx.app.inject({ method: 'GET', url: '/api/test/small' });
        stats.length = 0;
        const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
        expect(res.statusCode, url).toBe(200);
        // The page's own file is read to send it (this test app has no server render);
        // nothing is looked up under the address itself, and no folder is read.
        const lookups = stats.filter((s) => s.startsWith('readdir') || /(dashboard|missing-123\.js)(\.br|\.gz)?$/.test(s));
        expect(lookups, url).toEqual([]);
      }
    } finally {
      for (const [name, original] of originals) (fsCallbacks as unknown as Record<string, unknown>)[name] = original;
    }
  });
});

describe('JSON answers', () => {
  it('compresses an answer over 1 KB for a browser that accepts it', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/test/large', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const body = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString()) as unknown[];
    expect(body).toHaveLength(100);

    const gz = await ctx.app.inject({ method: 'GET', url: '/api/test/large', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toHaveLength(100);
  });

  it('leaves small answers, and clients that do not ask, uncompressed', async () => {
    const small = await ctx.app.inject({ method: 'GET', url: '/api/test/small', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/test/large' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toHaveLength(100);
  });

  it('compresses error answers too without losing their message', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/non-esiste', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(404);
    const text = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.rawPayload).toString() : res.body;
    expect(JSON.parse(text)).toEqual({ message: 'Risorsa non trovata', code: 'NOT_FOUND' });
  });
});
