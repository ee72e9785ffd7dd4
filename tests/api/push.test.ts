import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impostazioni, pushSubscriptions } from '../../src/server/schema.js';
import { createPushSender } from '../../src/server/modules/notifications/push.js';
import { person, type Person } from '../helpers/admin-fixtures.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { collectedLogLines } from '../helpers/leak-scan.js';

/**
 * Web push (decision 022): subscriptions through the API, and the sender against a local
 * HTTP server standing in for a browser's push service, which checks the request as a push
 * service would (VAPID JWT, aes128gcm, TTL) and decrypts the message with the subscription's
 * private key. http_ece is the RFC 8188 implementation web-push itself encrypts with.
 */
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ReturnType<typeof createECDH>; authSecret: string }): Buffer;
};

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let ctx: TestContext;
let service: Server;
let base: string;
const received: Received[] = [];
/** What the stand-in push service answers, by path. */
const STATUS: Record<string, number> = { '/ok': 201, '/gone': 410, '/missing': 404, '/broken': 500 };

beforeAll(async () => {
  ctx = await createTestApp();
  service = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').replace(/\/[^/]*$/, '') || '/';
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = STATUS[path] ?? 400;
      res.end();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => service?.close(resolve));
  await ctx?.close();
});

/** A browser's subscription: its key pair (kept to decrypt) and what it would send us. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

async function subscribeDirectly(who: Person, path: string) {
  const keys = browserKeys();
  const endpoint = `${base}${path}/${randomBytes(8).toString('hex')}`;
  await ctx.database.db.insert(pushSubscriptions).values({ userId: who.id, endpoint, p256dh: keys.p256dh, auth: keys.auth });
  return { ...keys, endpoint };
}

const subscriptionsOf = (userId: number) =>
  ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

const call = (who: Person | null, method: 'POST' | 'DELETE', payload: object) =>
  ctx.app.inject({ method, url: '/api/push/iscrizioni', payload, ...(who ? { headers: { cookie: who.cookie } } : {}) });

describe('POST and DELETE /api/push/iscrizioni', () => {
  it('records a subscription (201), replaces it by endpoint, and removes it (204)', async () => {
    const who = await person(ctx);
    const endpoint = 'https://push.example.net/send/abc123';
    const first = browserKeys();
    const res = await call(who, 'POST', { endpoint, expirationTime: null, keys: { p256dh: first.p256dh, auth: first.auth } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Notifiche attivate');
    const again = browserKeys();
    expect((await call(who, 'POST', { endpoint, keys: { p256dh: again.p256dh, auth: again.auth } })).statusCode).toBe(201);
    const rows = await subscriptionsOf(who.id);
    expect(rows.map((r) => [r.endpoint, r.p256dh, r.auth])).toEqual([[endpoint, again.p256dh, again.auth]]);

    // Another user cannot remove it.
    const other = await person(ctx);
    expect((await call(other, 'DELETE', { endpoint })).statusCode).toBe(204);
    expect(await subscriptionsOf(who.id)).toHaveLength(1);
    // The same browser, now used by another account, moves to that account.
    expect((await call(other, 'POST', { endpoint, keys: { p256dh: again.p256dh, auth: again.auth } })).statusCode).toBe(201);
    expect(await subscriptionsOf(who.id)).toHaveLength(0);
    expect(await subscriptionsOf(other.id)).toHaveLength(1);
    expect((await call(other, 'DELETE', { endpoint })).statusCode).toBe(204);
    expect(await subscriptionsOf(other.id)).toHaveLength(0);
  });

  it('refuses a non-https endpoint, bad keys, a missing field, in Italian; 401 without a session', async () => {
    const who = await person(ctx);
    const { p256dh, auth } = browserKeys();
    const bad: object[] = [
      { endpoint: 'http://push.example.net/x', keys: { p256dh, auth } },
      { endpoint: 'javascript:alert(1)', keys: { p256dh, auth } },
      { endpoint: 'https://127.0.0.1/x', keys: { p256dh, auth } },
      { endpoint: 'https://push.example.net/x', keys: { p256dh: 'non base64!', auth } },
      { endpoint: 'https://push.example.net/x', keys: { p256dh, auth: 'a' } },
      { endpoint: 'https://push.example.net/x' },
      { endpoint: `https://push.example.net/${'x'.repeat(3000)}`, keys: { p256dh, auth } },
    ];
    for (const payload of bad) {
      const res = await call(who, 'POST', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().message).toBe('Iscrizione alle notifiche non valida');
    }
    expect(await subscriptionsOf(who.id)).toHaveLength(0);
    expect((await call(null, 'POST', { endpoint: 'https://push.example.net/x', keys: { p256dh, auth } })).statusCode).toBe(401);
  });
});

describe('the push sender', () => {
  it('sends each subscription an encrypted, VAPID-signed message with a TTL; the browser decrypts it', async () => {
    const who = await person(ctx);
    const a = await subscribeDirectly(who, '/ok');
    const b = await subscribeDirectly(who, '/ok');
    const publicKey = (await ctx.app.inject({ method: 'GET', url: '/api/profilo', headers: { cookie: who.cookie } })).json().push.publicKey as string;
    const from = received.length;
    const payload = { title: 'Promemoria', body: 'La tua prenotazione inizia alle 10:00 — bicicletta 12', url: '/dashboard' };
    await ctx.app.deps.push.send(who.id, payload);
    const got = received.slice(from);
    expect(got.map((r) => r.path).sort()).toEqual([a.endpoint, b.endpoint].map((e) => new URL(e).pathname).sort());
    for (const r of got) {
      const keys = r.path === new URL(a.endpoint).pathname ? a : b;
      expect(r.headers['content-encoding']).toBe('aes128gcm');
      expect(r.headers['content-type']).toBe('application/octet-stream');
      expect(r.headers.ttl).toBe('3600');
      expect(r.headers.urgency).toBe('normal');
      const m = /^vapid t=([^,]+), k=(.+)$/.exec(r.headers.authorization ?? '');
      expect(m, r.headers.authorization).not.toBeNull();
      expect(m![2]).toBe(publicKey);
      const [header, claims] = m![1]!.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
      expect(header).toEqual({ typ: 'JWT', alg: 'ES256' });
      expect(claims!.aud).toBe(base);
      expect(claims!.sub).toBe(ctx.config.vapidSubject);
      expect(claims!.exp).toEqual(expect.any(Number));
      const plain = ece.decrypt(r.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth });
      expect(JSON.parse(plain.toString('utf8'))).toEqual(payload);
    }
    expect(await subscriptionsOf(who.id)).toHaveLength(2);
  });

  it('a subscription the service says is gone (410, 404) is deleted; a failing service keeps it and is logged without its path', async () => {
    const who = await person(ctx);
    const ok = await subscribeDirectly(who, '/ok');
    await subscribeDirectly(who, '/gone');
    await subscribeDirectly(who, '/missing');
    const broken = await subscribeDirectly(who, '/broken');
    const logFrom = collectedLogLines.length;
    await expect(ctx.app.deps.push.send(who.id, { title: 'T', body: 'B', url: '/dashboard' })).resolves.toBeUndefined();
    expect((await subscriptionsOf(who.id)).map((s) => s.endpoint).sort()).toEqual([ok.endpoint, broken.endpoint].sort());
    const warnings = collectedLogLines.slice(logFrom).filter((l) => l.includes('notifica push rifiutata'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ status: 500, pushService: new URL(base).host });
    expect(warnings[0]).not.toContain(new URL(broken.endpoint).pathname);
  });

  it('a user without subscriptions: nothing is sent', async () => {
    const who = await person(ctx);
    const from = received.length;
    await ctx.app.deps.push.send(who.id, { title: 'T', body: 'B', url: '/' });
    expect(received.length).toBe(from);
  });

  it('without VAPID_* the key pair is made once and shared by every process on the database', async () => {
    const log = { warn: () => undefined };
    const senders = [1, 2, 3].map(() => createPushSender({ db: ctx.database.db, config: ctx.config, log }));
    const keys = await Promise.all(senders.map((s) => s.publicKey()));
    expect(new Set(keys).size).toBe(1);
    const rows = await ctx.database.db.select().from(impostazioni);
    expect(rows.map((r) => r.chiave).sort()).toEqual(['vapid_private_key', 'vapid_public_key']);
    expect(rows.find((r) => r.chiave === 'vapid_public_key')!.valore).toBe(keys[0]);
  });

  it('with VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY/VAPID_SUBJECT those are used, nothing is stored', async () => {
    const configured = webpush.generateVAPIDKeys();
    const other = await createTestApp({
      env: { VAPID_PUBLIC_KEY: configured.publicKey, VAPID_PRIVATE_KEY: configured.privateKey, VAPID_SUBJECT: 'https://bici.example.org/contatti' },
    });
    try {
      const who = await person(other);
      const profile = await other.app.inject({ method: 'GET', url: '/api/profilo', headers: { cookie: who.cookie } });
      expect(profile.json().push.publicKey).toBe(configured.publicKey);
      const keys = browserKeys();
      const endpoint = `${base}/ok/configured`;
      await other.database.db.insert(pushSubscriptions).values({ userId: who.id, endpoint, p256dh: keys.p256dh, auth: keys.auth });
      const from = received.length;
      await other.app.deps.push.send(who.id, { title: 'T', body: 'B', url: '/' });
      const [r] = received.slice(from);
      expect(r!.headers.authorization).toContain(`k=${configured.publicKey}`);
      const claims = JSON.parse(Buffer.from(r!.headers.authorization!.split(' ')[1]!.split('.')[1]!, 'base64url').toString());
      expect(claims.sub).toBe('https://bici.example.org/contatti');
      expect(await other.database.db.select().from(impostazioni)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
