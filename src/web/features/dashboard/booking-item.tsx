import { CalendarIcon, ClockIcon, CreditCardIcon, MapPinIcon, Trash2Icon } from 'lucide-react';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import type { BookingDto } from '../../../shared/schemas/booking';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { BOOKING_STATO_BADGE, formatBookingDate, formatEuroCents, formatTimeRange, paymentDisplay } from './dashboard-model';
import { useCancelBooking } from './queries';

function PaymentStatus({ booking }: { booking: BookingDto }) {
  const payment = paymentDisplay(booking);
  if (payment.kind === 'pay') {
    return (
      // A full page load, not a route change: the payment page gets the server's answer for
      // /payment/*, whose Content-Security-Policy lets Stripe.js in (and only there).
      <Button asChild size="sm">
        <a href={payment.href}>
          <CreditCardIcon aria-hidden="true" />
          {payment.label}
        </a>
      </Button>
    );
  }
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground">
      Pagamento
      <Badge variant={payment.tone}>{payment.label}</Badge>
    </p>
  );
}

function DeleteBooking({ booking, onDeleted }: { booking: BookingDto; onDeleted: () => void }) {
  const cancel = useCancelBooking();
  const when = `${formatBookingDate(booking.dataPrenotazione)}, ${formatTimeRange(booking.orarioInizio, booking.orarioFine)}`;
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" disabled={cancel.isPending}>
          <Trash2Icon aria-hidden="true" />
          Elimina
        </Button>
      }
      title="Sei sicuro di voler eliminare questa prenotazione?"
      description={
        <>
          Bici {booking.biciNumero} ({booking.biciModello}), {when}.
          {booking.paymentStatus === 'completed'
            ? ` Se la elimini prima dell'inizio, i ${formatEuroCents(EXTERNAL_FEE_CENTS)} pagati ti verranno rimborsati.`
            : null}
        </>
      }
      onConfirm={() => cancel.mutateAsync(booking.id)}
      onDeleted={onDeleted}
    />
  );
}

/** One booking: bike, date, time range, destination, status, payment; deletable while active. */
export function BookingItem({ booking, onDeleted }: { booking: BookingDto; onDeleted?: () => void }) {
  const stato = BOOKING_STATO_BADGE[booking.stato];
  return (
    <li className="flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">
            Bici {booking.biciNumero} · {booking.biciModello}
          </h3>
          <Badge variant={stato.tone}>{stato.label}</Badge>
        </div>
        <ul className="grid gap-1 text-sm text-muted-foreground">
          <li className="flex items-center gap-2">
            <CalendarIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">Data:</span>
            <span className="text-foreground">{formatBookingDate(booking.dataPrenotazione)}</span>
          </li>
          <li className="flex items-center gap-2">
            <ClockIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">Orario:</span>
            <span className="text-foreground tabular-nums">{formatTimeRange(booking.orarioInizio, booking.orarioFine)}</span>
          </li>
          <li className="flex min-w-0 items-center gap-2">
            <MapPinIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">Destinazione:</span>
            {booking.destinazione ? (
              <span className="break-words text-foreground">{booking.destinazione}</span>
            ) : (
              <span>Nessuna destinazione indicata</span>
            )}
          </li>
        </ul>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:justify-end">
        <PaymentStatus booking={booking} />
        {booking.stato === 'attiva' && onDeleted ? <DeleteBooking booking={booking} onDeleted={onDeleted} /> : null}
      </div>
    </li>
  );
}
