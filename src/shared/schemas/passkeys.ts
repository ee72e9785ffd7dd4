import { z } from '../zod-it.js';
import { idParam } from './ids.js';

/**
 * Passkeys (issue 49): what the browser sends back from `navigator.credentials` (SimpleWebAuthn's
 * JSON shapes, checked here only for their form: the server's verification judges the rest),
 * and what the profile's list shows. Shared by the routes and the screens.
 */

/** Base64url, as WebAuthn's JSON gives every binary field; bounded so nothing huge is parsed. */
const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/);

const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);
const attachment = z.enum(['cross-platform', 'platform']);
const extensionResults = z.record(z.string().max(64), z.unknown());

/** `RegistrationResponseJSON` of `startRegistration()`. */
export const registrationResponseSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(65536),
    authenticatorData: base64url(65536).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
});

/** `AuthenticationResponseJSON` of `startAuthentication()`. */
export const authenticationResponseSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(65536),
    signature: base64url(4096),
    userHandle: base64url(1024).optional(),
  }),
});

/** POST /api/passkeys/registrazione. */
export const passkeyRegistrationSchema = z.object({ risposta: registrationResponseSchema });

/** POST /api/auth/passkey and POST /api/login/passkey. */
export const passkeyAuthenticationSchema = z.object({ risposta: authenticationResponseSchema });

/** PUT /api/passkeys/secondo-fattore. */
export const passkeySecondFactorSchema = z.object({ attivo: z.boolean() });

/** DELETE /api/passkeys/:id. */
export const passkeyIdParamsSchema = z.object({ id: idParam('schemas.itemNotFound') });

/** One passkey of the profile's list. */
export interface PasskeyDto {
  id: number;
  /** The device it was made on: "Chrome su Android". */
  nome: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; null: never used to sign in yet. */
  ultimoUsoAt: string | null;
  /** Synced by its provider (a password manager, iCloud Keychain…) rather than bound to one device. */
  sincronizzata: boolean;
}

/** GET /api/passkeys and PUT /api/passkeys/secondo-fattore. */
export interface PasskeyListDto {
  passkeys: PasskeyDto[];
  /** The admin chose a passkey as second factor (the login's code step accepts one). */
  secondoFattore: boolean;
}
