import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server that plays the part of Stripe's API for the few endpoints the app
 * calls, in memory, so the real Stripe SDK (pointed at it with STRIPE_API_URL) is tested
 * without any network: PaymentIntents (create, retrieve), Checkout Sessions (create,
 * retrieve), Refunds (create). Bodies are form-encoded with bracket keys
 * (`metadata[bookingId]=5`) as the SDK sends them; `Idempotency-Key` replays the first
 * answer. Tests drive what Stripe would decide: an intent succeeds, its amount changes, a
 * session is paid, refunds fail.
 */

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent_data: { metadata: Record<string, string> };
  success_url: string;
  cancel_url: string;
  expires_at: number;
  url: string;
  line_items: unknown;
  client_reference_id: string | null;
  created: number;
  livemode: false;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  status: 'succeeded';
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

type Json = Record<string, unknown>;

/** `a[b][0]=x` → { a: { b: ['x'] } } (objects with keys 0..n become arrays). */
export function parseForm(text: string): Record<string, unknown> {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Json = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Json;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Json;
    const keys = Object.keys(o);
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => mapped[k]);
    return mapped;
  };
  return arrays(root) as Record<string, unknown>;
}

const now = () => Math.floor(Date.now() / 1000);
const rid = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

export class FakeStripe {
  readonly intents = new Map<string, FakeIntent>();
  readonly sessions = new Map<string, FakeSession>();
  readonly refunds: FakeRefund[] = [];
  readonly requests: RecordedRequest[] = [];
  /** When set, refunds answer 500 (and tell the SDK not to retry). */
  failRefunds = false;
  private readonly replies = new Map<string, { status: number; body: unknown }>();
  private server!: http.Server;
  url = '';

  static async start(): Promise<FakeStripe> {
    const fake = new FakeStripe();
    fake.server = http.createServer((req, res) => fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Forgets everything (between tests). */
  reset(): void {
    this.intents.clear();
    this.sessions.clear();
    this.refunds.length = 0;
    this.requests.length = 0;
    this.replies.clear();
    this.failRefunds = false;
  }

  /** The card was charged: the intent succeeds (as Stripe.js's confirmPayment would make it). */
  succeed(id: string): FakeIntent {
    const intent = this.intent(id);
    intent.status = 'succeeded';
    return intent;
  }

  setAmount(id: string, amount: number): FakeIntent {
    const intent = this.intent(id);
    intent.amount = amount;
    return intent;
  }

  /** An intent made straight on "Stripe", as someone with the keys could (forgery tests). */
  addIntent(fields: { amount?: number; currency?: string; status?: string; metadata?: Record<string, string> } = {}): FakeIntent {
    const id = rid('pi_fake_');
    const intent: FakeIntent = {
      id,
      object: 'payment_intent',
      amount: fields.amount ?? 250,
      currency: fields.currency ?? 'eur',
      status: fields.status ?? 'succeeded',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      metadata: fields.metadata ?? {},
      created: now(),
      livemode: false,
    };
    this.intents.set(id, intent);
    return intent;
  }

  /** The payer paid on the hosted page: a succeeded intent, the session complete and paid. */
  paySession(sessionId: string): { session: FakeSession; intent: FakeIntent } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const intent = this.addIntent({ amount: session.amount_total, currency: session.currency, metadata: session.payment_intent_data.metadata });
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    return { session, intent };
  }

  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }

  private intent(id: string): FakeIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no intent ${id}`);
    return intent;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const method = req.method ?? 'GET';
      const body = method === 'POST' ? parseForm(text) : {};
      const key = req.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' ? key : undefined;
      this.requests.push({ method, path, body, idempotencyKey });
      const auth = req.headers.authorization ?? '';
      let reply: { status: number; body: unknown; noRetry?: boolean };
      if (!/^Bearer sk_test_/.test(auth)) {
        reply = { status: 401, body: error('invalid_request_error', 'Invalid API Key provided', 'api_key_invalid') };
      } else if (method === 'POST' && idempotencyKey && this.replies.has(idempotencyKey)) {
        reply = this.replies.get(idempotencyKey)!;
      } else {
        reply = this.route(method, path, body);
        if (method === 'POST' && idempotencyKey && reply.status < 500) this.replies.set(idempotencyKey, reply);
      }
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        'request-id': rid('req_'),
        ...(reply.noRetry || reply.status < 500 ? { 'stripe-should-retry': 'false' } : {}),
      });
      res.end(JSON.stringify(reply.body));
    });
  }

  private route(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown; noRetry?: boolean } {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const intent = this.addIntent({
        amount: Number(body.amount),
        currency: String(body.currency),
        status: 'requires_payment_method',
        metadata: (body.metadata ?? {}) as Record<string, string>,
      });
      return { status: 200, body: intent };
    }
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const intent = this.intents.get(decodeURIComponent(m[1]!));
      return intent ? { status: 200, body: intent } : missing('payment_intent', m[1]!);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const items = (body.line_items ?? []) as { quantity?: string; price_data?: { unit_amount?: string; currency?: string } }[];
      const amount = items.reduce((sum, i) => sum + Number(i.price_data?.unit_amount ?? 0) * Number(i.quantity ?? 1), 0);
      const id = rid('cs_test_');
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        mode: String(body.mode),
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        amount_total: amount,
        currency: String(items[0]?.price_data?.currency ?? ''),
        metadata: (body.metadata ?? {}) as Record<string, string>,
        payment_intent_data: { metadata: ((body.payment_intent_data as Json | undefined)?.metadata ?? {}) as Record<string, string> },
        success_url: String(body.success_url),
        cancel_url: String(body.cancel_url),
        expires_at: Number(body.expires_at ?? now() + 24 * 3600),
        url: `${this.url}/c/pay/${id}`,
        line_items: items,
        client_reference_id: body.client_reference_id == null ? null : String(body.client_reference_id),
        created: now(),
        livemode: false,
      };
      this.sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const session = this.sessions.get(decodeURIComponent(m[1]!));
      return session ? { status: 200, body: session } : missing('checkout.session', m[1]!);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      if (this.failRefunds) return { status: 500, body: error('api_error', 'Something went wrong'), noRetry: true };
      const intent = this.intents.get(String(body.payment_intent));
      if (!intent) return missing('payment_intent', String(body.payment_intent));
      if (intent.status !== 'succeeded') {
        return { status: 400, body: error('invalid_request_error', 'This PaymentIntent has not succeeded', 'payment_intent_unexpected_state') };
      }
      if (this.refunds.some((r) => r.payment_intent === intent.id)) {
        return { status: 400, body: error('invalid_request_error', `Charge for ${intent.id} has already been refunded.`, 'charge_already_refunded') };
      }
      const refund: FakeRefund = { id: rid('re_'), object: 'refund', payment_intent: intent.id, amount: intent.amount, status: 'succeeded' };
      this.refunds.push(refund);
      return { status: 200, body: refund };
    }
    return { status: 404, body: error('invalid_request_error', `Unrecognized request URL (${method}: ${path})`) };
  }
}

function error(type: string, message: string, code?: string) {
  return { error: { type, message, ...(code ? { code } : {}) } };
}

function missing(what: string, id: string) {
  return { status: 404, body: error('invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing') };
}

export const WEBHOOK_SECRET = 'whsec_test_bicielis';

/** A Stripe event around an object, as Stripe would POST it. */
export function stripeEvent(type: string, object: unknown, id = rid('evt_')) {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** Body and Stripe-Signature header of an event, signed with the SDK's own test helper. */
export function signedEvent(event: unknown, secret = WEBHOOK_SECRET): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
