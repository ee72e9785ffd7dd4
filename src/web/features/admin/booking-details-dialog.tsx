import type { ReactNode, RefObject } from 'react';
import type { AdminBookingDto } from '../../../shared/schemas/admin';
import { Badge } from '../../components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { adminBookingBadge, adminPaymentLabel, bookingTime, formatDateTime, formatShortDate } from './admin-model';
import { Detail } from './admin-table';
import { useTimeZone } from './queries';

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
        <DialogTitle>Prenotazione #{booking.id}</DialogTitle>
        <DialogDescription>Dettagli della prenotazione, dell&apos;utente e della bicicletta.</DialogDescription>
      </DialogHeader>
      <DetailGroup id="dettagli-utente" title="Utente">
        <Detail label="Nome">{booking.userName}</Detail>
        <Detail label="Cognome">{booking.userSurname || '-'}</Detail>
        <Detail label="Email">{booking.userEmail}</Detail>
      </DetailGroup>
      <DetailGroup id="dettagli-prenotazione" title="Prenotazione">
        <Detail label="Data">{formatShortDate(booking.dataPrenotazione)}</Detail>
        <Detail label="Orario">{bookingTime(booking)}</Detail>
        <Detail label="Destinazione">{booking.destinazione || 'Non specificata'}</Detail>
        <Detail label="Stato">
          <Badge variant={stato.tone}>{stato.label}</Badge>
        </Detail>
        <Detail label="Pagamento">{adminPaymentLabel(booking.paymentStatus)}</Detail>
        <Detail label="Creata il">{formatDateTime(booking.createdAt, timeZone)}</Detail>
      </DetailGroup>
      <DetailGroup id="dettagli-bici" title="Bicicletta">
        <Detail label="Numero">{booking.biciNumero}</Detail>
        <Detail label="Modello">{booking.biciModello}</Detail>
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
