/**
 * A local OpenID provider for the tests (issue 49): `oidc-provider` on 127.0.0.1, never a real
 * one. One confidential client (client_secret_post, PKCE required, the one redirect URI given),
 * accounts from an in-memory map the test controls, and no HTML: the provider's interaction
 * page signs in, at once, the account named by `loginAs` (then the consent is granted too).
 *
 *   const provider = await startOidcProvider({ clientRedirectUri: 'http://localhost:3000/api/auth/oidc/callback' });
 *   provider.env;                 // { OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } for the app
 *   provider.setAccount('sub-1', { email: 'a@elis.org', email_verified: true, given_name: 'Ada', family_name: 'Rossi' });
 *   provider.loginAs('sub-1');    // who the next interactions sign in (null: the person says no, access_denied)
 *   const callback = await provider.authorize(locationOfTheAppsLogin);
 *   // → the app's callback URL with ?code&state&iss, reached by following the provider's
 *   //   redirects as a browser would (its cookies kept for this one sign-in)
 *   await provider.close();
 *
 * A browser (Playwright) may instead just follow the redirects itself: the interaction URL
 * answers a redirect too. A browser context that already signed in at the provider keeps its
 * provider session (the next login skips the interaction): use a fresh context per person.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The claims the provider gives for a person (scopes `email` and `profile`). */
export interface AccountClaims {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface LocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The app's environment for this provider. */
  env: { OIDC_ISSUER_URL: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
  setAccount(sub: string, claims: AccountClaims): void;
  /** Who the next interactions sign in; null: the person refuses (the app gets `error=access_denied`). */
  loginAs(sub: string | null): void;
  /** Follows the provider's redirects from an authorization URL and returns the client redirect it ends at. */
  authorize(authorizationUrl: string): Promise<string>;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  clientRedirectUri: string;
  port?: number;
  clientId?: string;
  clientSecret?: string;
}): Promise<LocalOidcProvider> {
  const clientId = options.clientId ?? 'bicielis-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const accounts = new Map<string, AccountClaims>();
  let next: string | null = null;

  // The port first, so the issuer can name it; the provider answers once it exists.
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.clientRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    // Set, so the provider does not note its defaults on every sign-in.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const claims = accounts.get(sub);
      return claims ? { accountId: sub, claims: () => ({ sub, ...claims }) } : undefined;
    },
  });
  const callback = provider.callback();

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const accountId = details.prompt.name === 'login' ? next : (details.session?.accountId ?? null);
    if (!accountId || !accounts.has(accountId)) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'no account' }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  handler = (req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    callback(req, res);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    env: { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    setAccount: (sub, claims) => void accounts.set(sub, { ...claims }),
    loginAs: (sub) => {
      next = sub;
    },
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        if (url.startsWith(options.clientRedirectUri)) return url;
        const res = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair!.indexOf('=');
          jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the provider answered ${res.status} at ${url}: ${await res.text()}`);
        url = new URL(location, url).href;
      }
      throw new Error('too many redirects at the provider');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
