import { describe, expect, it } from 'vitest';
import {
  adminPaymentLabel,
  bookingDeletedToast,
  formatShortDate,
  importToast,
  listUrl,
  pageCount,
  tabFromSearch,
} from './admin-model';

describe('tabFromSearch', () => {
  it('reads ?tab= and falls back to Prenotazioni', () => {
    expect(tabFromSearch('tab=utenti')).toBe('utenti');
    expect(tabFromSearch('?tab=biciclette')).toBe('biciclette');
    expect(tabFromSearch('')).toBe('prenotazioni');
    expect(tabFromSearch('tab=altro')).toBe('prenotazioni');
  });
});

describe('listUrl', () => {
  it('leaves out empty values', () => {
    expect(listUrl('/api/admin/prenotazioni', { q: '', stato: 'attiva', page: 2, pageSize: 50 })).toBe(
      '/api/admin/prenotazioni?stato=attiva&page=2&pageSize=50',
    );
    expect(listUrl('/api/admin/users', { q: 'rossi à' })).toBe('/api/admin/users?q=rossi+%C3%A0');
  });
});

describe('pageCount', () => {
  it('is at least one page', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
});

describe('display', () => {
  it('formats a booking day as dd/MM/yy', () => {
    expect(formatShortDate('2026-11-05')).toBe('05/11/26');
  });

  it('names the payment as the spec says', () => {
    expect(adminPaymentLabel(null)).toBe('Gratuito (Residente)');
    expect(adminPaymentLabel('completed')).toBe('Pagato (2,50\u00a0€)');
    expect(adminPaymentLabel('pending')).toBe('In attesa (2,50\u00a0€)');
    expect(adminPaymentLabel('failed')).toBe('Fallito (2,50\u00a0€)');
    expect(adminPaymentLabel('refunded')).toBe('Rimborsato (2,50\u00a0€)');
  });

  it('tells refunds and import counts in the toasts', () => {
    expect(bookingDeletedToast(false)).toEqual({ title: 'Prenotazione eliminata' });
    expect(bookingDeletedToast(true).description).toContain('rimborsato');
    expect(importToast({ imported: 7, skipped: 1 })).toEqual({
      title: 'Importazione completata',
      description: 'Importati: 7, saltati: 1',
    });
  });
});
