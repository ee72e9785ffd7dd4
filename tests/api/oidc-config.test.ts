import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/server/config.js';
import { createTestApp, testConfig } from '../helpers/app.js';
import { cookieFrom, createLoggedInUser } from '../helpers/factories.js';
import { TEST_CALLBACK } from '../helpers/oidc-app.js';
import { startOidcProvider } from '../helpers/oidc-provider.js';

/**
 * The college account's configuration (issue 49): all of issuer, client id and secret or none,
 * an http:// issuer only on this machine; not configured, its routes answer 404 and the login
 * page offers no button; a provider away does not stop the app, and is found once it is back.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FULL = { OIDC_ISSUER_URL: 'https://login.example.org/tenant/v2.0', OIDC_CLIENT_ID: 'bicielis', OIDC_CLIENT_SECRET: 's3cret-value' };

describe('configuration', () => {
  it('wants the issuer, the client id and its secret all together, naming what is missing', () => {
    expect(testConfig().oidc).toBeUndefined();
    expect(testConfig(FULL).oidc).toEqual({ issuerUrl: FULL.OIDC_ISSUER_URL, clientId: 'bicielis', clientSecret: 's3cret-value', label: null });
    expect(testConfig({ ...FULL, OIDC_LABEL: '  Accedi con Microsoft ' }).oidc?.label).toBe('Accedi con Microsoft');
    for (const missing of Object.keys(FULL)) {
      const partial: Record<string, string> = { ...FULL, [missing]: '' };
      expect(() => testConfig(partial), missing).toThrow(ConfigError);
      expect(() => testConfig(partial), missing).toThrow(missing);
    }
  });

  it('takes an http:// issuer only on a loopback host', () => {
    for (const issuer of ['http://localhost:9000', 'http://127.0.0.1:9000/realms/x', 'http://[::1]:9000']) {
      expect(testConfig({ ...FULL, OIDC_ISSUER_URL: issuer }).oidc?.issuerUrl, issuer).toBe(issuer);
    }
    for (const issuer of ['http://login.example.org', 'http://10.0.0.5:8080', 'ftp://login.example.org', 'not a url']) {
      expect(() => testConfig({ ...FULL, OIDC_ISSUER_URL: issuer }), issuer).toThrow(/OIDC_ISSUER_URL/);
    }
  });

  it('a partial configuration stops the start: exit code 1, the variables named', () => {
    const run = spawnSync('node', ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: 'postgres://unused@localhost/unused', OIDC_ISSUER_URL: FULL.OIDC_ISSUER_URL, OIDC_CLIENT_ID: 'bicielis', OIDC_CLIENT_SECRET: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('OIDC_CLIENT_SECRET');
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

it('not configured: no button in /api/config, 404 on the sign-in routes, the profile says nothing is linked', async () => {
  const ctx = await createTestApp();
  try {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ accessoCollegio: null });
    for (const [method, url] of [
      ['GET', '/api/auth/oidc/login'],
      ['GET', '/api/auth/oidc/callback?code=x&state=y'],
      ['GET', '/api/auth/oidc/completamento'],
      ['POST', '/api/auth/oidc/completamento'],
    ] as const) {
      const res = await ctx.app.inject({ method, url, ...(method === 'POST' ? { payload: { nome: 'A', cognome: 'B', privacy: true } } : {}) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'OIDC_NOT_CONFIGURED', message: expect.stringContaining('non è configurato') });
    }
    const { cookie } = await createLoggedInUser(ctx.app, ctx.database.db);
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/profilo/account-collegio', headers: { cookie } });
    expect(profile.json()).toEqual({ collegato: null, password: true, etichetta: null });
  } finally {
    await ctx.close();
  }
});

it('starts with the provider away, sends the login back with errore, and finds the provider once it is up', async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const env = { OIDC_ISSUER_URL: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: 'bicielis-test', OIDC_CLIENT_SECRET: 'segreto-di-prova-123', OIDC_LABEL: 'Accedi con Keycloak' };
  const ctx = await createTestApp({ env });
  try {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ accessoCollegio: { etichetta: 'Accedi con Keycloak' } });
    const away = await ctx.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    expect(away.statusCode).toBe(302);
    expect(away.headers.location).toBe('/login?accesso=errore');
    const provider = await startOidcProvider({ clientRedirectUri: TEST_CALLBACK, port, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET });
    try {
      const back = await ctx.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/`));
      expect(cookieFrom(back)).toBeUndefined();
    } finally {
      await provider.close();
    }
  } finally {
    await ctx.close();
  }
});
