import { describe, expect, it } from 'vitest';
import { tFor } from '../../shared/i18n/all';
import { serverStateJson } from '../boot/server-state';
import { DEVICE_COPY_ELEMENT_ID } from '../lib/offline-names';
import { copyKey, copyOwner, markAsDeviceCopy, stateJsonOf } from './page-copy';

const renderedAt = Date.parse('2026-11-25T09:42:10.000Z'); // 10:42 in Rome

/** A page as server-render.ts writes it: #root with the server's HTML, then the state. */
function page(state: string | null): string {
  const script = state === null ? '' : `<script type="application/json" id="bicielis-state">${state}</script>`;
  return `<!doctype html><html lang="it"><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root" data-prerendered="server"><main><h1>Benvenuto</h1></main></div>${script}</body></html>`;
}

const userPage = (userId: number, timeZone = 'Europe/Rome') =>
  page(
    serverStateJson({
      user: { id: userId, nome: 'Olga', cognome: '<Cantina> & "figli"' } as never,
      now: renderedAt,
      queries: { mutations: [], queries: [{ queryKey: ['/api/config'], queryHash: '["/api/config"]', state: { data: { timeZone } } }] },
    }),
  );

describe('the device copy of a page', () => {
  it('is kept per address, query string included, trailing slash not', () => {
    expect(copyKey(new URL('http://localhost:3100/dashboard/'))).toBe('http://localhost:3100/dashboard');
    expect(copyKey(new URL('http://localhost:3100/dashboard?vista=passate'))).toBe('http://localhost:3100/dashboard?vista=passate');
  });

  it('belongs to the user the server rendered it for, with the time and the college’s time zone', () => {
    expect(copyOwner(userPage(42, 'Europe/London'))).toEqual({ userId: 42, renderedAt, timeZone: 'Europe/London' });
    // The escaped JSON (no `<` in the element) is read back whole.
    expect(stateJsonOf(userPage(42))).toContain('\\u003cCantina\\u003e');
  });

  it('is nobody’s when the page was not rendered for a user, or its state is unreadable', () => {
    expect(copyOwner(page(null))).toBeNull();
    expect(copyOwner(page('{"user":'))).toBeNull();
    expect(copyOwner(page('{"user":{"id":"42"},"now":1}'))).toBeNull();
  });

  it('is served with the line saying it is being refreshed, and since when, outside what React hydrates', () => {
    const html = userPage(42);
    const marked = markAsDeviceCopy(html, copyOwner(html)!, new Date('2026-11-25T10:00:00.000Z'), tFor);
    const line = `<div id="${DEVICE_COPY_ELEMENT_ID}" class="copia-dispositivo" role="status">`;
    expect(marked).toContain(line);
    expect(marked).toContain('<strong>Aggiornamento in corso…</strong>');
    expect(marked).toContain('Ultimo aggiornamento alle 10:42');
    // After #root, before the state: #root's HTML and the state are unchanged.
    expect(marked.indexOf(line)).toBeGreaterThan(marked.indexOf('</main></div>'));
    expect(marked.indexOf(line)).toBeLessThan(marked.indexOf('<script type="application/json"'));
    expect(marked.replace(/<div id="bicielis-copia"[\s\S]*?<\/span><\/span><\/div>/, '')).toBe(html);
    expect(copyOwner(marked)).toEqual(copyOwner(html));
  });

  it('says the day of an older copy', () => {
    const html = userPage(42);
    expect(markAsDeviceCopy(html, copyOwner(html)!, new Date('2026-11-26T08:00:00.000Z'), tFor)).toContain('Ultimo aggiornamento ieri alle 10:42');
  });

  it('speaks the language the page was made in', () => {
    const html = userPage(42).replace('<html lang="it">', '<html lang="en">');
    const marked = markAsDeviceCopy(html, copyOwner(html)!, new Date('2026-11-28T10:00:00.000Z'), tFor);
    expect(marked).toContain('<strong>Refreshing…</strong>');
    expect(marked).toContain('Last updated on 25 November at 10:42');
  });

  it('is served unchanged when it carries no state to mark', () => {
    const html = page(null);
    expect(markAsDeviceCopy(html, { userId: 1, renderedAt, timeZone: 'Europe/Rome' }, new Date(), tFor)).toBe(html);
  });
});
