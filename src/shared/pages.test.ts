import { describe, expect, it } from 'vitest';
import { BIKE_PAGE_FILE, bikePageSegment, normalisePath, ownPageFile, PAGE_ROUTES } from './pages';

describe('the page of an address (one list for the server and the service worker)', () => {
  it('gives the pages of their own, a trailing slash or not', () => {
    expect(ownPageFile('/dashboard')).toBe('dashboard.html');
    expect(ownPageFile('/admin/')).toBe('admin.html');
    expect(ownPageFile('/login')).toBe('login.html');
    expect(ownPageFile('/privacy')).toBe('privacy.html');
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

  it('gives nothing of its own to the other addresses (they get the loading page)', () => {
    for (const path of ['/', '/profilo', '/officina', '/admin/sedi', '/dashboardx']) expect(ownPageFile(path), path).toBeUndefined();
    expect(normalisePath('/')).toBe('/');
  });

  it('lists the server’s routes: each page of its own, and the bike’s with its parameter', () => {
    expect(PAGE_ROUTES).toEqual(['/login', '/dashboard', '/admin', '/privacy', '/bici/:numero']);
  });
});
