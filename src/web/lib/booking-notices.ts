import type { BookingDto } from '../../shared/schemas/booking';
import { EXTERNAL_FEE_CENTS } from '../../shared/constants';
import { formatEuroCents } from '../../shared/money';

/** The toast of a booking just made, from the form or from a waitlist's offer: an external is told to pay. */
export function bookingCreatedNotice(booking: Pick<BookingDto, 'paymentStatus'>): { title: string; description: string } {
  return {
    title: 'Prenotazione creata!',
    description:
      booking.paymentStatus === 'pending'
        ? `Completa il pagamento di ${formatEuroCents(EXTERNAL_FEE_CENTS)} per confermarla, altrimenti verrà annullata.`
        : 'La trovi tra le tue prenotazioni attive.',
  };
}
