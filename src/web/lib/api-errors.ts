import type { Translate } from '../../shared/i18n/index';
import { ApiError, bodyMessage } from './api';

/**
 * The message the server put in its error body (`{ message }`), when there is one. A
 * network failure, or an answer without a JSON message (a proxy's HTML page), gives
 * `undefined`, so each screen can show its own fallback text.
 */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? bodyMessage(error.body) : undefined;
}

/** Per-field messages of a 400 (`{ fields: { email: '…' } }`), when the server sent them. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return {};
  const { fields } = error.body as { fields?: unknown };
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** True when the request never got an answer (offline, DNS, server down). */
export function isNetworkFailure(error: unknown): boolean {
  return !(error instanceof ApiError);
}

/** The recovery screen's error (spec §8): the server's message, else its own texts. */
export function recoveryErrorMessage(error: unknown, t: Translate): string {
  if (isNetworkFailure(error)) return t('loginPage.connectionError');
  return serverMessage(error) ?? t('recoveryPage.sendFailed');
}
