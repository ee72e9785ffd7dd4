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

  it('treats empty values as unset (a copied .env.example works)', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: '', PORT: '' })).toMatchObject({ embeddedDatabase: true, port: 3000 });
  });
});
