import { isLingua, LINGUA_PREDEFINITA, type Lingua, type Translate } from '../../shared/i18n';
import { SERVER_STATE_ELEMENT_ID } from '../../shared/server-page';
import { FALLBACK_TIME_ZONE } from '../lib/booking-labels';
import { DEVICE_COPY_ELEMENT_ID } from '../lib/offline-names';
import { lastSyncText } from './offline-model';

/**
 * The device's copy of a page the server rendered for its user (`/dashboard`, issue 22,
 * decision 028): the service worker (sw.ts) paints a repeat open from it at once, and the page
 * (boot/device-copy.ts) asks the server for the page again behind it and keeps the answer
 * as the next copy. Shared by both, so that both read a copy the same way.
 */

/** One copy per address, query string included: the server rendered the page for it (`/dashboard?x` is another page). */
export function copyKey(url: URL): string {
  const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return new URL(`${pathname}${url.search}`, url.origin).href;
}

/** Whose page this is and when the server rendered it (ms), from the state it carries; null for a page not rendered for a user. */
export interface CopyOwner {
  userId: number;
  renderedAt: number;
  timeZone: string;
}

const STATE = new RegExp(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">([^<]*)</script>`);

/** The state a server-rendered page carries (boot/server-state.ts writes it: no `<` inside), unparsed. */
export function stateJsonOf(html: string): string | null {
  return STATE.exec(html)?.[1] ?? null;
}

interface DehydratedQuery {
  queryKey?: unknown;
  state?: { data?: unknown };
}

export function copyOwner(html: string): CopyOwner | null {
  const json = stateJsonOf(html);
  if (!json) return null;
  try {
    const state = JSON.parse(json) as { user?: { id?: unknown }; now?: unknown; queries?: { queries?: DehydratedQuery[] } };
    if (typeof state.user?.id !== 'number' || typeof state.now !== 'number') return null;
    const config = state.queries?.queries?.find((q) => Array.isArray(q.queryKey) && q.queryKey[0] === '/api/config');
    const timeZone = (config?.state?.data as { timeZone?: unknown } | undefined)?.timeZone;
    return { userId: state.user.id, renderedAt: state.now, timeZone: typeof timeZone === 'string' ? timeZone : FALLBACK_TIME_ZONE };
  } catch {
    return null;
  }
}

/** The language a page was made in (its `<html lang>`); Italian when it says none. */
export function copyLingua(html: string): Lingua {
  const lang = /<html\b[^>]*\blang="([^"]*)"/i.exec(html)?.[1];
  return isLingua(lang) ? lang : LINGUA_PREDEFINITA;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The copy as the service worker serves it: with, after `#root` (outside what React hydrates),
 * the line that says the page is being refreshed and since when its data is (`Ultimo
 * aggiornamento alle 10:42`, at `now`), in the page's language (`textsIn` gives its texts). A
 * fixed line over the page's bottom edge: it moves nothing when it appears or goes. The page
 * removes it once the server has answered.
 */
export function markAsDeviceCopy(html: string, owner: CopyOwner, now: Date, textsIn: (lingua: Lingua) => Translate): string {
  const at = html.indexOf(`<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">`);
  if (at < 0) return html;
  const lingua = copyLingua(html);
  const t = textsIn(lingua);
  const since = lastSyncText(owner.renderedAt, now, owner.timeZone, t, lingua) ?? '';
  const line =
    `<div id="${DEVICE_COPY_ELEMENT_ID}" class="copia-dispositivo" role="status">` +
    '<span class="copia-dispositivo-giro" aria-hidden="true"></span>' +
    `<span><strong>${escapeHtml(t('offline.refreshing'))}</strong> <span class="copia-dispositivo-quando">${escapeHtml(since)}</span></span>` +
    '</div>';
  return `${html.slice(0, at)}${line}${html.slice(at)}`;
}
