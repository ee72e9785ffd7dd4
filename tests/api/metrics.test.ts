import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { mailerFromConfig } from '../../src/server/integrations/mailer.js';
import { runOccurrence, type JobSpec } from '../../src/server/jobs/scheduler.js';
import { createMetrics } from '../../src/server/metrics.js';
import { call, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { insertBike } from '../helpers/admin-bookings.js';
import { minuteJob } from '../helpers/minute-job.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { noteSecret } from '../helpers/leak-scan.js';
import { scrape } from '../helpers/prometheus.js';

/**
 * GET /metrics (issue 24, decision 032): the text a Prometheus server reads, parsed by a
 * Prometheus text-format parser, and who may read it. TEST_NOW is 2026-11-21 10:00 Rome; the
 * bookings are tomorrow 10:00–12:00 Rome (09:00–11:00Z).
 */
const TOKEN = 'metrics-test-token-0123456789abcdef0123456789';
noteSecret(TOKEN);

let ctx: TestContext;
/** The same app with METRICS_TOKEN set. */
let withToken: TestContext;

beforeAll(async () => {
  // The app's own mailer (the file outbox under .tmp/test-data), so its deliveries are counted.
  ctx = await createTestApp();
  withToken = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await ctx?.close();
  await withToken?.close();
});
beforeEach(async () => {
  await truncateAll(ctx.database.db);
  ctx.clock.set(new Date('2026-11-21T09:00:00Z'));
});

const TOMORROW = '2026-11-22';
const at = (hhmmZ: string) => new Date(`${TOMORROW}T${hhmmZ}:00Z`);

async function bookId(who: Person, biciId: number) {
  const res = await call(ctx.app, who, 'POST', '/api/prenotazioni', {
    dataPrenotazione: TOMORROW,
    orarioInizio: '10:00',
    orarioFine: '12:00',
    biciId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

const booking = (event: string) => ({ name: 'bicielis_booking_events_total', labels: { event } });

describe('the metrics move with what happens', () => {
  it('a booking made, picked up and returned through the API; a damage email sent; the routes timed by pattern', async () => {
    await person(ctx, { ruolo: 'admin' });
    const rider = await person(ctx);
    const bike = await insertBike(ctx.database.db);
    const before = await scrape(ctx.app);

    const id = await bookId(rider, bike);
    const afterBooking = await scrape(ctx.app);
    expect(afterBooking.value('bicielis_booking_events_total', { event: 'created' })).toBe(
      before.value('bicielis_booking_events_total', { event: 'created' }) + 1,
    );
    expect(afterBooking.value(booking('picked_up').name, booking('picked_up').labels)).toBe(before.value(booking('picked_up').name, booking('picked_up').labels));

    ctx.clock.set(at('09:05'));
    expect((await call(ctx.app, rider, 'POST', `/api/prenotazioni/${id}/ritiro`)).statusCode).toBe(200);
    ctx.clock.set(at('10:30'));
    const returned = await call(ctx.app, rider, 'POST', `/api/prenotazioni/${id}/riconsegna`, {
      danno: { categoria: 'luci', descrizione: 'Luce posteriore rotta' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    // The damage report's email to the admin leaves in the background.
    await ctx.app.deps.mailer.idle();
    // A 404 of an unknown path, with an id and a token-like tail in its URL.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/nessuna/12345/abcdef0123456789' })).statusCode).toBe(404);

    const after = await scrape(ctx.app);
    for (const event of ['picked_up', 'returned']) {
      expect(after.value('bicielis_booking_events_total', { event }), event).toBe(before.value('bicielis_booking_events_total', { event }) + 1);
    }
    expect(after.value('bicielis_emails_total', { outcome: 'sent' })).toBe(before.value('bicielis_emails_total', { outcome: 'sent' }) + 1);
    expect(after.value('bicielis_emails_total', { outcome: 'failed' })).toBe(0);

    const http = 'bicielis_http_request_duration_seconds';
    expect(after.family(http)?.type).toBe('HISTOGRAM');
    expect(after.count(http, { method: 'POST', route: '/api/prenotazioni', status_code: '201' })).toBe(1);
    expect(after.count(http, { method: 'POST', route: '/api/prenotazioni/:id/ritiro', status_code: '200' })).toBe(1);
    expect(after.count(http, { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    // Route labels are patterns: no id, no token, never the raw URL.
    const routes = new Set(after.samples(http).map((m) => m.labels?.route ?? ''));
    expect([...routes].filter((r) => /\/\d|12345|abcdef/.test(r))).toEqual([]);
  });

  it('a cancellation, a no-show and an unpaid hold released by the life cycle', async () => {
    const bike1 = await insertBike(ctx.database.db);
    const bike2 = await insertBike(ctx.database.db);
    const bike3 = await insertBike(ctx.database.db);
    const canceller = await person(ctx);
    const absent = await person(ctx);
    const external = await person(ctx, { residente: false });
    const before = await scrape(ctx.app);

    const cancelled = await bookId(canceller, bike1);
    expect((await call(ctx.app, canceller, 'DELETE', `/api/prenotazioni/${cancelled}`)).statusCode).toBe(200);
    await bookId(absent, bike2);
    // Booked now, unpaid: its hold (30 minutes) runs out before the no-show's instant.
    await bookId(external, bike3);
    ctx.clock.set(at('09:45'));
    // A read shows the life cycle as of now; the minute job writes it down (decision 035).
    expect((await call(ctx.app, absent, 'GET', '/api/prenotazioni/user')).statusCode).toBe(200);
    await minuteJob(ctx);

    const after = await scrape(ctx.app);
    const delta = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect(delta('bicielis_booking_events_total', { event: 'created' })).toBe(3);
    expect(delta('bicielis_booking_events_total', { event: 'cancelled' })).toBe(1);
    expect(delta('bicielis_booking_events_total', { event: 'no_show' })).toBe(1);
    expect(delta('bicielis_booking_events_total', { event: 'hold_expired' })).toBe(1);
    expect(delta('bicielis_payments_total', { outcome: 'expired' })).toBe(1);
  });

  it('a declined card, a payment that succeeds, and its refund when the booking is cancelled', async () => {
    const bike = await insertBike(ctx.database.db);
    const payer = await person(ctx, { residente: false });
    const before = await scrape(ctx.app);
    const id = await bookId(payer, bike);
    const intent = (await call(ctx.app, payer, 'POST', '/api/create-payment-intent', { bookingId: id })).json();
    const card = (cardNumber: string) => ({ clientSecret: intent.clientSecret, cardNumber, expiry: '12/34', cvc: '123' });
    const confirm = (cardNumber: string) =>
      call(ctx.app, payer, 'POST', `/api/payments/simulated/intents/${intent.paymentIntentId}/confirm`, card(cardNumber));

    expect((await confirm('4000 0000 0000 0002')).statusCode).toBe(402);
    expect((await confirm('4242 4242 4242 4242')).statusCode).toBe(200);
    const paid = await call(ctx.app, payer, 'POST', '/api/confirm-payment', { bookingId: id, paymentIntentId: intent.paymentIntentId });
    expect(paid.statusCode, paid.body).toBe(200);
    const afterPayment = await scrape(ctx.app);
    expect(afterPayment.value('bicielis_payments_total', { outcome: 'declined' })).toBe(before.value('bicielis_payments_total', { outcome: 'declined' }) + 1);
    // Applied once, whether the provider's event or the payer's confirm came first.
    expect(afterPayment.value('bicielis_payments_total', { outcome: 'succeeded' })).toBe(before.value('bicielis_payments_total', { outcome: 'succeeded' }) + 1);

    expect((await call(ctx.app, payer, 'DELETE', `/api/prenotazioni/${id}`)).statusCode).toBe(200);
    const after = await scrape(ctx.app);
    expect(after.value('bicielis_refunds_total', { result: 'ok' })).toBe(before.value('bicielis_refunds_total', { result: 'ok' }) + 1);
    expect(after.value('bicielis_refunds_total', { result: 'failed' })).toBe(0);
  });

  it('every scheduled job is counted by name: a run, its duration, a failure (the db-backup job throwing)', async () => {
    const ok: JobSpec = { name: 'stats-fold', pattern: '* * * * *', lock: 4_299_001, run: async () => 'done' };
    const failing: JobSpec = {
      name: 'db-backup',
      pattern: '0 2 * * *',
      lock: 4_299_002,
      run: async () => {
        throw new Error('backup non riuscito');
      },
    };
    const before = await scrape(ctx.app);
    const { metrics } = ctx.app.deps;
    expect(await runOccurrence(ctx.database.pool, ok, new Date('2026-11-21T09:00:00Z'), undefined, metrics)).toBe(true);
    await expect(runOccurrence(ctx.database.pool, failing, new Date('2026-11-21T02:00:00Z'), undefined, metrics)).rejects.toThrow('backup non riuscito');
    const after = await scrape(ctx.app);
    const runs = 'bicielis_job_runs_total';
    expect(after.value(runs, { job: 'stats-fold', outcome: 'success' })).toBe(before.value(runs, { job: 'stats-fold', outcome: 'success' }) + 1);
    expect(after.value(runs, { job: 'db-backup', outcome: 'failure' })).toBe(before.value(runs, { job: 'db-backup', outcome: 'failure' }) + 1);
    expect(after.value(runs, { job: 'db-backup', outcome: 'success' })).toBe(0);
    expect(after.count('bicielis_job_duration_seconds', { job: 'db-backup' })).toBe(before.count('bicielis_job_duration_seconds', { job: 'db-backup' }) + 1);
    expect(after.value('bicielis_job_last_success_timestamp_seconds', { job: 'stats-fold' })).toBeGreaterThan(1_700_000_000);
    expect(after.samples('bicielis_job_last_success_timestamp_seconds', { job: 'db-backup' })).toEqual([]);
  });

  it('an email the SMTP server refuses is counted as failed', async () => {
    const metrics = createMetrics({ processDefaults: false });
    const closedPort = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(port));
      });
    });
    const mailer = mailerFromConfig(
      { smtpUrl: `smtp://127.0.0.1:${closedPort}`, mailFrom: 'BiciElis <noreply@localhost>', dataDir: '.tmp/test-data' },
      pino({ level: 'silent' }),
      metrics,
    );
    await expect(mailer.send({ to: 'a@example.it', subject: 'Prova', text: 'Prova' })).rejects.toThrow();
    await mailer.close();
    expect((await metrics.emails.get()).values.find((v) => v.labels.outcome === 'failed')?.value).toBe(1);
  });

  it('the pool gauges, the process defaults and every family documented', async () => {
    const s = await scrape(ctx.app);
    const pool = ctx.database.pool;
    expect(s.family('bicielis_db_pool_connections')?.type).toBe('GAUGE');
    expect(s.value('bicielis_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(s.value('bicielis_db_pool_connections', { state: 'in_use' }) + s.value('bicielis_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(pool.options.max!);
    expect(s.samples('bicielis_db_pool_connections', { state: 'in_use' })).toHaveLength(1);
    expect(s.samples('bicielis_db_pool_waiting_requests')).toHaveLength(1);
    expect(s.value('bicielis_db_pool_max_connections')).toBe(pool.options.max);
    expect(s.family('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(s.family('nodejs_heap_size_used_bytes')?.type).toBe('GAUGE');
    for (const family of s.families.filter((f) => f.name.startsWith('bicielis_'))) expect(family.help, family.name).not.toBe('');
  });

  it('each app has its own registry: two in one process neither collide nor share counts', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.bookings.inc({ event: 'created' });
    expect((await a.bookings.get()).values.find((v) => v.labels.event === 'created')?.value).toBe(1);
    expect((await b.bookings.get()).values.find((v) => v.labels.event === 'created')?.value).toBe(0);
    expect((await withToken.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });
});

describe('who may read /metrics', () => {
  const get = (app: TestContext['app'], remoteAddress: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('from this machine: yes, with or without a token configured (IPv4 and IPv6 loopback)', async () => {
    for (const app of [ctx.app, withToken.app]) {
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const res = await get(app, address);
        expect(res.statusCode, address).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('from elsewhere without a token: refused, in Italian, in the shared error shape', async () => {
    const notConfigured = await get(ctx.app, '203.0.113.9');
    expect(notConfigured.statusCode).toBe(403);
    expect(notConfigured.json()).toEqual({ message: 'Le metriche sono consultabili solo da questo server', code: 'METRICS_FORBIDDEN' });
    const noHeader = await get(withToken.app, '203.0.113.9');
    expect(noHeader.statusCode).toBe(401);
    expect(noHeader.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(noHeader.json()).toEqual({ message: 'Per le metriche serve il token di accesso', code: 'METRICS_UNAUTHENTICATED' });
    // An admin's session is not a scrape credential.
    const admin = await person(withToken, { ruolo: 'admin' });
    expect((await get(withToken.app, '203.0.113.9', { cookie: admin.cookie })).statusCode).toBe(401);
  });

  it('a request a local proxy forwarded is not local, whatever X-Forwarded-For says', async () => {
    expect((await get(withToken.app, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(401);
    expect((await get(withToken.app, '127.0.0.1', { forwarded: 'for=127.0.0.1' })).statusCode).toBe(401);
    // …and a remote client cannot pass as local by claiming it.
    expect((await get(withToken.app, '203.0.113.9', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(401);
  });

  it('with the right bearer token: yes; with a wrong one, or when none is configured: 403', async () => {
    const ok = await get(withToken.app, '203.0.113.9', { authorization: `Bearer ${TOKEN}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('# TYPE bicielis_booking_events_total counter');
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, 'Bearer', `Bearer ${TOKEN} extra`]) {
      const res = await get(withToken.app, '203.0.113.9', { authorization });
      expect(res.statusCode, authorization).toBe(403);
      expect(res.json()).toEqual({ message: 'Token di accesso alle metriche non valido', code: 'METRICS_FORBIDDEN' });
    }
    expect((await get(ctx.app, '203.0.113.9', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(403);
  });

  it('METRICS_TOKEN is validated at start-up', () => {
    const env = { DATABASE_URL: 'postgres://u@localhost/d' };
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'corto' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, METRICS_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ ...env, METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig(env).metricsToken).toBeUndefined();
  });
});
