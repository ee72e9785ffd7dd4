import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';

/**
 * Content-Security-Policy (decision 012): Stripe's origins only on the HTML of the card
 * form (`/payment/:id`), only with Stripe configured; every other answer stays strict.
 */
let webRoot: string;
let withStripe: TestContext;
let simulated: TestContext;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-web-'));
  await fs.mkdir(path.join(webRoot, 'assets'));
  await fs.writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>BiciElis</title><div id="root"></div>');
  await fs.writeFile(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
  withStripe = await createTestApp({
    deps: { webRoot },
    env: {
      STRIPE_SECRET_KEY: 'sk_test_csp',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_csp',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_csp',
      // Never called here: a closed port.
      STRIPE_API_URL: 'http://127.0.0.1:9',
    },
  });
  simulated = await createTestApp({ deps: { webRoot } });
});

afterAll(async () => {
  await withStripe.close();
  await simulated.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});

/** `Content-Security-Policy` as { directive: [sources] }. */
function cspDirectives(header: string | string[] | number | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of String(header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

const csp = async (ctx: TestContext, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url });
  return { res, header: String(res.headers['content-security-policy'] ?? ''), directives: cspDirectives(res.headers['content-security-policy']) };
};

describe('with Stripe configured', () => {
  it('the payment page’s HTML lets Stripe.js, its frames and its API in', async () => {
    for (const url of ['/payment/5', '/payment/5?payment_intent=pi_1&redirect_status=succeeded']) {
      const { res, directives } = await csp(withStripe, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(directives['script-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
      expect(directives['frame-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
      expect(directives['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:']);
      expect(directives['form-action']).toEqual(["'self'"]);
    }
  });

  it.each(['/dashboard', '/login', '/', '/checkout/5', '/checkout-success', '/payment', '/payment/5/altro', '/assets/app-abc123.js'])(
    '%s keeps the strict policy',
    async (url) => {
      const { header, directives } = await csp(withStripe, url);
      expect(header).not.toContain('stripe');
      expect(directives['script-src']).toEqual(["'self'"]);
    },
  );

  it('a data answer allows nothing at all (issue 33: the data policy)', async () => {
    for (const app of [withStripe, simulated]) {
      const { header, directives } = await csp(app, '/api/config');
      expect(header).not.toContain('stripe');
      expect(directives['default-src']).toEqual(["'none'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
    }
  });

  it('an API path that looks like the page is not widened', async () => {
    const { header } = await csp(withStripe, '/api/payment/5');
    expect(header).not.toContain('stripe');
  });
});

describe('without Stripe (simulated provider)', () => {
  it.each(['/payment/5', '/dashboard', '/login', '/pagamento-simulato/cs_sim_abcdefgh12345678'])('%s has no Stripe origin at all', async (url) => {
    const { header, directives } = await csp(simulated, url);
    expect(header).not.toContain('stripe');
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['frame-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
  });
});
