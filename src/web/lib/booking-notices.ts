import type { BookingDto } from '../../shared/schemas/booking';
import { EXTERNAL_FEE_CENTS } from '../../shared/constants';
import { money } from '../../shared/i18n/format';
import { currentLingua, t } from './i18n';

/** The toast of a booking just made, from the form or from a waitlist's offer: an external is told to pay. */
export function bookingCreatedNotice(booking: Pick<BookingDto, 'paymentStatus'>): { title: string; description: string } {
  return {
    title: t('bookingNotices.createdTitle'),
    description:
      booking.paymentStatus === 'pending'
        ? t('bookingNotices.createdPay', { amount: money(EXTERNAL_FEE_CENTS, currentLingua()) })
        : t('bookingNotices.createdFree'),
  };
}
