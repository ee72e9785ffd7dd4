import { beforeAll, describe, expect, it } from 'vitest';
import { DOMAINS } from '../../../shared/i18n';
import { loadDomains } from '../../lib/i18n';
import { tFor } from '../../../shared/i18n/all';
import { personName } from './admin-notices';
import {
  ADMIN_TABS,
  adminBookingBadge,
  shownTab,
  visibleTabs,
  adminPaymentLabel,
  bookingFilterParams,
  formatDelay,
  bookingDeletedToast,
  formatShortDate,
  importToast,
  listUrl,
  pageCount,
  tabFromSearch,
} from './admin-model';

// The badges are put into the app's language (Italian here): its texts loaded first.
beforeAll(() => loadDomains(...DOMAINS));

describe('tabFromSearch', () => {
  it('reads ?tab= and falls back to Prenotazioni', () => {
    expect(tabFromSearch('tab=utenti')).toBe('utenti');
    expect(tabFromSearch('?tab=biciclette')).toBe('biciclette');
    expect(tabFromSearch('tab=regole')).toBe('regole');
    expect(tabFromSearch('tab=registro')).toBe('registro');
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

describe('the ride in the admin lists', () => {
  it('filters by state or, for active bookings, by phase', () => {
    expect(bookingFilterParams('tutti')).toEqual({ stato: 'tutti' });
    expect(bookingFilterParams('attiva')).toEqual({ stato: 'attiva' });
    expect(bookingFilterParams('in_ritardo')).toEqual({ fase: 'in_ritardo' });
    expect(bookingFilterParams('da_ritirare')).toEqual({ fase: 'da_ritirare' });
    expect(listUrl('/api/admin/prenotazioni', { ...bookingFilterParams('in_corso'), page: 1 })).toBe(
      '/api/admin/prenotazioni?fase=in_corso&page=1',
    );
  });

  it('shows the phase of an active booking, the state of the others', () => {
    expect(adminBookingBadge({ stato: 'attiva', fase: 'in_ritardo' })).toEqual({ label: 'In ritardo', tone: 'danger' });
    expect(adminBookingBadge({ stato: 'completata', fase: 'conclusa' }).label).toBe('Completata');
    expect(adminBookingBadge({ stato: 'cancellata', fase: 'cancellata', motivoCancellazione: 'utente' }).label).toBe('Cancellata');
    expect(adminBookingBadge({ stato: 'cancellata', fase: 'cancellata', motivoCancellazione: 'bici_non_rientrata' }).label).toBe(
      'Annullata: bici non rientrata',
    );
    expect(adminBookingBadge({ stato: 'cancellata', fase: 'cancellata', motivoCancellazione: 'bici_guasta' }).label).toBe('Annullata: bici fuori uso');
  });

  it('says a delay in minutes, hours and days', () => {
    expect(formatDelay(0)).toBe('0 min');
    expect(formatDelay(45)).toBe('45 min');
    expect(formatDelay(120)).toBe('2 h');
    expect(formatDelay(80)).toBe('1 h 20 min');
    expect(formatDelay(27 * 60 + 5)).toBe('1 g 3 h');
    expect(formatDelay(48 * 60)).toBe('2 g');
  });
});

describe('an erased person in the lists (issue 36)', () => {
  it('is named in the reader’s language; any other name is shown as written', () => {
    expect(personName('Utente anonimo', tFor('en'))).toBe('Anonymous user');
    expect(personName('Utente anonimo', tFor('it'))).toBe('Utente anonimo');
    expect(personName('Utente Anonimo Rossi', tFor('en'))).toBe('Utente Anonimo Rossi');
  });
});

describe('visibleTabs (issue 48)', () => {
  const may = (caps: string[]) => (capability: string) => caps.includes(capability);
  it('gives the admin every tab', () => {
    expect(visibleTabs({ isAdmin: true, may: () => true })).toEqual(ADMIN_TABS);
  });
  it('gives the desk bookings, bikes and closures; the workshop the bikes only', () => {
    expect(visibleTabs({ isAdmin: false, may: may(['prenotazioni', 'banco', 'biciclette', 'chiusure']) })).toEqual(['prenotazioni', 'biciclette', 'regole']);
    expect(visibleTabs({ isAdmin: false, may: may(['biciclette', 'lucchetti', 'interventi']) })).toEqual(['biciclette']);
  });
  it('shows the first tab when the address names one that is not open', () => {
    expect(shownTab('utenti', ['biciclette'])).toBe('biciclette');
    expect(shownTab('regole', ['prenotazioni', 'regole'])).toBe('regole');
  });
});
