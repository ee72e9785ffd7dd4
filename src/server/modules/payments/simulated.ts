import { and, eq } from 'drizzle-orm';
import type {
  SimulatedCard,
  SimulatedCheckoutPayResponse,
  SimulatedCheckoutSession,
  SimulatedConfirmResponse,
} from '../../../shared/schemas/payment.js';
import type { Db } from '../../db/client.js';
import { prenotazioni } from '../bookings/tables.js';
import { AppError, notFound } from '../../http/errors.js';
import { countPayment, type AppMetrics } from '../../metrics.js';
import type { SimulatedProvider } from '../../integrations/payments/simulated-provider.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * The simulated provider's card form and hosted page, as Stripe.js and Stripe's page would
 * use its API: only the owner of the booking an intent or session is for may see or pay it
 * (another user's is 404, as a missing one).
 */
export interface SimulatedDeps {
  db: Db;
  provider: SimulatedProvider;
  metrics?: AppMetrics | undefined;
}

async function ownsBooking(db: Db, userId: number, bookingId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: prenotazioni.id })
    .from(prenotazioni)
    .where(and(eq(prenotazioni.id, bookingId), eq(prenotazioni.userId, userId)));
  return Boolean(row);
}

export async function confirmSimulatedIntent(
  deps: SimulatedDeps,
  userId: number,
  intentId: string,
  input: SimulatedCard & { clientSecret: string },
): Promise<SimulatedConfirmResponse> {
  const intent = await deps.provider.findIntent(intentId);
  if (!intent || !(await ownsBooking(deps.db, userId, intent.bookingId))) throw notFound(testo('paymentsApi.paymentNotFound'), 'PAYMENT_NOT_FOUND');
  const { clientSecret, ...card } = input;
  const confirmed = await countingDeclines(deps.metrics, () => deps.provider.confirmIntent(intentId, clientSecret, card));
  return { paymentIntentId: confirmed.id, status: 'succeeded' };
}

async function ownedSession(deps: SimulatedDeps, userId: number, sessionId: string) {
  const session = await deps.provider.findCheckoutSession(sessionId);
  if (!session || !(await ownsBooking(deps.db, userId, session.bookingId))) {
    throw notFound(testo('paymentsApi.sessionNotFound'), 'SESSION_NOT_FOUND');
  }
  return session;
}

export async function getSimulatedCheckout(deps: SimulatedDeps, userId: number, sessionId: string): Promise<SimulatedCheckoutSession> {
  const s = await ownedSession(deps, userId, sessionId);
  return { id: s.id, bookingId: s.bookingId, amount: s.amount, currency: s.currency, status: s.effectiveStatus, cancelUrl: s.cancelUrl };
}

export async function paySimulatedCheckout(
  deps: SimulatedDeps,
  userId: number,
  sessionId: string,
  card: SimulatedCard,
): Promise<SimulatedCheckoutPayResponse> {
  await ownedSession(deps, userId, sessionId);
  return countingDeclines(deps.metrics, () => deps.provider.payCheckoutSession(sessionId, card));
}

/** A card the provider declined (402, as Stripe answers) is a payment outcome of its own. */
async function countingDeclines<T>(metrics: AppMetrics | undefined, pay: () => Promise<T>): Promise<T> {
  try {
    return await pay();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 402) countPayment(metrics, 'declined');
    throw err;
  }
}
