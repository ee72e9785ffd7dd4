import type { QueryFunction } from '@tanstack/react-query';

/** A non-OK answer from the API. `message` is safe to show to the person using the app. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The parsed JSON body, or the raw text when it is not JSON. */
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The `message` of an API error body, when it has a non-empty one. */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
  const { message } = body;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  const body = parseBody(text);
  const message = bodyMessage(body) ?? `${res.status}: ${text || res.statusText}`;
  return new ApiError(res.status, body, message);
}

/** Sends a request with the session cookie; throws `ApiError` unless the answer is OK. */
export async function apiFetch(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  if (!res.ok) throw await toApiError(res);
  return res;
}

/** Like `apiFetch`, and returns the JSON body (undefined when the answer has none). */
export async function apiRequest<T = unknown>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiFetch(method, url, body);
  const text = await res.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/**
 * Sends a multipart form (a ticket's photos, issue 48): the browser writes its boundary; returns
 * the JSON body. Throws `ApiError` unless the answer is OK.
 */
export async function apiSendForm<T>(method: HttpMethod, url: string, form: FormData): Promise<T> {
  const res = await fetch(url, { method, headers: { Accept: 'application/json' }, body: form, credentials: 'include' });
  if (!res.ok) throw await toApiError(res);
  return (await res.json()) as T;
}

/** One page of a paged list: its rows and the number of matching rows on every page. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * GETs a paged list (an array, with the total of matching rows in `totalHeader`, e.g.
 * `X-Total-Count`). Without a readable header the total is the length of the page.
 */
export async function apiGetPage<T>(url: string, totalHeader: string, signal?: AbortSignal): Promise<Page<T>> {
  const res = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'include', signal });
  if (!res.ok) throw await toApiError(res);
  const items = (await res.json()) as T[];
  const total = Number.parseInt(res.headers.get(totalHeader) ?? '', 10);
  return { items, total: Number.isFinite(total) && total >= 0 ? total : items.length };
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The query key is the URL, optionally split into segments: `['/api/prenotazioni', 'user']`. */
export function queryKeyToUrl(queryKey: readonly unknown[]): string {
  return queryKey.filter((part) => typeof part === 'string' || typeof part === 'number').join('/');
}

/** GETs JSON with the session cookie; with `on401: 'returnNull'` a 401 yields `null` instead of an error. */
export async function apiGet<T>(url: string, on401: UnauthorizedBehavior, signal?: AbortSignal): Promise<T | null> {
  const res = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'include', signal });
  if (on401 === 'returnNull' && res.status === 401) return null;
  if (!res.ok) throw await toApiError(res);
  return (await res.json()) as T;
}

/** A GET query function; with `on401: 'returnNull'` a 401 yields `null` instead of an error. */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return ({ queryKey, signal }) => apiGet<T>(queryKeyToUrl(queryKey), on401, signal);
}
