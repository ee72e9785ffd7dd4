import { count } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { auditLog, identitaEsterne, oidcCompletamenti, sessions, users } from '../../src/server/schema.js';
import { createTestApp, type TestContext } from './app.js';
import { startOidcProvider, type LocalOidcProvider } from './oidc-provider.js';

/** The test app's PUBLIC_URL (tests/helpers/app.ts) and so the callback registered at the provider. */
export const TEST_CALLBACK = 'http://localhost:3000/api/auth/oidc/callback';

export interface OidcTestContext {
  ctx: TestContext;
  provider: LocalOidcProvider;
  /** GET /api/auth/oidc/login: the provider's URL it redirects to (checked to be a 302 there). */
  begin(options?: { ritorno?: string; headers?: Record<string, string> }): Promise<string>;
  /** Sends the browser back to the app's callback with the URL the provider redirected to. */
  callback(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The whole dance: begin, sign in at the provider as `sub`, come back. */
  collegeLogin(sub: string, options?: { ritorno?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** The rows a sign-in may write: counted before and after a refusal. */
  counts(): Promise<{ users: number; identitaEsterne: number; sessions: number; oidcCompletamenti: number; auditLog: number }>;
  close(): Promise<void>;
}

let ipCounter = 0;
/** A client address of its own per call: the per-IP failure counters of one test never reach another's. */
export const freshIp = () => `10.49.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export async function oidcTestApp(env: Record<string, string> = {}): Promise<OidcTestContext> {
  const provider = await startOidcProvider({ clientRedirectUri: TEST_CALLBACK });
  const ctx = await createTestApp({ env: { ...provider.env, ...env } });
  const begin: OidcTestContext['begin'] = async (options = {}) => {
    const query = options.ritorno ? `?ritorno=${encodeURIComponent(options.ritorno)}` : '';
    const res = await ctx.app.inject({ method: 'GET', url: `/api/auth/oidc/login${query}`, headers: options.headers ?? {} });
    if (res.statusCode !== 302 || !res.headers.location?.startsWith(provider.issuer)) {
      throw new Error(`the login did not go to the provider: ${res.statusCode} ${res.headers.location ?? res.body}`);
    }
    return res.headers.location;
  };
  const callback: OidcTestContext['callback'] = (url, headers = {}) => {
    const parsed = new URL(url);
    return ctx.app.inject({ method: 'GET', url: parsed.pathname + parsed.search, headers, remoteAddress: freshIp() });
  };
  const table = async (t: typeof users | typeof identitaEsterne | typeof sessions | typeof oidcCompletamenti | typeof auditLog) =>
    (await ctx.database.db.select({ n: count() }).from(t))[0]!.n;
  return {
    ctx,
    provider,
    begin,
    callback,
    async collegeLogin(sub, options = {}) {
      provider.loginAs(sub);
      return callback(await provider.authorize(await begin(options)), options.headers);
    },
    async counts() {
      return {
        users: await table(users),
        identitaEsterne: await table(identitaEsterne),
        sessions: await table(sessions),
        oidcCompletamenti: await table(oidcCompletamenti),
        auditLog: await table(auditLog),
      };
    },
    async close() {
      await ctx.close();
      await provider.close();
    },
  };
}
