import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CheckoutResponse,
  ConfirmPaymentResponse,
  PaymentIntentResponse,
  SimulatedCard,
  SimulatedCheckoutPayResponse,
  SimulatedCheckoutSession,
  SimulatedConfirmResponse,
  confirmPaymentSchema,
  createPaymentIntentSchema,
  simulatedCardSchema,
  simulatedConfirmSchema,
} from '../../../shared/schemas/payment';
import { apiRequest } from '../../lib/api';
import { OWN_BOOKINGS_QUERY_KEY } from '../dashboard';

type CreatePaymentIntentRequest = z.input<typeof createPaymentIntentSchema>;
type ConfirmPaymentRequest = z.input<typeof confirmPaymentSchema>;
type SimulatedConfirmRequest = z.input<typeof simulatedConfirmSchema>;
/** The card as the form hands it over: number without spaces, fields trimmed. */
export type SimulatedCardValues = z.output<typeof simulatedCardSchema>;

/**
 * POST /api/create-payment-intent, once per visit of /payment/:id (the server reuses the
 * booking's open intent, so asking again is harmless). Dropped when the page is left.
 */
export function usePaymentIntent(bookingId: number | null) {
  return useQuery({
    queryKey: ['/api/create-payment-intent', bookingId],
    queryFn: () =>
      apiRequest<PaymentIntentResponse>('POST', '/api/create-payment-intent', {
        bookingId: bookingId ?? 0,
      } satisfies CreatePaymentIntentRequest),
    enabled: bookingId !== null,
    gcTime: 0,
  });
}

/** The simulated provider's card confirmation: what Stripe.js's confirmPayment does for real. */
export function useConfirmSimulatedIntent() {
  return useMutation({
    mutationFn: ({ intent, card }: { intent: Pick<PaymentIntentResponse, 'paymentIntentId' | 'clientSecret'>; card: SimulatedCard }) =>
      apiRequest<SimulatedConfirmResponse>(
        'POST',
        `/api/payments/simulated/intents/${encodeURIComponent(intent.paymentIntentId)}/confirm`,
        { clientSecret: intent.clientSecret, ...card } satisfies SimulatedConfirmRequest,
      ),
  });
}

/**
 * POST /api/confirm-payment: the server asks the provider and marks the booking paid. The
 * user's bookings are refreshed, so the dashboard shows 'Pagata' without a reload.
 */
export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ConfirmPaymentRequest) => apiRequest<ConfirmPaymentResponse>('POST', '/api/confirm-payment', request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: OWN_BOOKINGS_QUERY_KEY }),
  });
}

/** POST /api/external-bookings/:id/payment: the address of the hosted checkout. */
export function useStartCheckout() {
  return useMutation({
    mutationFn: (bookingId: number) =>
      apiRequest<CheckoutResponse | undefined>('POST', `/api/external-bookings/${bookingId}/payment`),
  });
}

const simulatedSessionKey = (sessionId: string) => ['/api/payments/simulated/checkout', sessionId] as const;

/** GET /api/payments/simulated/checkout/:sessionId: what the hosted page shows. */
export function useSimulatedCheckoutSession(sessionId: string | null) {
  return useQuery<SimulatedCheckoutSession>({
    queryKey: simulatedSessionKey(sessionId ?? ''),
    enabled: sessionId !== null,
    gcTime: 0,
  });
}

/** POST /api/payments/simulated/checkout/:sessionId/pay: the card; answers where to go next. */
export function usePaySimulatedCheckout(sessionId: string) {
  return useMutation({
    mutationFn: (card: SimulatedCard) =>
      apiRequest<SimulatedCheckoutPayResponse>(
        'POST',
        `/api/payments/simulated/checkout/${encodeURIComponent(sessionId)}/pay`,
        card,
      ),
  });
}
