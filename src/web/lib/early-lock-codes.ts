import type { RideCodeDto } from '../../shared/schemas/locks';

/**
 * The lock's codes that the page's own small script (boot/early-controls.ts) asked the server for
 * before the app's code came, one per booking at the rack (decision 067). The script shows the
 * code in the card's HTML as soon as the answer comes; the app, once hydrated, takes the same
 * answer here instead of asking again (`useLockCode`), so the server is asked once per open,
 * and the code is kept on the device as any other answer.
 *
 * A booking's entry resolves to the server's answer, or to `null` when there was none to use
 * (a refusal, no network, an answer of another shape): the app then asks in its own way, whose
 * refusals carry their message in the person's language and whose failures fall back to the
 * device's copy.
 */
export type EarlyLockCodes = Map<number, Promise<RideCodeDto | null>>;

declare global {
  interface Window {
    /** Written by boot/early-controls.ts only; read (once per booking) by `takeEarlyLockCode`. */
    bicielisEarlyLockCodes?: EarlyLockCodes;
  }
}

/** The answer the page's script got for this booking, once: a later question goes to the server. */
export function takeEarlyLockCode(bookingId: number): Promise<RideCodeDto | null> | undefined {
  if (typeof window === 'undefined') return undefined;
  const early = window.bicielisEarlyLockCodes;
  const answer = early?.get(bookingId);
  early?.delete(bookingId);
  return answer;
}
