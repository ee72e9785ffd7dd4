import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGetPage, apiRequest, getQueryFn, queryKeyToUrl } from './api';

function answer(status: number, body: string, statusText = '') {
  return vi.fn(async () => new Response(body === '' ? null : body, { status, statusText }));
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const queryContext = (url: string) =>
  ({ queryKey: [url], signal: new AbortController().signal, meta: undefined }) as unknown as Parameters<
    ReturnType<typeof getQueryFn>
  >[0];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends JSON with the session cookie and returns the JSON answer', async () => {
    const fetchMock = answer(200, '{"nome":"Ada","ruolo":"user"}');
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('POST', '/api/login', { email: 'a@b.it', password: 'x' })).resolves.toEqual({
      nome: 'Ada',
      ruolo: 'user',
    });
    expect(fetchMock).toHaveBeenCalledWith('/api/login', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: '{"email":"a@b.it","password":"x"}',
      credentials: 'include',
    });
  });

  it('sends no body and no Content-Type without a payload', async () => {
    const fetchMock = answer(200, '');
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('POST', '/api/logout')).resolves.toBeUndefined();
    expect(fetchMock).toHaveBeenCalledWith('/api/logout', {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: undefined,
      credentials: 'include',
    });
  });

  it("uses the server's message when the error body is JSON with one", async () => {
    const body = { message: 'Email o password non corretti', code: 'BAD_CREDENTIALS' };
    vi.stubGlobal('fetch', answer(401, JSON.stringify(body)));
    const error = await caught(apiRequest('POST', '/api/login', {}));
    expect(error.message).toBe('Email o password non corretti');
    expect(error.status).toBe(401);
    expect(error.body).toEqual(body);
  });

  it('falls back to "status: body text", then to the status text', async () => {
    vi.stubGlobal('fetch', answer(502, 'Bad gateway from proxy'));
    expect((await caught(apiRequest('GET', '/api/x'))).message).toBe('502: Bad gateway from proxy');

    vi.stubGlobal('fetch', answer(500, '', 'Internal Server Error'));
    expect((await caught(apiRequest('GET', '/api/x'))).message).toBe('500: Internal Server Error');

    vi.stubGlobal('fetch', answer(400, '{"code":"X"}'));
    expect((await caught(apiRequest('GET', '/api/x'))).message).toBe('400: {"code":"X"}');
  });
});

describe('getQueryFn', () => {
  it('yields null on a 401 with on401 returnNull', async () => {
    vi.stubGlobal('fetch', answer(401, '{"message":"Non autenticato"}'));
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext('/api/current-user'))).resolves.toBeNull();
  });

  it('throws on a 401 with on401 throw', async () => {
    vi.stubGlobal('fetch', answer(401, '{"message":"Non autenticato"}'));
    const error = await caught(Promise.resolve(getQueryFn({ on401: 'throw' })(queryContext('/api/user'))));
    expect(error.message).toBe('Non autenticato');
  });

  it('GETs the URL of the query key with the session cookie', async () => {
    const fetchMock = answer(200, '[1,2]');
    vi.stubGlobal('fetch', fetchMock);
    await expect(getQueryFn({ on401: 'throw' })(queryContext('/api/biciclette'))).resolves.toEqual([1, 2]);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/biciclette',
      expect.objectContaining({ credentials: 'include', headers: { Accept: 'application/json' } }),
    );
  });
});

describe('queryKeyToUrl', () => {
  it('joins string and number segments', () => {
    expect(queryKeyToUrl(['/api/prenotazioni', 'user'])).toBe('/api/prenotazioni/user');
    expect(queryKeyToUrl(['/api/reports/download', 7])).toBe('/api/reports/download/7');
  });
});

describe('apiGetPage', () => {
  it('returns the rows and the total from the count header', async () => {
    const fetchMock = vi.fn(
      async () => new Response('[{"id":1},{"id":2}]', { status: 200, headers: { 'X-Total-Count': '120' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiGetPage('/api/admin/users?page=1', 'x-total-count')).resolves.toEqual({
      items: [{ id: 1 }, { id: 2 }],
      total: 120,
    });
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/users?page=1', {
      headers: { Accept: 'application/json' },
      credentials: 'include',
      signal: undefined,
    });
  });

  it('falls back to the length of the page without a readable header', async () => {
    vi.stubGlobal('fetch', answer(200, '[{"id":1}]'));
    await expect(apiGetPage('/x', 'x-total-count')).resolves.toEqual({ items: [{ id: 1 }], total: 1 });
  });

  it('throws ApiError with the server message on a non-OK answer', async () => {
    vi.stubGlobal('fetch', answer(403, '{"message":"Accesso negato"}'));
    const error = await caught(apiGetPage('/x', 'x-total-count'));
    expect(error.status).toBe(403);
    expect(error.message).toBe('Accesso negato');
  });
});
