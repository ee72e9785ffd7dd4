import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz, createdAt, updatedAt } from '../db/columns.js';

export const SIMULATED_INTENT_STATES = ['requires_payment_method', 'succeeded', 'canceled'] as const;

export const simulatedPaymentIntents = pgTable(
  'simulated_payment_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    bookingId: integer('booking_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: SIMULATED_INTENT_STATES }).notNull().default('requires_payment_method'),
    /** The caller's idempotency key: the same key gives back the same intent. */
    idempotencyKey: text('idempotency_key').unique(),
    /** Code of the last declined attempt (card_declined, expired_card, …). */
    lastErrorCode: text('last_error_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    succeededAt: tstz('succeeded_at'),
  },
  (t) => [
    check('simulated_payment_intents_status_valid', sql`${t.status} in ('requires_payment_method', 'succeeded', 'canceled')`),
    check('simulated_payment_intents_amount_positive', sql`${t.amount} > 0`),
    check('simulated_payment_intents_succeeded_at', sql`${t.status} <> 'succeeded' or ${t.succeededAt} is not null`),
  ],
);

export const simulatedCheckoutSessions = pgTable(
  'simulated_checkout_sessions',
  {
    id: text('id').primaryKey(),
    bookingId: integer('booking_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** `expired` is not stored: an open session past `expires_at` is expired. */
    status: text('status', { enum: ['open', 'complete'] }).notNull().default('open'),
    paymentIntentId: text('payment_intent_id').references(() => simulatedPaymentIntents.id),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
    completedAt: tstz('completed_at'),
  },
  (t) => [
    check('simulated_checkout_sessions_status_valid', sql`${t.status} in ('open', 'complete')`),
    check(
      'simulated_checkout_sessions_complete_paid',
      sql`${t.status} <> 'complete' or (${t.paymentIntentId} is not null and ${t.completedAt} is not null)`,
    ),
  ],
);

/** Refunds of the simulated provider: a payment is refunded at most once, and in full. */
export const simulatedRefunds = pgTable('simulated_refunds', {
  id: text('id').primaryKey(),
  paymentIntentId: text('payment_intent_id')
    .notNull()
    .unique()
    .references(() => simulatedPaymentIntents.id),
  amount: integer('amount').notNull(),
  idempotencyKey: text('idempotency_key').unique(),
  createdAt: createdAt(),
});

/**
 * One row: the secret the simulated provider signs its webhook events with, shared by
 * every app process on this database (created at first use; see decision 012).
 */
export const simulatedProviderSettings = pgTable(
  'simulated_provider_settings',
  {
    id: integer('id').primaryKey(),
    webhookSecret: text('webhook_secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('simulated_provider_settings_one_row', sql`${t.id} = 1`)],
);

