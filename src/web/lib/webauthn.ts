/**
 * Passkeys in the browser (issue 49): the ceremonies of @simplewebauthn/browser around the
 * server's options and answers. This module and the library are a chunk of their own, loaded
 * by `import()` only when a passkey is used (the login's first download has no room for them).
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { SessionUser } from '../../shared/api-types';
import { apiRequest } from './api';

const loadLibrary = () => import('@simplewebauthn/browser');

/** Where a sign-in by passkey asks its options and sends its answer. */
export interface PasskeyEndpoints {
  options: string;
  verify: string;
}

/** The login (anonymous, discoverable passkeys): the button and the email field's autofill. */
export const LOGIN_ENDPOINTS: PasskeyEndpoints = { options: '/api/auth/passkey/opzioni', verify: '/api/auth/passkey' };
/** The login's second step, with the two_factor pending cookie: that person's passkeys only. */
export const SECOND_FACTOR_ENDPOINTS: PasskeyEndpoints = { options: '/api/login/passkey/opzioni', verify: '/api/login/passkey' };

/**
 * A ceremony that ended without an answer from the person: dismissed, timed out, or aborted
 * (another ceremony began, the form was used). Nothing to report as an error.
 */
export function ceremonyCancelled(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === 'NotAllowedError' || error.name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED';
}

/** A passkey already on this device for this account (`excludeCredentials` matched). */
export function alreadyRegistered(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED';
}

/**
 * Signs in with a passkey: the server's options, the browser's ceremony, the answer checked by
 * the server (the session user). `autofill`: the conditional request of the email field, which
 * waits until the person picks a passkey among the field's suggestions. `stillWanted` is asked
 * once the options are in, before the ceremony begins.
 */
export async function signInWithPasskey(
  endpoints: PasskeyEndpoints,
  { autofill = false, stillWanted = () => true }: { autofill?: boolean; stillWanted?: () => boolean } = {},
): Promise<SessionUser> {
  const [library, optionsJSON] = await Promise.all([
    loadLibrary(),
    apiRequest<PublicKeyCredentialRequestOptionsJSON>('POST', endpoints.options),
  ]);
  // Given up while the options came (the form was sent meanwhile): no ceremony to abort later.
  if (!stillWanted()) throw new DOMException('Passkey request given up', 'AbortError');
  const risposta = await library.startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  return apiRequest<SessionUser>('POST', endpoints.verify, { risposta });
}

/** Whether this browser offers passkeys in an email field's suggestions (conditional mediation). */
export async function autofillSupported(): Promise<boolean> {
  const library = await loadLibrary();
  return library.browserSupportsWebAuthnAutofill();
}

/** Ends the running ceremony, if any (the autofill's request when the form is used). */
export async function cancelCeremony(): Promise<void> {
  const library = await loadLibrary();
  library.WebAuthnAbortService.cancelCeremony();
}

/** Makes a passkey for the logged-in person: options, the browser's ceremony, then the server stores it. */
export async function registerPasskey<T>(): Promise<T> {
  const [library, optionsJSON] = await Promise.all([
    loadLibrary(),
    apiRequest<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/passkeys/registrazione/opzioni'),
  ]);
  const risposta = await library.startRegistration({ optionsJSON });
  return apiRequest<T>('POST', '/api/passkeys/registrazione', { risposta });
}
