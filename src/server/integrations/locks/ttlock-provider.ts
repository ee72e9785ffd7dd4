import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import {
  checkChangePinPeriod,
  checkCreatePin,
  checkIds,
  LockProviderError,
  type ChangePinPeriodInput,
  type CreatePinInput,
  type DeletePinInput,
  type LockErrorReason,
  type LockProvider,
} from './provider.js';

export interface TtlockSettings {
  /** The API's base, e.g. https://euapi.ttlock.com (tests: a local fake). */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** The TTLock app account that administers the locks (not the developer account). */
  username: string;
  /** That account's password, in clear: sent as its MD5 (32 lowercase hex), as TTLock asks. */
  password: string;
  /** Each HTTP call's limit, connection and answer included (default 10 s). */
  timeoutMs?: number;
}

export const TTLOCK_DEFAULT_TIMEOUT_MS = 10_000;
/** A token is renewed this long before TTLock says it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** When the token's answer carries no usable `expires_in`. */
const TOKEN_FALLBACK_MS = 3_600_000;
const MINUTE = 60_000;

type ReasonByCode = Record<number, LockErrorReason>;

/**
 * TTLock's errcodes (https://euopen.ttlock.com/document-pages/en/cloud/errorCode), by what the
 * app can do about them. Any other non-zero errcode is `rejected`.
 */
const ERRCODES: ReasonByCode = {
  // Account, token, rights.
  10000: 'auth',
  10001: 'auth',
  10003: 'auth',
  10004: 'auth',
  10005: 'auth',
  10006: 'auth',
  10007: 'auth',
  10011: 'auth',
  20002: 'auth',
  30001: 'auth',
  30005: 'auth',
  30008: 'auth',
  [-2018]: 'auth',
  // TTLock's own trouble, or too many calls for now.
  90000: 'unreachable',
  30006: 'unreachable',
  // The lock.
  [-1003]: 'unknown_lock',
  [-4056]: 'lock_full',
  // Passcodes.
  [-3]: 'invalid',
  [-3006]: 'invalid',
  [-2032]: 'invalid',
  [-3007]: 'pin_conflict',
  [-2009]: 'pin_missing',
  [-1007]: 'pin_missing',
  [-3009]: 'lock_full',
  // Gateway and WiFi locks: not reachable or busy now.
  [-2012]: 'lock_offline',
  [-3002]: 'lock_offline',
  [-3003]: 'lock_offline',
  [-3034]: 'lock_offline',
  [-3035]: 'lock_offline',
  [-3036]: 'lock_offline',
  [-3037]: 'lock_offline',
};

/** Errcodes that mean "this access token is no good": a new token, then the call once more. */
const TOKEN_REFUSED = new Set(['10003', '10004']);

const TTLOCK_ID = /^\d{1,12}$/;

type Answer = Record<string, unknown>;

interface Token {
  accessToken: string;
  refreshToken: string | undefined;
  expiresAt: number;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

/**
 * TTLock's open platform cloud API (https://euopen.ttlock.com/document-pages/en/cloud/…):
 * OAuth token by the password grant, refreshed with its refresh token; custom passcodes added,
 * changed and deleted through the lock's gateway (addType / changeType / deleteType 2).
 * Every call is a form-encoded POST carrying clientId, accessToken and date (now, in ms);
 * an answer with a non-zero `errcode` is an error (docs/decisions/043-smart-lock-provider.md).
 */
export class TtlockProvider implements LockProvider {
  readonly name = 'ttlock' as const;
  private readonly base: string;
  private readonly timeoutMs: number;
  private token: Token | undefined;
  private pendingToken: Promise<string> | undefined;

  constructor(
    private readonly settings: TtlockSettings,
    private readonly clock: Clock,
  ) {
    const url = new URL(settings.apiUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('TTLock: apiUrl must be http(s)');
    this.base = url.href.replace(/\/+$/, '');
    this.timeoutMs = settings.timeoutMs ?? TTLOCK_DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(this.timeoutMs) || this.timeoutMs < 1) throw new Error('TTLock: timeoutMs must be a positive integer');
  }

  async createPin(input: CreatePinInput): Promise<{ pinId: string }> {
    checkCreatePin(input);
    checkTtlockId(input.lockId, 'lockId');
    const answer = await this.call('/v3/keyboardPwd/add', {
      lockId: input.lockId,
      keyboardPwd: input.pin,
      keyboardPwdName: input.label,
      keyboardPwdType: '3',
      ...period(input.validFrom, input.validUntil),
      addType: '2',
    });
    const id = answer.keyboardPwdId;
    if ((typeof id !== 'number' || !Number.isInteger(id)) && !(typeof id === 'string' && TTLOCK_ID.test(id))) {
      throw new LockProviderError('rejected', 'no_keyboardPwdId');
    }
    return { pinId: String(id) };
  }

  async changePinPeriod(input: ChangePinPeriodInput): Promise<void> {
    checkChangePinPeriod(input);
    checkTtlockId(input.lockId, 'lockId');
    checkTtlockId(input.pinId, 'pinId');
    await this.call('/v3/keyboardPwd/change', {
      lockId: input.lockId,
      keyboardPwdId: input.pinId,
      ...period(input.validFrom, input.validUntil),
      changeType: '2',
    });
  }

  async deletePin(input: DeletePinInput): Promise<void> {
    checkIds(input);
    checkTtlockId(input.lockId, 'lockId');
    checkTtlockId(input.pinId, 'pinId');
    try {
      await this.call('/v3/keyboardPwd/delete', { lockId: input.lockId, keyboardPwdId: input.pinId, deleteType: '2' });
    } catch (err) {
      // Gone already (an earlier attempt that timed out after TTLock did it, or the TTLock app).
      if (err instanceof LockProviderError && err.reason === 'pin_missing') return;
      throw err;
    }
  }

  /** An API call with the common parameters; a refused token is renewed and the call made once more. */
  private async call(path: string, params: Record<string, string>): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      const accessToken = await this.accessToken();
      try {
        return await this.post(path, {
          clientId: this.settings.clientId,
          accessToken,
          ...params,
          date: String(this.clock.now().getTime()),
        });
      } catch (err) {
        const tokenRefused = err instanceof LockProviderError && TOKEN_REFUSED.has(err.providerCode ?? '');
        if (!tokenRefused || attempt > 1) throw err;
        if (this.token?.accessToken === accessToken) this.token = { ...this.token, expiresAt: 0 };
      }
    }
  }

  /** A valid access token: the one held, else one refreshed or obtained (one request at a time). */
  private accessToken(): Promise<string> {
    const held = this.token;
    if (held && this.clock.now().getTime() < held.expiresAt) return Promise.resolve(held.accessToken);
    this.pendingToken ??= this.obtainToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  private async obtainToken(): Promise<string> {
    const { clientId, clientSecret } = this.settings;
    const refreshToken = this.token?.refreshToken;
    if (refreshToken) {
      try {
        return this.keep(await this.post('/oauth2/token', { clientId, clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken }));
      } catch (err) {
        // A refused refresh token (10011, …): log in again below. An outage is not a refusal.
        if (!(err instanceof LockProviderError) || err.temporary) throw err;
        this.token = undefined;
      }
    }
    return this.keep(
      await this.post('/oauth2/token', {
        clientId,
        clientSecret,
        username: this.settings.username,
        password: md5(this.settings.password),
      }),
    );
  }

  private keep(answer: Answer): string {
    const accessToken = answer.access_token;
    if (typeof accessToken !== 'string' || accessToken === '') throw new LockProviderError('auth', 'no_access_token');
    const refresh = answer.refresh_token;
    const expiresIn = answer.expires_in;
    const lifetime = typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : TOKEN_FALLBACK_MS;
    this.token = {
      accessToken,
      refreshToken: typeof refresh === 'string' && refresh !== '' ? refresh : this.token?.refreshToken,
      expiresAt: this.clock.now().getTime() + Math.max(lifetime - TOKEN_MARGIN_MS, lifetime / 2),
    };
    return accessToken;
  }

  /** One form-encoded POST; TTLock's answer, or LockProviderError. Never puts the body in an error. */
  private async post(path: string, params: Record<string, string>): Promise<Answer> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(params).toString(),
        redirect: 'error',
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (err) {
      throw new LockProviderError('unreachable', isTimeout(err) ? 'timeout' : 'network', { cause: err });
    }
    if (status >= 500 || status === 429 || status === 408) throw new LockProviderError('unreachable', `http_${status}`);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      // Not TTLock speaking (a proxy's page, a cut answer): worth another try only if it said OK.
      throw new LockProviderError(status < 300 ? 'unreachable' : status === 401 || status === 403 ? 'auth' : 'rejected', `http_${status}`);
    }
    const body = answer as Answer;
    const code = Number(body.errcode ?? 0);
    if (Number.isNaN(code)) throw new LockProviderError('rejected', 'errcode');
    if (code !== 0) throw new LockProviderError(ERRCODES[code] ?? 'rejected', String(code));
    if (status >= 300) throw new LockProviderError(status === 401 || status === 403 ? 'auth' : 'rejected', `http_${status}`);
    return body;
  }
}

function checkTtlockId(value: string, field: 'lockId' | 'pinId'): void {
  if (!TTLOCK_ID.test(value)) throw new LockProviderError(field === 'lockId' ? 'unknown_lock' : 'invalid', field);
}

/**
 * The period in ms as TTLock wants it. Custom passcodes are exact to the minute: the start is
 * taken down to its minute and the end up to the next, so the PIN covers the whole period.
 */
function period(validFrom: Date, validUntil: Date): { startDate: string; endDate: string } {
  const start = Math.floor(validFrom.getTime() / MINUTE) * MINUTE;
  const end = Math.ceil(validUntil.getTime() / MINUTE) * MINUTE;
  return { startDate: String(start), endDate: String(end) };
}
