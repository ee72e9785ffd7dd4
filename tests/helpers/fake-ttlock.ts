import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that plays TTLock's open platform cloud API for the calls the lock
 * provider makes (docs/decisions/043-smart-lock-provider.md), in memory, on 127.0.0.1:
 * `POST /oauth2/token` (password grant with the MD5 of the password, refresh grant) and
 * `POST /v3/keyboardPwd/add|change|delete`. It checks what TTLock checks — form encoding,
 * clientId / clientSecret, the access token, `date` within 5 minutes of its clock, the lock,
 * the passcode — and answers as TTLock does: 200 with `errcode`/`errmsg` on an error.
 * Tests make it misbehave: `failNext` queues an answer of their choosing (a 5xx, an
 * errcode, an HTML page, a request never answered).
 */

export interface FakeTtlockRequest {
  path: string;
  contentType: string | undefined;
  params: Record<string, string>;
}

export interface FakePasscode {
  keyboardPwdId: number;
  lockId: string;
  keyboardPwd: string;
  keyboardPwdName: string | undefined;
  startDate: number;
  endDate: number;
}

export type FakeTtlockFailure =
  | { status: number; body: string; contentType?: string }
  | { errcode: number; errmsg: string }
  /** Keeps the request open, never answering (a timeout on the client's side). */
  | 'hang';

export interface FakeTtlockOptions {
  clientId: string;
  clientSecret: string;
  username: string;
  /** The account's password in clear: the fake expects its MD5. */
  passwordMd5: string;
  /** The lock ids the account administers. */
  locks: string[];
  /** TTLock's clock, for the `date` check (ms). */
  now: () => number;
  /** The tokens' lifetime in seconds (TTLock: 90 days). */
  expiresIn?: number;
}

const TTLOCK_OK = { errcode: 0, errmsg: 'none error message', description: '表示成功或是' };

export class FakeTtlock {
  readonly requests: FakeTtlockRequest[] = [];
  readonly passcodes = new Map<number, FakePasscode>();
  private readonly accessTokens = new Set<string>();
  private readonly refreshTokens = new Set<string>();
  private readonly failures: { failure: FakeTtlockFailure; path: string | undefined }[] = [];
  private readonly hanging: http.ServerResponse[] = [];
  private nextPasscodeId = 70001;
  private server: http.Server | undefined;
  url = '';

  constructor(private readonly options: FakeTtlockOptions) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next request (to `path`, or whatever it is) gets this answer instead of TTLock's; queued in order. */
  failNext(failure: FakeTtlockFailure, path?: string): void {
    this.failures.push({ failure, path });
  }

  /** Every access token given so far stops working (TTLock answers 10004). */
  revokeAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** Every refresh token given so far stops working (TTLock answers 10011). */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  requestsTo(path: string): FakeTtlockRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const contentType = req.headers['content-type'];
    const params = Object.fromEntries(new URLSearchParams(raw));
    this.requests.push({ path, contentType, params });
    const queued = this.failures.findIndex((f) => f.path === undefined || f.path === path);
    const failure = queued < 0 ? undefined : this.failures.splice(queued, 1)[0]!.failure;
    if (failure === 'hang') {
      this.hanging.push(res);
      return;
    }
    if (failure && 'status' in failure) {
      res.writeHead(failure.status, { 'content-type': failure.contentType ?? 'text/html' }).end(failure.body);
      return;
    }
    const answer = (body: object): void => {
      res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
    };
    if (failure) return answer(failure);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    if (contentType !== 'application/x-www-form-urlencoded') return answer({ errcode: -3, errmsg: 'Invalid Parameter.' });
    if (path === '/oauth2/token') return answer(this.token(params));
    if (!path.startsWith('/v3/keyboardPwd/')) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
    const refusal = this.checkCommon(params);
    if (refusal) return answer(refusal);
    if (path === '/v3/keyboardPwd/add') return answer(this.add(params));
    if (path === '/v3/keyboardPwd/change') return answer(this.change(params));
    if (path === '/v3/keyboardPwd/delete') return answer(this.delete(params));
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
  }

  private token(p: Record<string, string>): object {
    const o = this.options;
    if (p.clientId !== o.clientId || p.clientSecret !== o.clientSecret) return { errcode: 10001, errmsg: 'invalid client' };
    if (p.grant_type === 'refresh_token') {
      if (!p.refresh_token || !this.refreshTokens.has(p.refresh_token)) return { errcode: 10011, errmsg: 'invalid refresh_token' };
      this.refreshTokens.delete(p.refresh_token);
      return this.issue(false);
    }
    if (p.username !== o.username || p.password !== o.passwordMd5) return { errcode: 10007, errmsg: 'invalid account or invalid password' };
    return this.issue(true);
  }

  private issue(withUid: boolean): object {
    const access = randomBytes(16).toString('hex');
    const refresh = randomBytes(16).toString('hex');
    this.accessTokens.add(access);
    this.refreshTokens.add(refresh);
    return { access_token: access, ...(withUid ? { uid: 2340 } : {}), refresh_token: refresh, expires_in: this.options.expiresIn ?? 7_776_000 };
  }

  private checkCommon(p: Record<string, string>): object | undefined {
    if (p.clientId !== this.options.clientId) return { errcode: 10000, errmsg: 'invalid client_id' };
    if (!p.accessToken || !this.accessTokens.has(p.accessToken)) return { errcode: 10004, errmsg: 'invalid grant' };
    const date = Number(p.date);
    if (!/^\d+$/.test(p.date ?? '') || Math.abs(date - this.options.now()) > 5 * 60_000) {
      return { errcode: 80000, errmsg: 'date must be current time, in 5 minutes' };
    }
    if (!this.options.locks.includes(p.lockId ?? '')) return { errcode: -1003, errmsg: 'Lock does not exist' };
    return undefined;
  }

  private add(p: Record<string, string>): object {
    if (p.addType !== '2') return { errcode: -3, errmsg: 'Invalid Parameter.' };
    if (!/^\d{4,9}$/.test(p.keyboardPwd ?? '')) return { errcode: -3006, errmsg: 'Invalid passcode length' };
    const start = Number(p.startDate);
    const end = Number(p.endDate);
    if (p.keyboardPwdType !== '3' || !Number.isInteger(start) || !Number.isInteger(end) || end <= start) {
      return { errcode: -3, errmsg: 'Invalid Parameter.' };
    }
    if ([...this.passcodes.values()].some((c) => c.lockId === p.lockId && c.keyboardPwd === p.keyboardPwd)) {
      return { errcode: -3007, errmsg: 'The same passcode already exists. Please use another one.' };
    }
    const keyboardPwdId = this.nextPasscodeId++;
    this.passcodes.set(keyboardPwdId, {
      keyboardPwdId,
      lockId: p.lockId!,
      keyboardPwd: p.keyboardPwd!,
      keyboardPwdName: p.keyboardPwdName,
      startDate: start,
      endDate: end,
    });
    return { keyboardPwdId };
  }

  private existing(p: Record<string, string>): FakePasscode | undefined {
    const found = this.passcodes.get(Number(p.keyboardPwdId));
    return found && found.lockId === p.lockId ? found : undefined;
  }

  private change(p: Record<string, string>): object {
    const code = this.existing(p);
    if (!code) return { errcode: -2009, errmsg: 'Passcode does not exist.' };
    const start = Number(p.startDate);
    const end = Number(p.endDate);
    if (p.changeType !== '2' || !Number.isInteger(start) || !Number.isInteger(end) || end <= start) {
      return { errcode: -3, errmsg: 'Invalid Parameter.' };
    }
    code.startDate = start;
    code.endDate = end;
    return TTLOCK_OK;
  }

  private delete(p: Record<string, string>): object {
    const code = this.existing(p);
    if (!code) return { errcode: -2009, errmsg: 'Passcode does not exist.' };
    if (p.deleteType !== '2') return { errcode: -3, errmsg: 'Invalid Parameter.' };
    this.passcodes.delete(code.keyboardPwdId);
    return TTLOCK_OK;
  }
}
