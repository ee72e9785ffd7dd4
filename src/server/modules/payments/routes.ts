import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  confirmPaymentSchema,
  createPaymentIntentSchema,
  externalBookingParamsSchema,
  simulatedCardSchema,
  simulatedConfirmSchema,
  simulatedIntentParamsSchema,
  simulatedSessionParamsSchema,
} from '../../../shared/schemas/payment.js';
import { badRequest } from '../../http/errors.js';
import { authenticatedUser, requireUser } from '../../http/auth.js';
import { SimulatedProvider } from '../../integrations/payments/simulated-provider.js';
import { confirmPayment, createCheckout, createPaymentIntent, handleWebhook, type PaymentDeps } from './service.js';
import { confirmSimulatedIntent, getSimulatedCheckout, paySimulatedCheckout } from './simulated.js';
import { testo } from '../../../shared/i18n/index.js';

/** Provider events are small; a little room over the app's 64 KB all the same. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export function paymentDeps(app: FastifyInstance): PaymentDeps {
  return { db: app.deps.database.db, clock: app.deps.clock, config: app.deps.config, provider: app.deps.payments, log: app.log, metrics: app.deps.metrics, rulesCache: app.deps.rulesCache };
}

/** Payments (behaviour.md §7). Every route needs a login except the provider's webhook. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.deps.payments;
  // The simulated provider delivers its events to the very function the webhook route calls.
  if (provider instanceof SimulatedProvider) {
    provider.deliverTo((rawBody, signature) => handleWebhook(paymentDeps(app), rawBody, signature));
  }

  // The webhook needs the raw bytes for the signature: its own JSON parser, for this route
  // only (an encapsulated context). No login, no Origin (a server-to-server POST passes
  // http/origin.ts, which checks Origin only when present).
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post('/payments/webhook', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request) => {
      if (!Buffer.isBuffer(request.body)) throw badRequest(testo('paymentsApi.invalidSignature'), 'INVALID_SIGNATURE');
      const header = request.headers['stripe-signature'];
      const result = await handleWebhook(paymentDeps(app), request.body, typeof header === 'string' ? header : undefined);
      return { received: true, ...(result.duplicate ? { duplicate: true } : {}) };
    });
  });

  await app.register(async (user) => {
    // onRequest: the login is checked before the body is even parsed or validated.
    user.addHook('onRequest', requireUser);
    const u = user.withTypeProvider<ZodTypeProvider>();

    u.post('/create-payment-intent', { schema: { body: createPaymentIntentSchema } }, async (request) =>
      createPaymentIntent(paymentDeps(app), authenticatedUser(request).id, request.body.bookingId),
    );

    u.post('/confirm-payment', { schema: { body: confirmPaymentSchema } }, async (request) =>
      confirmPayment(paymentDeps(app), authenticatedUser(request).id, request.body),
    );

    u.post('/external-bookings/:bookingId/payment', { schema: { params: externalBookingParamsSchema } }, async (request) =>
      createCheckout(paymentDeps(app), authenticatedUser(request).id, request.params.bookingId),
    );

    // The simulated provider's own API (its card form and hosted page); absent with Stripe.
    if (provider instanceof SimulatedProvider) {
      const sim = () => ({ db: app.deps.database.db, provider, metrics: app.deps.metrics });
      u.post(
        '/payments/simulated/intents/:intentId/confirm',
        { schema: { params: simulatedIntentParamsSchema, body: simulatedConfirmSchema } },
        async (request) => confirmSimulatedIntent(sim(), authenticatedUser(request).id, request.params.intentId, request.body),
      );
      u.get('/payments/simulated/checkout/:sessionId', { schema: { params: simulatedSessionParamsSchema } }, async (request) =>
        getSimulatedCheckout(sim(), authenticatedUser(request).id, request.params.sessionId),
      );
      u.post(
        '/payments/simulated/checkout/:sessionId/pay',
        { schema: { params: simulatedSessionParamsSchema, body: simulatedCardSchema } },
        async (request) => paySimulatedCheckout(sim(), authenticatedUser(request).id, request.params.sessionId, request.body),
      );
    }
  });
};
