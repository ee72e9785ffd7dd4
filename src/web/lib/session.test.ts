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
