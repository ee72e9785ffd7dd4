import { describe, expect, it } from 'vitest';
import { BIKE_PAGE_FILE, bikePageSegment, normalisePath, ownPageFile, PAGE_ROUTES, TICKET_PAGE_FILE, ticketPageSegment } from './pages';

describe('the page of an address (one list for the server and the service worker)', () => {
  it('gives the pages of their own, a trailing slash or not', () => {
    expect(ownPageFile('/dashboard')).toBe('dashboard.html');
    expect(ownPageFile('/admin/')).toBe('admin.html');
    expect(ownPageFile('/login')).toBe('login.html');
    expect(ownPageFile('/privacy')).toBe('privacy.html');
    expect(ownPageFile('/officina/')).toBe('officina.html');
  });

  it('gives every bike’s page, one segment whatever its number, the bike page’s file (decision 068)', () => {
    expect(ownPageFile('/bici/07')).toBe(BIKE_PAGE_FILE);
    expect(ownPageFile('/bici/A%2F3/')).toBe(BIKE_PAGE_FILE);
    expect(ownPageFile('/bici')).toBeUndefined();
    expect(ownPageFile('/bici/07/altro')).toBeUndefined();
    // The number as the address writes it (the server's render decides what to do with it).
    expect(bikePageSegment('/bici/07/')).toBe('07');
    expect(bikePageSegment('/bici/A%2F3')).toBe('A%2F3');
    expect(bikePageSegment('/dashboard')).toBeUndefined();
  });

  it('gives every ticket’s page on the workshop’s screen, one segment, the ticket page’s file (decision 070)', () => {
    expect(ownPageFile('/officina/12')).toBe(TICKET_PAGE_FILE);
    expect(ownPageFile('/officina/abc/')).toBe(TICKET_PAGE_FILE);
    expect(ownPageFile('/officina/12/altro')).toBeUndefined();
    expect(ticketPageSegment('/officina/12/')).toBe('12');
    expect(ticketPageSegment('/officina')).toBeUndefined();
  });

  it('gives nothing of its own to the other addresses (they get the loading page)', () => {
    for (const path of ['/', '/profilo', '/officinax', '/admin/sedi', '/dashboardx']) expect(ownPageFile(path), path).toBeUndefined();
    expect(normalisePath('/')).toBe('/');
  });

  it('lists the server’s routes: each page of its own, the bike’s and the ticket’s with their parameter', () => {
    expect(PAGE_ROUTES).toEqual(['/login', '/dashboard', '/admin', '/privacy', '/officina', '/bici/:numero', '/officina/:id']);
  });
});
