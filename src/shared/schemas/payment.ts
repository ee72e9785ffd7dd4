import { z } from '../zod-it.js';
import { msg } from './message.js';
import { idBody, idParam } from './ids.js';

/**
 * The payment API (behaviour.md §7, spec §7) — one source for the routes and the pages.
 * The amount is never sent by the client: it is EXTERNAL_FEE_CENTS, fixed on the server.
 */

/** A booking's id in a JSON body, and in an address (`/external-bookings/:bookingId/payment`, `/payment/:bookingId`). */
const bookingId = idBody('schemas.invalidBooking');
export const bookingIdParam = idParam('schemas.invalidBooking');

/** POST /api/create-payment-intent */
export const createPaymentIntentSchema = z.object({ bookingId });
/** Answer of POST /api/create-payment-intent: the same booking reuses its open intent. */
export interface PaymentIntentResponse {
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
}

/** POST /api/confirm-payment */
export const confirmPaymentSchema = z.object({
  paymentIntentId: z.string(msg('schemas.invalidPayment')).trim().min(1, msg('schemas.invalidPayment')).max(255, msg('schemas.invalidPayment')),
  bookingId,
});
/** Answer of POST /api/confirm-payment (idempotent). */
export interface ConfirmPaymentResponse {
  bookingId: number;
  paymentStatus: 'completed';
}

/** Params of POST /api/external-bookings/:bookingId/payment */
export const externalBookingParamsSchema = z.object({ bookingId: bookingIdParam });
/** Answer of POST /api/external-bookings/:bookingId/payment: the hosted checkout's address. */
export interface CheckoutResponse {
  paymentUrl: string;
}

// ---------------------------------------------------------------------------------------
// The simulated provider (no Stripe keys): its card form and its hosted-checkout page.
// It behaves like Stripe's test mode: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is
// declined. A decline answers 402 with { message (Italian), code: 'card_declined' | … }.
// ---------------------------------------------------------------------------------------

/** Card fields as a person types them: spaces allowed in the number, expiry `MM/AA`. */
export const simulatedCardSchema = z.object({
  cardNumber: z
    .string(msg('schemas.enterCardNumber'))
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, msg('schemas.invalidCardNumber'))),
  expiry: z
    .string(msg('schemas.enterExpiry'))
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, msg('schemas.invalidExpiry')),
  cvc: z.string(msg('schemas.enterCvc')).trim().regex(/^\d{3,4}$/, msg('schemas.invalidCvc')),
});
export type SimulatedCard = z.input<typeof simulatedCardSchema>;

/** POST /api/payments/simulated/intents/:intentId/confirm — what Stripe.js's confirmPayment does. */
export const simulatedConfirmSchema = simulatedCardSchema.extend({
  clientSecret: z.string(msg('schemas.invalidPayment')).min(1).max(255),
});
export const simulatedIntentParamsSchema = z.object({ intentId: z.string().regex(/^pi_sim_[A-Za-z0-9]{8,64}$/, msg('schemas.paymentNotFound')) });
export interface SimulatedConfirmResponse {
  paymentIntentId: string;
  status: 'succeeded';
}

/** GET /api/payments/simulated/checkout/:sessionId — what the hosted page shows. */
export const simulatedSessionParamsSchema = z.object({ sessionId: z.string().regex(/^cs_sim_[A-Za-z0-9]{8,64}$/, msg('schemas.checkoutNotFound')) });
export interface SimulatedCheckoutSession {
  id: string;
  bookingId: number;
  amount: number;
  currency: string;
  status: 'open' | 'complete' | 'expired';
  cancelUrl: string;
}
/** POST /api/payments/simulated/checkout/:sessionId/pay — the card; answers where to go next. */
export interface SimulatedCheckoutPayResponse {
  redirectUrl: string;
}
