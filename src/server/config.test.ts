import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration (behaviour.md §1)', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      embeddedDatabase: true,
      publicUrl: 'http://localhost:3000',
      seedDemo: true,
      mailFrom: 'BiciElis <noreply@localhost>',
      residentEmailDomain: 'elis.org',
      timeZone: 'Europe/Rome',
      bookingHorizonDays: 30,
      paymentHoldMinutes: 30,
      retentionMonths: 24,
      trustProxy: false,
      secureCookies: false,
      stripe: undefined,
    });
    expect(c.dataDir).toMatch(/\/data$/);
  });

  it('does not seed demo data on an external database unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('derives the public URL from the port, and Secure cookies from https', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    const c = loadConfig({ PUBLIC_URL: 'https://bici.collegio.it/' });
    expect(c.publicUrl).toBe('https://bici.collegio.it');
    expect(c.secureCookies).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'ftp://x'],
    ['TZ_APP', 'Europe/Atlantide'],
    ['BOOKING_HORIZON_DAYS', '0'],
    ['RETENTION_MONTHS', '0'],
    ['RETENTION_MONTHS', '121'],
    ['RETENTION_MONTHS', 'due anni'],
    ['PAYMENT_HOLD_MINUTES', 'mezz’ora'],
    ['SEED_DEMO', 'forse'],
    ['ADMIN_EMAIL', 'non-una-email'],
    ['SMTP_URL', 'http://mail'],
    ['STRIPE_SECRET_KEY', 'pk_test_wrong'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value, ...(name === 'ADMIN_EMAIL' ? { ADMIN_PASSWORD: 'segreta123' } : {}) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
  });

  it('wants the Stripe keys all together, and the admin email with its password', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.it' })).toThrow(/ADMIN_PASSWORD/);
    const ok = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' });
    expect(ok.stripe?.publishableKey).toBe('pk_test_1');
  });

  describe('smart-lock provider (decision 043)', () => {
    const credentials = {
      TTLOCK_CLIENT_ID: 'client-id-1',
      TTLOCK_CLIENT_SECRET: 'client-secret-1',
      TTLOCK_USERNAME: 'portineria@elis.org',
      TTLOCK_PASSWORD: 'password dell’app',
    };

    it('is the simulated one by default', () => {
      expect(loadConfig({}).locks).toEqual({ provider: 'simulated' });
      expect(loadConfig({ LOCK_PROVIDER: 'simulated' }).locks).toEqual({ provider: 'simulated' });
    });

    it('refuses to start with LOCK_PROVIDER=ttlock and no credentials, naming what is missing', () => {
      let error: unknown;
      try {
        loadConfig({ LOCK_PROVIDER: 'ttlock' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('LOCK_PROVIDER=ttlock');
      for (const name of Object.keys(credentials)) expect(message).toContain(name);
    });

    it('names the one credential missing', () => {
      const { TTLOCK_PASSWORD: _password, ...three } = credentials;
      expect(() => loadConfig({ LOCK_PROVIDER: 'ttlock', ...three })).toThrow(/mancano TTLOCK_PASSWORD \(/);
      expect(() => loadConfig({ LOCK_PROVIDER: 'ttlock', ...credentials, TTLOCK_USERNAME: '  ' })).toThrow(/mancano TTLOCK_USERNAME \(/);
    });

    it('refuses TTLock credentials when the provider is not ttlock (they would be ignored)', () => {
      expect(() => loadConfig(credentials)).toThrow(/TTLOCK_CLIENT_ID, TTLOCK_CLIENT_SECRET, TTLOCK_USERNAME, TTLOCK_PASSWORD: impostate, ma LOCK_PROVIDER non è ttlock/);
    });

    it('takes TTLock with its credentials and the EU endpoint by default', () => {
      expect(loadConfig({ LOCK_PROVIDER: 'ttlock', ...credentials }).locks).toEqual({
        provider: 'ttlock',
        ttlock: {
          apiUrl: 'https://euapi.ttlock.com',
          clientId: 'client-id-1',
          clientSecret: 'client-secret-1',
          username: 'portineria@elis.org',
          password: 'password dell’app',
        },
      });
      const local = loadConfig({ LOCK_PROVIDER: 'ttlock', ...credentials, TTLOCK_API_URL: 'http://127.0.0.1:4010' });
      expect(local.locks.provider === 'ttlock' && local.locks.ttlock.apiUrl).toBe('http://127.0.0.1:4010');
    });

    it.each([
      ['LOCK_PROVIDER', 'nuki'],
      ['TTLOCK_API_URL', 'http://euapi.ttlock.com'],
      ['TTLOCK_API_URL', 'ftp://127.0.0.1'],
      ['TTLOCK_CLIENT_ID', 'con spazi'],
    ])('refuses %s=%s and names the variable', (name, value) => {
      expect(() => loadConfig({ LOCK_PROVIDER: 'ttlock', ...credentials, [name]: value })).toThrow(new RegExp(`${name}: `));
    });
  });

  it('treats empty values as unset (a copied .env.example works)', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '', PORT: '' })).toMatchObject({ embeddedDatabase: true, port: 3000 });
  });
});
