import { createHash } from 'node:crypto';
import net from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/clock.js';
import { LOCK_ERROR_MESSAGES, LockProviderError, TtlockProvider, type TtlockSettings } from '../../src/server/integrations/locks/index.js';
import { FakeTtlock } from '../helpers/fake-ttlock.js';

/**
 * The TTLock adapter against a local fake of TTLock's cloud API (tests/helpers/fake-ttlock.ts,
 * on 127.0.0.1): what it sends, how it keeps its token, how TTLock's answers become the
 * provider's typed errors (issue 34, decision 043). Nothing here reaches the internet.
 */

const PASSWORD = 'Segreta-della-portineria';
const LOCK = '4410';
const PIN = '582046';
const FORM = 'application/x-www-form-urlencoded';
const HOUR = 3_600_000;

let clock: ManualClock;
let fake: FakeTtlock;
let settings: TtlockSettings;

beforeEach(async () => {
  clock = new ManualClock(new Date('2026-12-01T09:41:17.250Z'));
  fake = new FakeTtlock({
    clientId: 'client-bicielis',
    clientSecret: 'secret-bicielis',
    username: 'portineria@elis.org',
    passwordMd5: createHash('md5').update(PASSWORD).digest('hex'),
    locks: [LOCK, '4411'],
    now: () => clock.now().getTime(),
    expiresIn: 7_776_000,
  });
  await fake.start();
  settings = {
    apiUrl: fake.url,
    clientId: 'client-bicielis',
    clientSecret: 'secret-bicielis',
    username: 'portineria@elis.org',
    password: PASSWORD,
  };
});

afterEach(async () => {
  await fake.close();
});

// The booking's period: pick-up window 10 minutes before a 10:00 start, end 11:00 plus 15 minutes.
// Seconds on purpose: TTLock's custom passcodes are exact to the minute.
const validFrom = new Date('2026-12-01T09:50:30.000Z');
const validUntil = new Date('2026-12-01T11:15:20.000Z');
const pinInput = { lockId: LOCK, pin: PIN, validFrom, validUntil, label: 'Prenotazione 42' };

async function failure(promise: Promise<unknown>): Promise<LockProviderError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(LockProviderError);
  return outcome as LockProviderError;
}

/** The error shows nothing of TTLock's answer, the PIN or a credential, wherever it is printed. */
function expectSafe(error: LockProviderError) {
  expect(error.message).toBe(LOCK_ERROR_MESSAGES[error.reason]);
  const printed = `${String(error)} ${inspect(error, { depth: 5 })} ${JSON.stringify(error)}`;
  for (const secret of [PIN, PASSWORD, settings.clientSecret, 'errmsg', 'does not exist', 'invalid account', '<html']) {
    expect(printed).not.toContain(secret);
  }
}

describe('TTLock provider against a local fake of its API (issue 34)', () => {
  it('adds the PIN for the booking period, form-encoded, with clientId, accessToken and date; the token by MD5 password', async () => {
    const locks = new TtlockProvider(settings, clock);
    const { pinId } = await locks.createPin(pinInput);
    expect(pinId).toBe('70001');

    const [token, add] = fake.requests;
    expect(fake.requests).toHaveLength(2);
    expect(token).toEqual({
      path: '/oauth2/token',
      contentType: FORM,
      params: {
        clientId: 'client-bicielis',
        clientSecret: 'secret-bicielis',
        username: 'portineria@elis.org',
        password: createHash('md5').update(PASSWORD).digest('hex'),
      },
    });
    expect(token!.params.password).toMatch(/^[0-9a-f]{32}$/);
    expect(add!.path).toBe('/v3/keyboardPwd/add');
    expect(add!.contentType).toBe(FORM);
    expect(add!.params).toEqual({
      clientId: 'client-bicielis',
      accessToken: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown as string,
      lockId: LOCK,
      keyboardPwd: PIN,
      keyboardPwdName: 'Prenotazione 42',
      keyboardPwdType: '3',
      // Down to 09:50 and up to 11:16: the PIN covers the whole period, to the minute.
      startDate: String(Date.parse('2026-12-01T09:50:00Z')),
      endDate: String(Date.parse('2026-12-01T11:16:00Z')),
      addType: '2',
      date: String(clock.now().getTime()),
    });
    expect([...fake.passcodes.values()]).toEqual([
      {
        keyboardPwdId: 70001,
        lockId: LOCK,
        keyboardPwd: PIN,
        keyboardPwdName: 'Prenotazione 42',
        startDate: Date.parse('2026-12-01T09:50:00Z'),
        endDate: Date.parse('2026-12-01T11:16:00Z'),
      },
    ]);
  });

  it('moves the PIN to a later end (a late ride), then deletes it; one token for all the calls', async () => {
    const locks = new TtlockProvider(settings, clock);
    const { pinId } = await locks.createPin(pinInput);
    clock.advance(2 * HOUR);
    const returned = new Date('2026-12-01T12:30:00.000Z');
    await locks.changePinPeriod({ lockId: LOCK, pinId, validFrom, validUntil: returned });
    const change = fake.requestsTo('/v3/keyboardPwd/change')[0]!;
    expect(change.contentType).toBe(FORM);
    expect(change.params).toMatchObject({
      clientId: 'client-bicielis',
      accessToken: fake.requestsTo('/v3/keyboardPwd/add')[0]!.params.accessToken,
      lockId: LOCK,
      keyboardPwdId: pinId,
      startDate: String(Date.parse('2026-12-01T09:50:00Z')),
      endDate: String(returned.getTime()),
      changeType: '2',
      date: String(clock.now().getTime()),
    });
    expect(fake.passcodes.get(70001)!.endDate).toBe(returned.getTime());

    await locks.deletePin({ lockId: LOCK, pinId });
    expect(fake.requestsTo('/v3/keyboardPwd/delete')[0]!.params).toMatchObject({
      clientId: 'client-bicielis',
      lockId: LOCK,
      keyboardPwdId: pinId,
      deleteType: '2',
      date: String(clock.now().getTime()),
    });
    expect(fake.passcodes.size).toBe(0);
    // Deleting again (a retry after a timeout that TTLock had carried out) is not an error.
    await locks.deletePin({ lockId: LOCK, pinId });
    expect(fake.requestsTo('/oauth2/token')).toHaveLength(1);
  });

  it('asks for one token when calls arrive together', async () => {
    const locks = new TtlockProvider(settings, clock);
    await Promise.all([locks.createPin(pinInput), locks.createPin({ ...pinInput, lockId: '4411' })]);
    expect(fake.requestsTo('/oauth2/token')).toHaveLength(1);
    expect(fake.passcodes.size).toBe(2);
  });

  it('refreshes the token with its refresh token once it expires', async () => {
    const locks = new TtlockProvider(settings, clock);
    const { pinId } = await locks.createPin(pinInput);
    const first = fake.requestsTo('/v3/keyboardPwd/add')[0]!.params.accessToken;
    expect(fake.requestsTo('/oauth2/token')).toHaveLength(1);

    clock.advance(89 * 24 * HOUR); // still valid: no token request
    await locks.changePinPeriod({ lockId: LOCK, pinId, validFrom, validUntil: new Date(validUntil.getTime() + HOUR) });
    expect(fake.requestsTo('/oauth2/token')).toHaveLength(1);

    clock.advance(24 * HOUR); // 90 days: expired
    await locks.deletePin({ lockId: LOCK, pinId });
    const tokens = fake.requestsTo('/oauth2/token');
    expect(tokens).toHaveLength(2);
    expect(tokens[1]!.params).toEqual({
      clientId: 'client-bicielis',
      clientSecret: 'secret-bicielis',
      grant_type: 'refresh_token',
      refresh_token: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown as string,
    });
    const second = fake.requestsTo('/v3/keyboardPwd/delete')[0]!.params.accessToken;
    expect(second).not.toBe(first);
    expect(fake.passcodes.size).toBe(0);
  });

  it('logs in again when the refresh token is refused', async () => {
    const locks = new TtlockProvider(settings, clock);
    await locks.createPin(pinInput);
    fake.revokeRefreshTokens();
    clock.advance(91 * 24 * HOUR);
    await locks.createPin({ ...pinInput, lockId: '4411' });
    expect(fake.requestsTo('/oauth2/token').map((r) => r.params.grant_type ?? 'password')).toEqual(['password', 'refresh_token', 'password']);
    expect(fake.passcodes.size).toBe(2);
  });

  it('gets a new token and repeats the call once when TTLock says the token is no good (10004)', async () => {
    const locks = new TtlockProvider(settings, clock);
    await locks.createPin(pinInput);
    fake.revokeAccessTokens();
    await locks.createPin({ ...pinInput, lockId: '4411' });
    expect(fake.requestsTo('/v3/keyboardPwd/add')).toHaveLength(3);
    expect(fake.requestsTo('/oauth2/token')).toHaveLength(2);
    expect(fake.passcodes.size).toBe(2);

    // Refused again with the new token: an auth refusal after one more try, not a loop.
    fake.failNext({ errcode: 10004, errmsg: 'invalid grant' }, '/v3/keyboardPwd/delete');
    fake.failNext({ errcode: 10004, errmsg: 'invalid grant' }, '/v3/keyboardPwd/delete');
    const error = await failure(locks.deletePin({ lockId: LOCK, pinId: '70001' }));
    expect(error).toMatchObject({ kind: 'refused', reason: 'auth', providerCode: '10004' });
    expect(fake.requestsTo('/v3/keyboardPwd/delete')).toHaveLength(2);
    expect(fake.requests.at(-2)!.params.grant_type).toBe('refresh_token');
    expect(fake.passcodes.size).toBe(2);
  });

  it('a refused token refresh or login is not retried in a loop either', async () => {
    const locks = new TtlockProvider(settings, clock);
    await locks.createPin(pinInput);
    fake.revokeAccessTokens();
    fake.failNext({ errcode: 10004, errmsg: 'invalid grant' }, '/oauth2/token'); // the refresh itself
    fake.failNext({ errcode: 10007, errmsg: 'invalid account or invalid password' }, '/oauth2/token'); // then the login
    const error = await failure(locks.deletePin({ lockId: LOCK, pinId: '70001' }));
    expect(error).toMatchObject({ kind: 'refused', reason: 'auth', providerCode: '10007' });
    expect(fake.requests.map((r) => r.params.grant_type ?? r.path)).toEqual([
      '/oauth2/token',
      '/v3/keyboardPwd/add',
      '/v3/keyboardPwd/delete',
      'refresh_token',
      '/oauth2/token',
    ]);
  });

  describe('errors become typed, Italian, without TTLock internals', () => {
    it('a wrong password: refused, auth', async () => {
      const locks = new TtlockProvider({ ...settings, password: 'sbagliata' }, clock);
      const error = await failure(locks.createPin(pinInput));
      expect(error).toMatchObject({ kind: 'refused', reason: 'auth', providerCode: '10007' });
      expect(error.message).toBe('Il servizio dei lucchetti ha rifiutato le credenziali: controlla la configurazione');
      expectSafe(error);
      expect(fake.requestsTo('/v3/keyboardPwd/add')).toHaveLength(0);
    });

    it('a wrong client secret: refused, auth', async () => {
      const error = await failure(new TtlockProvider({ ...settings, clientSecret: 'altro' }, clock).createPin(pinInput));
      expect(error).toMatchObject({ kind: 'refused', reason: 'auth', providerCode: '10001' });
      expectSafe(error);
    });

    it('a lock TTLock does not know: refused, unknown_lock', async () => {
      const locks = new TtlockProvider(settings, clock);
      const error = await failure(locks.createPin({ ...pinInput, lockId: '9999' }));
      expect(error).toMatchObject({ kind: 'refused', reason: 'unknown_lock', providerCode: '-1003' });
      expect(error.message).toBe('Lucchetto sconosciuto al servizio: controlla il suo identificativo');
      expectSafe(error);
    });

    it('a lock id TTLock could never have (not a number): refused before any call', async () => {
      const locks = new TtlockProvider(settings, clock);
      const error = await failure(locks.createPin({ ...pinInput, lockId: 'abc' }));
      expect(error).toMatchObject({ reason: 'unknown_lock', providerCode: 'lockId' });
      expect(fake.requests).toHaveLength(0);
    });

    it('a PIN the lock already has: refused, pin_conflict; a PIN gone before its change: pin_missing', async () => {
      const locks = new TtlockProvider(settings, clock);
      await locks.createPin(pinInput);
      const conflict = await failure(locks.createPin({ ...pinInput, label: 'Prenotazione 43' }));
      expect(conflict).toMatchObject({ kind: 'refused', reason: 'pin_conflict', providerCode: '-3007' });
      expectSafe(conflict);
      const missing = await failure(locks.changePinPeriod({ lockId: LOCK, pinId: '123', validFrom, validUntil }));
      expect(missing).toMatchObject({ kind: 'refused', reason: 'pin_missing', providerCode: '-2009' });
    });

    it('a gateway offline or busy: temporary, lock_offline', async () => {
      const locks = new TtlockProvider(settings, clock);
      await locks.createPin(pinInput);
      for (const errcode of [-3002, -3003, -2012, -3036]) {
        fake.failNext({ errcode, errmsg: 'gateway is offline' });
        const error = await failure(locks.deletePin({ lockId: LOCK, pinId: '70001' }));
        expect(error).toMatchObject({ kind: 'temporary', reason: 'lock_offline', providerCode: String(errcode) });
        expectSafe(error);
      }
      expect(fake.passcodes.size).toBe(1);
    });

    it('a full lock: refused, lock_full; an errcode not in the list: refused, rejected', async () => {
      const locks = new TtlockProvider(settings, clock);
      await locks.createPin(pinInput);
      fake.failNext({ errcode: -3009, errmsg: 'passcode space is full' });
      expect(await failure(locks.createPin({ ...pinInput, pin: '111222' }))).toMatchObject({ kind: 'refused', reason: 'lock_full' });
      fake.failNext({ errcode: -4043, errmsg: 'not supported' });
      const other = await failure(locks.createPin({ ...pinInput, pin: '111222' }));
      expect(other).toMatchObject({ kind: 'refused', reason: 'rejected', providerCode: '-4043' });
      expectSafe(other);
    });

    it('a server error (5xx, an HTML page, TTLock\'s 90000): temporary, unreachable', async () => {
      const locks = new TtlockProvider(settings, clock);
      fake.failNext({ status: 502, body: '<html><body>Bad Gateway</body></html>' });
      const gateway = await failure(locks.createPin(pinInput));
      expect(gateway).toMatchObject({ kind: 'temporary', reason: 'unreachable', providerCode: 'http_502' });
      expectSafe(gateway);

      await locks.createPin(pinInput); // the token, then the PIN: TTLock is back
      fake.failNext({ status: 500, body: '{"errcode":90000,"errmsg":"internal server error"}', contentType: 'application/json' });
      expect(await failure(locks.createPin({ ...pinInput, lockId: '4411' }))).toMatchObject({ kind: 'temporary', providerCode: 'http_500' });
      fake.failNext({ errcode: 90000, errmsg: 'internal server error' });
      expect(await failure(locks.createPin({ ...pinInput, lockId: '4411' }))).toMatchObject({ kind: 'temporary', providerCode: '90000' });
      fake.failNext({ status: 200, body: '<html>maintenance</html>' });
      const page = await failure(locks.createPin({ ...pinInput, lockId: '4411' }));
      expect(page).toMatchObject({ kind: 'temporary', reason: 'unreachable', providerCode: 'http_200' });
      expectSafe(page);
    });

    it('no answer within the timeout: temporary, unreachable', async () => {
      const locks = new TtlockProvider({ ...settings, timeoutMs: 300 }, clock);
      fake.failNext('hang');
      const error = await failure(locks.createPin(pinInput));
      expect(error).toMatchObject({ kind: 'temporary', reason: 'unreachable', providerCode: 'timeout' });
      expect(fake.requests).toHaveLength(1);
      expectSafe(error);
    });

    it('connection refused: temporary, unreachable', async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, '127.0.0.1', () => {
          const { port: free } = probe.address() as net.AddressInfo;
          probe.close(() => resolve(free));
        });
      });
      const locks = new TtlockProvider({ ...settings, apiUrl: `http://127.0.0.1:${port}` }, clock);
      const error = await failure(locks.createPin(pinInput));
      expect(error).toMatchObject({ kind: 'temporary', reason: 'unreachable', providerCode: 'network' });
      expectSafe(error);
    });

    it('a token answer without a token: refused, auth', async () => {
      const locks = new TtlockProvider(settings, clock);
      fake.failNext({ status: 200, body: '{"uid":1}', contentType: 'application/json' });
      expect(await failure(locks.createPin(pinInput))).toMatchObject({ kind: 'refused', reason: 'auth', providerCode: 'no_access_token' });
    });
  });

  it('checks its settings when built', () => {
    expect(() => new TtlockProvider({ ...settings, apiUrl: 'ftp://127.0.0.1' }, clock)).toThrow(/http/);
    expect(() => new TtlockProvider({ ...settings, timeoutMs: 0 }, clock)).toThrow(/timeoutMs/);
  });
});
