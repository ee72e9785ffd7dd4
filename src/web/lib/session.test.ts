import { afterEach, describe, expect, it, vi } from 'vitest';

const user = { id: 1, nome: 'Ada', cognome: 'Rossi', email: 'ada@example.it', ruolo: 'user' };

/** A fresh copy of the store (it is module state) and a fetch answering as told. */
async function freshStore(answers: Array<() => Promise<Response>>) {
  vi.resetModules();
  const fetchMock = vi.fn(() => answers.shift()!());
  vi.stubGlobal('fetch', fetchMock);
  const session = await import('./session');
  return { session, fetchMock };
}

function deferred() {
  let resolve: (r: Response) => void = () => undefined;
  const promise = new Promise<Response>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the session store', () => {
  it('reads GET /api/current-user once: a 401 means anonymous', async () => {
    const { session, fetchMock } = await freshStore([async () => new Response('{"message":"no"}', { status: 401 })]);
    await session.refreshSession();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual(['/api/current-user', expect.objectContaining({ credentials: 'include' })]);
    expect(session.currentSession()).toEqual({ data: null, isPending: false });
  });

  it('treats a network failure as anonymous, so the login shows instead of a blank page', async () => {
    const { session } = await freshStore([() => Promise.reject(new TypeError('Failed to fetch'))]);
    await session.refreshSession();
    expect(session.currentSession()).toEqual({ data: null, isPending: false });
  });

  it('keeps what a screen said over an older read still under way (login, then the stale 401)', async () => {
    const slow = deferred();
    const { session } = await freshStore([() => slow.promise]);
    const reading = session.refreshSession();
    expect(session.currentSession().isPending).toBe(true);
    session.setSessionUser(user as never);
    slow.resolve(new Response('{"message":"no"}', { status: 401 }));
    await reading;
    expect(session.currentSession()).toEqual({ data: user, isPending: false });
  });

  it('takes the answer of the newest read', async () => {
    const { session } = await freshStore([
      async () => new Response('{"message":"no"}', { status: 401 }),
      async () => Response.json(user),
    ]);
    await session.refreshSession();
    await session.refreshSession();
    expect(session.currentSession()).toEqual({ data: user, isPending: false });
  });
});

describe('offline (issue 22)', () => {
  const MARK = 'bicielis:dati-offline';

  function memoryStorage(entries: Record<string, string>) {
    const map = new Map(Object.entries(entries));
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
  }

  afterEach(() => {
    vi.doUnmock('../offline/session-fallback');
  });

  it('keeps the user this device last saw when the server cannot be reached', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ [MARK]: '1' }));
    vi.doMock('../offline/session-fallback', () => ({ deviceUserWhileOffline: async () => user, sessionEnded: async () => undefined }));
    const { session } = await freshStore([() => Promise.reject(new TypeError('Failed to fetch'))]);
    await session.refreshSession();
    expect(session.currentSession()).toEqual({ data: user, isPending: false });
  });

  it('a 401 still means anonymous, and what the device kept of the user goes', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ [MARK]: '1' }));
    const sessionEnded = vi.fn(async () => undefined);
    vi.doMock('../offline/session-fallback', () => ({ deviceUserWhileOffline: async () => user, sessionEnded }));
    const { session } = await freshStore([async () => new Response('{"message":"no"}', { status: 401 })]);
    await session.refreshSession();
    expect(session.currentSession()).toEqual({ data: null, isPending: false });
    await vi.waitFor(() => expect(sessionEnded).toHaveBeenCalledTimes(1));
  });

  it('a refusal of the server (4xx) is not "offline": anonymous', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ [MARK]: '1' }));
    vi.doMock('../offline/session-fallback', () => ({ deviceUserWhileOffline: async () => user, sessionEnded: async () => undefined }));
    const { session } = await freshStore([async () => new Response('{"message":"no"}', { status: 403 })]);
    await session.refreshSession();
    expect(session.currentSession()).toEqual({ data: null, isPending: false });
  });
});
