import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { AUTH_RATE_LIMITS } from '../../src/server/modules/auth/limits.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/schema.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createResident, createUser, DEFAULT_PASSWORD } from '../helpers/factories.js';

let ctx: TestContext;
let dataDir: string;
let ipCounter = 0;
const freshIp = () => `10.3.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-limits-'));
  ctx = await createTestApp({ env: { DATA_DIR: dataDir } });
});

afterAll(async () => {
  await ctx?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const db = () => ctx.database.db;

function post(url: string, payload: object, ip: string) {
  return ctx.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
}

function expectRateLimited(res: LightMyRequestResponse, windowSeconds: number) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Troppi tentativi\. Riprova tra \d+ minuti\.$/) });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('login: 10 failed attempts per email, 50 per client, per 15 minutes', () => {
  it('per email: the 11th attempt is refused even with the right password, from any client', async () => {
    const user = await createUser(db(), { email: 'bersaglio@example.it' });
    for (let i = 0; i < 10; i++) {
      const email = i % 2 === 0 ? user.email : 'BERSAGLIO@Example.it';
      const res = await post('/api/login', { email, password: `sbagliata-${i}` }, freshIp());
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD }, freshIp());
    expectRateLimited(blocked, 15 * 60);
    expect(blocked.headers['set-cookie']).toBeUndefined();

    const other = await createUser(db());
    expect((await post('/api/login', { email: other.email, password: DEFAULT_PASSWORD }, freshIp())).statusCode).toBe(200);
  });

  it('per client: after 50 failures with any emails, that client is refused; another is not', async () => {
    const ip = freshIp();
    for (let i = 0; i < AUTH_RATE_LIMITS.loginFailuresPerIp.max; i++) {
      const res = await post('/api/login', { email: `sconosciuto${i}@example.it`, password: 'x' }, ip);
      expect(res.statusCode).toBe(401);
    }
    const user = await createUser(db());
    expectRateLimited(await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD }, ip), 15 * 60);
    expect((await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD }, freshIp())).statusCode).toBe(200);
  });

  it('successful logins are not counted', async () => {
    const ip = freshIp();
    const user = await createUser(db());
    for (let i = 0; i < 12; i++) {
      expect((await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD }, ip)).statusCode).toBe(200);
    }
    for (let i = 0; i < 9; i++) {
      expect((await post('/api/login', { email: user.email, password: 'sbagliata' }, ip)).statusCode).toBe(401);
    }
    expect((await post('/api/login', { email: user.email, password: DEFAULT_PASSWORD }, ip)).statusCode).toBe(200);
  });
});

describe('register: 10 per hour per client', () => {
  it('refuses the 11th attempt from one client and writes nothing', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/register', { nome: 'A', cognome: 'B', email: `limite${i}@example.it`, password: '123' }, ip);
      expect(res.statusCode).toBe(400);
    }
    const blocked = await post('/api/register', { nome: 'A', cognome: 'B', email: 'limite.ok@example.it', password: 'segreta1' }, ip);
    expectRateLimited(blocked, 60 * 60);
    expect(await db().select().from(users).where(eq(users.email, 'limite.ok@example.it'))).toHaveLength(0);

    const elsewhere = await post('/api/register', { nome: 'A', cognome: 'B', email: 'limite.ok@example.it', password: 'segreta1' }, freshIp());
    expect(elsewhere.statusCode).toBe(201);
  });
});

describe('reset-password: per email and per client', () => {
  it('5 requests per email in 15 minutes, from any client', async () => {
    const user = await createUser(db());
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/reset-password', { email: user.email }, freshIp())).statusCode).toBe(200);
    }
    expectRateLimited(await post('/api/reset-password', { email: user.email.toUpperCase() }, freshIp()), 15 * 60);
    // An unknown email is limited the same way (the answer does not tell which exists).
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/reset-password', { email: 'fantasma@example.it' }, freshIp())).statusCode).toBe(200);
    }
    expectRateLimited(await post('/api/reset-password', { email: 'fantasma@example.it' }, freshIp()), 15 * 60);
  });

  it('10 requests per client in 15 minutes', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/reset-password', { email: `qualcuno${i}@example.it` }, ip)).statusCode).toBe(200);
    }
    expectRateLimited(await post('/api/reset-password', { email: 'ancora@example.it' }, ip), 15 * 60);
    expect((await post('/api/reset-password', { email: 'ancora@example.it' }, freshIp())).statusCode).toBe(200);
  });
});

describe('validate-sigla: 60 per minute per client', () => {
  it('refuses the 61st check from one client', async () => {
    const resident = await createResident(db());
    const ip = freshIp();
    for (let i = 0; i < 60; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/validate-sigla/${resident.sigla}`, remoteAddress: ip });
      expect(res.statusCode).toBe(200);
    }
    const blocked = await ctx.app.inject({ method: 'GET', url: `/api/validate-sigla/${resident.sigla}`, remoteAddress: ip });
    expectRateLimited(blocked, 60);
    const other = await ctx.app.inject({ method: 'GET', url: `/api/validate-sigla/${resident.sigla}`, remoteAddress: freshIp() });
    expect(other.json()).toMatchObject({ valid: true });
  });
});
