import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz, createdAt, updatedAt } from '../../db/columns.js';
import { prenotazioni } from '../bookings/tables.js';

export const PAYMENT_STATES = ['pending', 'completed', 'failed', 'refunded'] as const;

export const pagamenti = pgTable(
  'pagamenti',
  {
    id: serial('id').primaryKey(),
    /**
     * Null once an admin deleted the booking: the payment stays, detached, for the
     * accounts; `bookingDate`/`bookingDeletedAt` say what reports need of the booking
     * (docs/decisions/015-payments-of-deleted-bookings.md).
     */
    prenotazioneId: integer('prenotazione_id').references(() => prenotazioni.id, { onDelete: 'set null' }),
    /** The day of the booking, copied when the booking is deleted (null while it exists). */
    bookingDate: date('booking_date', { mode: 'string' }),
    /** When the booking was deleted by an admin (null while it exists). */
    bookingDeletedAt: tstz('booking_deleted_at'),
    provider: text('provider', { enum: ['stripe', 'simulated'] }).notNull(),
    providerPaymentId: text('provider_payment_id').unique(),
    providerCheckoutId: text('provider_checkout_id').unique(),
    amount: integer('amount').notNull().default(250),
    currency: text('currency').notNull().default('eur'),
    status: text('status', { enum: PAYMENT_STATES }).notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: tstz('completed_at'),
    refundedAt: tstz('refunded_at'),
  },
  (t) => [
    check('pagamenti_status_valid', sql`${t.status} in ('pending', 'completed', 'failed', 'refunded')`),
    check('pagamenti_amount_positive', sql`${t.amount} > 0`),
    // A payment without its booking keeps the snapshot the reports need.
    check(
      'pagamenti_detached_snapshot',
      sql`${t.prenotazioneId} is not null or (${t.bookingDate} is not null and ${t.bookingDeletedAt} is not null)`,
    ),
    // One payment row per booking; so a booking is marked completed at most once
    // (invariant 3 of behaviour.md §3).
    uniqueIndex('pagamenti_one_per_booking').on(t.prenotazioneId),
    // The life cycle looks for unpaid bookings at every read: keep that lookup tiny.
    index('pagamenti_pending_idx').on(t.prenotazioneId).where(sql`${t.status} = 'pending'`),
    check('pagamenti_provider_valid', sql`${t.provider} in ('stripe', 'simulated')`),
    // A completed payment names the provider's payment that paid it, and when; a refunded
    // one, the payment refunded and when. Status changes are limited by a trigger
    // (drizzle/0003_payments.sql): completed at most once, never back to pending.
    check(
      'pagamenti_completed_has_payment',
      sql`${t.status} <> 'completed' or (${t.providerPaymentId} is not null and ${t.completedAt} is not null)`,
    ),
    check(
      'pagamenti_refunded_has_payment',
      sql`${t.status} <> 'refunded' or (${t.providerPaymentId} is not null and ${t.refundedAt} is not null)`,
    ),
  ],
);

/** Events received from the payment provider; the primary key makes each apply once. */
export const providerEvents = pgTable('provider_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: tstz('received_at').notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------
// The simulated payment provider (src/server/integrations/payments/simulated-provider.ts):
// what Stripe would keep on its side, kept here when no Stripe keys are configured. Its
// rows mirror Stripe's objects, so `booking_id` is metadata, not a foreign key.
// ---------------------------------------------------------------------------------------

export type Payment = typeof pagamenti.$inferSelect;
