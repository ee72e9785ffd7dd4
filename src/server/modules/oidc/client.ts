import type * as oidc from 'openid-client';
import type { Config } from '../../config.js';

let loading: Promise<typeof oidc> | undefined;
/**
 * openid-client (and jose under it), loaded on the first sign-in with the college's account, not
 * at start: a process that only takes bookings never needs them, and each process carried their
 * code in its resident memory (issues 50 and 51: about 13 MB of RSS, 1.6 MB of heap, measured
 * alone). Every later call gets the same module.
 */
export const openidClient = (): Promise<typeof oidc> => (loading ??= import('openid-client'));

export type OidcSettings = NonNullable<Config['oidc']>;

/** The scopes asked of the provider: who the person is, their email and their name. */
export const OIDC_SCOPES = 'openid email profile';

/** How long one call to the provider (discovery, token, userinfo) may take, in seconds. */
const PROVIDER_TIMEOUT_S = 10;

/**
 * The provider as this process knows it (issue 49): its metadata is discovered on first use and
 * kept. A failed discovery is not kept, so the next login tries again: the app starts, and keeps
 * answering, while the provider is away. An `http://` issuer (allowed only on a loopback host by
 * the configuration) is spoken to over plain HTTP.
 */
export class OidcClient {
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(readonly settings: OidcSettings) {}

  configuration(): Promise<oidc.Configuration> {
    this.discovered ??= this.discover().catch((err: unknown) => {
      this.discovered = null;
      throw err;
    });
    return this.discovered;
  }

  private async discover(): Promise<oidc.Configuration> {
    const insecure = new URL(this.settings.issuerUrl).protocol === 'http:';
    const oidc = await openidClient();
    return oidc.discovery(
      new URL(this.settings.issuerUrl),
      this.settings.clientId,
      undefined,
      oidc.ClientSecretPost(this.settings.clientSecret),
      { timeout: PROVIDER_TIMEOUT_S, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
    );
  }
}

/** What the provider says of the person, from the ID token and, when it leaves them out, its userinfo. */
export interface ProviderClaims {
  issuer: string;
  sub: string;
  email: string | null;
  emailVerified: boolean;
  nome: string | null;
  cognome: string | null;
}

const text = (value: unknown, max: number) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null);

/**
 * Exchanges the provider's answer (the callback's URL) for the person's claims: `state`, `nonce`
 * and PKCE's verifier checked by openid-client. Throws on any failure (the caller refuses).
 */
export async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<ProviderClaims> {
  const oidc = await openidClient();
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.codeVerifier,
  });
  const idToken = tokens.claims();
  if (!idToken) throw new Error('no ID token');
  let claims: Record<string, unknown> = { ...idToken };
  if (claims.email === undefined || claims.email_verified === undefined) {
    // Some providers give the email only at userinfo; its subject must be the ID token's.
    const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    claims = { ...info, ...Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)), sub: idToken.sub };
  }
  return {
    issuer: idToken.iss,
    sub: idToken.sub,
    email: text(claims.email, 254)?.toLowerCase() ?? null,
    // Only a literal true: a string "true" or an absent claim is not a verified email.
    emailVerified: claims.email_verified === true,
    nome: text(claims.given_name, 100),
    cognome: text(claims.family_name, 100),
  };
}
