/*
 * The payments module's public face: the only file other modules import. It owns `pagamenti`
 * (and `provider_events`); others change a payment only through these functions.
 */
export {
  detachPayments,
  failPendingPayments,
  insertPastPayments,
  paymentProviderName,
  pendingPaymentInsert,
} from './booking-payments.js';
export { refundBookingPayment, type PaymentCoreDeps, type PaymentLog } from './settle.js';
