/**
 * The smart-lock provider as the (future) locks module sees it
 * (docs/decisions/043-smart-lock-provider.md): a keypad PIN on one lock, valid for a period,
 * created, moved to another period, deleted. Two implementations: TTLock's cloud API
 * (ttlock-provider.ts) and the simulated provider (simulated-provider.ts), in memory, which
 * the tests can make fail on demand.
 *
 * The PIN is ours: the caller draws it and the provider writes it on the lock (TTLock's
 * "custom passcode"). So the app knows the code before the call, the same code can be
 * written again after a failure, and both providers behave alike.
 */
export type LockProviderName = 'simulated' | 'ttlock';

export interface CreatePinInput {
  /** The lock's id at the provider (TTLock: the numeric lockId). */
  lockId: string;
  /** 4 to 9 digits (TTLock's custom passcodes). */
  pin: string;
  validFrom: Date;
  validUntil: Date;
  /** What the provider's own app shows for this PIN: no personal data (e.g. `Prenotazione 42`). */
  label: string;
}

export interface ChangePinPeriodInput {
  lockId: string;
  /** The id `createPin` answered. */
  pinId: string;
  validFrom: Date;
  validUntil: Date;
}

export interface DeletePinInput {
  lockId: string;
  pinId: string;
}

export interface LockProvider {
  readonly name: LockProviderName;
  /** Writes the PIN on the lock, valid from `validFrom` to `validUntil`; answers the provider's id of it. */
  createPin(input: CreatePinInput): Promise<{ pinId: string }>;
  /** Moves an existing PIN's period (a late ride's PIN is extended until the return). */
  changePinPeriod(input: ChangePinPeriodInput): Promise<void>;
  /** Removes the PIN from the lock. A PIN already gone counts as deleted (retries are safe). */
  deletePin(input: DeletePinInput): Promise<void>;
}

/**
 * Why a call failed. `temporary` ones are worth retrying as they are (the retry job tries
 * every minute); the others are refusals that the same call will meet again.
 */
export type LockErrorReason =
  /** Network error, timeout, 5xx, an answer that is not the provider's, rate limit. */
  | 'unreachable'
  /** The provider answered, but the lock (or its gateway) is offline or busy. */
  | 'lock_offline'
  /** Our credentials or token were refused, or the account does not administer the lock. */
  | 'auth'
  /** The provider does not know the lock id. */
  | 'unknown_lock'
  /** The lock already has this PIN. */
  | 'pin_conflict'
  /** The PIN to change does not exist on the lock. */
  | 'pin_missing'
  /** The lock has no room for another PIN. */
  | 'lock_full'
  /** The request itself is wrong: a bad id, PIN, label or period. */
  | 'invalid'
  /** Any other refusal. */
  | 'rejected';

const TEMPORARY: ReadonlySet<LockErrorReason> = new Set(['unreachable', 'lock_offline']);

/** Italian, safe to show an admin: never the provider's own message, never a PIN or a token. */
export const LOCK_ERROR_MESSAGES: Record<LockErrorReason, string> = {
  unreachable: 'Il servizio dei lucchetti non risponde: nuovo tentativo tra un minuto',
  lock_offline: 'Il lucchetto non è raggiungibile in questo momento: nuovo tentativo tra un minuto',
  auth: 'Il servizio dei lucchetti ha rifiutato le credenziali: controlla la configurazione',
  unknown_lock: 'Lucchetto sconosciuto al servizio: controlla il suo identificativo',
  pin_conflict: 'Il lucchetto ha già un codice uguale',
  pin_missing: 'Il codice non esiste più sul lucchetto',
  lock_full: 'Il lucchetto non ha più spazio per nuovi codici',
  invalid: 'Richiesta non valida per il servizio dei lucchetti',
  rejected: 'Il servizio dei lucchetti ha rifiutato la richiesta',
};

/** A provider call that failed; `message` is LOCK_ERROR_MESSAGES[reason]. */
export class LockProviderError extends Error {
  override readonly name = 'LockProviderError';
  /** `temporary`: retry later as is; `refused`: the same call will fail again. */
  readonly kind: 'temporary' | 'refused';

  constructor(
    readonly reason: LockErrorReason,
    /** The provider's error code (TTLock's errcode, an HTTP status, `timeout`…), for the log. */
    readonly providerCode?: string,
    options?: { cause?: unknown },
  ) {
    super(LOCK_ERROR_MESSAGES[reason], options);
    this.kind = TEMPORARY.has(reason) ? 'temporary' : 'refused';
  }

  get temporary(): boolean {
    return this.kind === 'temporary';
  }
}

const LOCK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PIN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PIN = /^\d{4,9}$/;
// Printable, no control characters; the provider's app shows it.
const LABEL = /^[^\p{Cc}]{1,50}$/u;
/** Longest period a PIN may have: a booking plus a very late return, with room to spare. */
export const MAX_PIN_PERIOD_MS = 31 * 24 * 3_600_000;

const validDate = (d: unknown): d is Date => d instanceof Date && Number.isFinite(d.getTime());

function checkPeriod(validFrom: unknown, validUntil: unknown): void {
  if (!validDate(validFrom) || !validDate(validUntil)) throw new LockProviderError('invalid', 'period');
  const span = validUntil.getTime() - validFrom.getTime();
  if (span <= 0 || span > MAX_PIN_PERIOD_MS) throw new LockProviderError('invalid', 'period');
}

/** Checks a createPin input before any call: LockProviderError `invalid` names the field in providerCode. */
export function checkCreatePin(input: CreatePinInput): void {
  if (typeof input.lockId !== 'string' || !LOCK_ID.test(input.lockId)) throw new LockProviderError('invalid', 'lockId');
  if (typeof input.pin !== 'string' || !PIN.test(input.pin)) throw new LockProviderError('invalid', 'pin');
  if (typeof input.label !== 'string' || !LABEL.test(input.label) || input.label.trim() === '') {
    throw new LockProviderError('invalid', 'label');
  }
  checkPeriod(input.validFrom, input.validUntil);
}

export function checkChangePinPeriod(input: ChangePinPeriodInput): void {
  checkIds(input);
  checkPeriod(input.validFrom, input.validUntil);
}

export function checkIds(input: DeletePinInput): void {
  if (typeof input.lockId !== 'string' || !LOCK_ID.test(input.lockId)) throw new LockProviderError('invalid', 'lockId');
  if (typeof input.pinId !== 'string' || !PIN_ID.test(input.pinId)) throw new LockProviderError('invalid', 'pinId');
}
