import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** What SimpleWebAuthn's CBOR encoder takes. */
type CBORType = Parameters<typeof isoCBOR.encode>[0];

/**
 * A software authenticator for the API tests (issue 49): an ES256 (P-256) key made with
 * node:crypto, 'none' attestation, CBOR (SimpleWebAuthn's own encoder) for the attestation
 * object and the COSE key. It answers what a browser's `navigator.credentials` would give
 * SimpleWebAuthn's browser library, as JSON, and can be told to misbehave (no user
 * verification, a wrong signature, another origin).
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export interface Misbehaviour {
  /** The person was not verified (no PIN, no biometrics): the UV flag is off. */
  noUserVerification?: boolean;
  /** The signature is made over other data. */
  badSignature?: boolean;
  /** The page's origin as the browser reports it (default: the app's). */
  origin?: string;
  /** The counter to report (default: the next one). */
  counter?: number;
  /** Leave out the user handle. */
  noUserHandle?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The user handle the server gave at registration (base64url), returned on each assertion. */
  userHandle: string | null = null;
  rpId: string | null = null;
  counter = 0;

  constructor(
    /** The app's origin (PUBLIC_URL's): `http://localhost:3000` in the tests. */
    readonly origin = 'http://localhost:3000',
    /** A synced passkey (a password manager's): the backup flags are on. */
    readonly synced = false,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE_Key of the public key (kty EC2, alg ES256, crv P-256, x, y). */
  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private flags(uv: boolean, attested: boolean): number {
    return FLAG_UP | (uv ? FLAG_UV : 0) | (this.synced ? FLAG_BE | FLAG_BS : 0) | (attested ? FLAG_AT : 0);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** `startRegistration(options)`: a new credential for these creation options. */
  register(options: PublicKeyCredentialCreationOptionsJSON, misbehave: Misbehaviour = {}): RegistrationResponseJSON {
    this.rpId = options.rp.id ?? new URL(this.origin).hostname;
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([this.flags(!misbehave.noUserVerification, true)]),
      counterBytes(this.counter),
      Buffer.alloc(16), // the AAGUID: none
      idLength,
      this.credentialId,
      Buffer.from(this.coseKey()),
    ]);
    const attestation = new Map<string, CBORType>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map<string, CBORType>());
    attestation.set('authData', authData);
    const attestationObject = isoCBOR.encode(attestation);
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, misbehave.origin ?? this.origin);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal', 'hybrid'] },
    };
  }

  /** `startAuthentication(options)`: an assertion of this credential for these request options. */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, misbehave: Misbehaviour = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? this.rpId ?? new URL(this.origin).hostname;
    this.counter = misbehave.counter ?? this.counter + 1;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(!misbehave.noUserVerification, false)]), counterBytes(this.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, misbehave.origin ?? this.origin);
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const signature = sign('sha256', misbehave.badSignature ? Buffer.concat([signed, Buffer.from([0])]) : signed, this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle && !misbehave.noUserHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}

/** A Chrome on Linux, as the registration names the passkey from it. */
export const CHROME_LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** `name=value` pairs of cookies, for one `cookie` header. */
export const cookies = (...pairs: (string | undefined)[]) => pairs.filter((p): p is string => Boolean(p)).join('; ');

/** The challenge's cookie a response set (`bicielis_webauthn=…`). */
export function webauthnCookie(res: { cookies: { name: string; value: string }[] }): string {
  const cookie = res.cookies.find((c) => c.name === 'bicielis_webauthn' && c.value !== '');
  if (!cookie) throw new Error('no bicielis_webauthn cookie');
  return `${cookie.name}=${cookie.value}`;
}
