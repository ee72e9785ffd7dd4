import type { ReactNode, RefObject } from 'react';
import type { AdminBookingDto } from '../../../shared/schemas/admin';
import { Badge } from '../../components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { useLingua, useT } from '../../lib/i18n';
import { adminBookingBadge, adminPaymentLabel, bookingTime, formatDateTime, formatShortDate } from './admin-model';
import { personName } from './admin-notices';
import { Detail } from './admin-table';
import { useTimeZone } from '../../lib/public-config';

/**
 * A booking's `Dettagli` dialog (bookings-tab.tsx): a chunk of its own with Radix's dialog,
 * so /admin's first download holds no Radix (decision 027).
 */
export function BookingDetailsDialog({
  booking,
  open,
  onOpenChange,
  triggerRef,
}: {
  booking: AdminBookingDto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  triggerRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <BookingDetailsContent booking={booking} triggerRef={triggerRef} />
    </Dialog>
  );
}

function BookingDetailsContent({ booking, triggerRef }: { booking: AdminBookingDto; triggerRef: RefObject<HTMLButtonElement | null> }) {
  const t = useT();
  const lingua = useLingua();
  const timeZone = useTimeZone();
  const stato = adminBookingBadge(booking);
  return (
    <DialogContent
      onCloseAutoFocus={(event) => {
        // Radix would focus its own trigger; this one is ours.
        event.preventDefault();
        triggerRef.current?.focus();
      }}
    >
      <DialogHeader>
        <DialogTitle>{t('bookingDetailsDialog.title', { id: booking.id })}</DialogTitle>
        <DialogDescription>{t('bookingDetailsDialog.description')}</DialogDescription>
      </DialogHeader>
      <DetailGroup id="dettagli-utente" title={t('bookingDetailsDialog.user')}>
        <Detail label={t('bookingDetailsDialog.firstName')}>{personName(booking.userName, t)}</Detail>
        <Detail label={t('bookingDetailsDialog.lastName')}>{booking.userSurname || '-'}</Detail>
        <Detail label={t('bookingDetailsDialog.email')}>{booking.userEmail}</Detail>
      </DetailGroup>
      <DetailGroup id="dettagli-prenotazione" title={t('bookingDetailsDialog.booking')}>
        <Detail label={t('bookingDetailsDialog.date')}>{formatShortDate(booking.dataPrenotazione)}</Detail>
        <Detail label={t('bookingDetailsDialog.time')}>{bookingTime(booking)}</Detail>
        <Detail label={t('bookingDetailsDialog.destination')}>{booking.destinazione || t('bookingDetailsDialog.notGiven')}</Detail>
        <Detail label={t('bookingDetailsDialog.status')}>
          <Badge variant={stato.tone}>{stato.label}</Badge>
        </Detail>
        <Detail label={t('bookingDetailsDialog.payment')}>{adminPaymentLabel(booking.paymentStatus, t, lingua)}</Detail>
        <Detail label={t('bookingDetailsDialog.createdAt')}>{formatDateTime(booking.createdAt, timeZone)}</Detail>
      </DetailGroup>
      <DetailGroup id="dettagli-bici" title={t('bookingDetailsDialog.bike')}>
        <Detail label={t('bookingDetailsDialog.number')}>{booking.biciNumero}</Detail>
        <Detail label={t('bookingDetailsDialog.model')}>{booking.biciModello}</Detail>
      </DetailGroup>
    </DialogContent>
  );
}

/** One part of the details (the user, the booking, the bike): a heading and its list. */
function DetailGroup({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      <dl className="grid gap-1">{children}</dl>
    </section>
  );
}
