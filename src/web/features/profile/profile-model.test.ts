import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomains } from '../../lib/i18n';
import { base64UrlToBytes, pushSupport, validateNames, validatePasswordChange } from './profile-model';

// The texts in Italian, as the page of an Italian reader has them.
beforeAll(() => loadDomains('user'));

describe('name and surname', () => {
  const saved = { nome: 'Anna', cognome: 'Bianchi' };

  it('sends only what changed, trimmed', () => {
    expect(validateNames({ nome: ' Anna ', cognome: 'Rossi ' }, saved)).toEqual({ ok: true, changes: { cognome: 'Rossi' } });
    expect(validateNames({ nome: 'Anna', cognome: 'Bianchi' }, saved)).toEqual({ ok: true, changes: {} });
  });

  it('refuses an empty or too long field', () => {
    expect(validateNames({ nome: '  ', cognome: 'x'.repeat(101) }, saved)).toEqual({
      ok: false,
      errors: { nome: 'Il campo non può essere vuoto', cognome: 'Al massimo 100 caratteri' },
    });
  });
});

describe('password change', () => {
  it('asks for every field', () => {
    expect(validatePasswordChange({ passwordAttuale: '', nuovaPassword: '', confermaPassword: '' })).toEqual({
      ok: false,
      errors: {
        passwordAttuale: 'Inserisci la password attuale',
        nuovaPassword: 'Inserisci la nuova password',
        confermaPassword: 'Ripeti la nuova password',
      },
    });
  });

  it('wants a new password of at least 6 characters, different, typed twice the same', () => {
    expect(validatePasswordChange({ passwordAttuale: 'vecchia1', nuovaPassword: 'abc', confermaPassword: 'abc' })).toMatchObject({
      ok: false,
      errors: { nuovaPassword: 'La password deve essere di almeno 6 caratteri' },
    });
    expect(validatePasswordChange({ passwordAttuale: 'uguale1', nuovaPassword: 'uguale1', confermaPassword: 'uguale1' })).toMatchObject({
      ok: false,
      errors: { nuovaPassword: 'La nuova password deve essere diversa da quella attuale' },
    });
    expect(validatePasswordChange({ passwordAttuale: 'vecchia1', nuovaPassword: 'nuova123', confermaPassword: 'nuova124' })).toEqual({
      ok: false,
      errors: { confermaPassword: 'Le password non corrispondono' },
    });
    expect(validatePasswordChange({ passwordAttuale: 'vecchia1', nuovaPassword: 'nuova123', confermaPassword: 'nuova123' })).toEqual({
      ok: true,
      request: { passwordAttuale: 'vecchia1', nuovaPassword: 'nuova123' },
    });
  });
});

describe('web push', () => {
  const full = { serviceWorker: true, pushManager: true, notification: 'default' as NotificationPermission };

  it('is offered only with service worker, Push API, Notification and a server key', () => {
    expect(pushSupport(full, 'BKey')).toBe('supported');
    expect(pushSupport({ ...full, pushManager: false }, 'BKey')).toBe('unsupported');
    expect(pushSupport({ ...full, notification: null }, 'BKey')).toBe('unsupported');
    expect(pushSupport(full, null)).toBe('unavailable');
    expect(pushSupport({ ...full, notification: 'denied' }, 'BKey')).toBe('denied');
  });

  it('decodes a base64url key without padding', () => {
    expect([...base64UrlToBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
    expect(base64UrlToBytes('A'.repeat(87))).toHaveLength(65);
  });
});
