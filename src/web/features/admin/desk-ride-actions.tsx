import { ArrowDownToLineIcon, ArrowUpFromLineIcon } from 'lucide-react';
import type { AdminBookingDto } from '../../../shared/schemas/admin';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n';
import { personName } from './admin-notices';
import { useDeskPickUp, useDeskReturn } from './queries';

/**
 * The desk's `Ritiro` and `Riconsegna` on a person's behalf (issue 48, capability `banco`): the
 * pick-up while the booking waits for it, the return while the ride runs (late included). Each
 * asks first; the server checks the booking's sede and state, and says why it refuses.
 */
type DeskBooking = Pick<AdminBookingDto, 'id' | 'stato' | 'fase' | 'utente' | 'biciNumero'>;

export function DeskRideActions({ booking }: { booking: DeskBooking }) {
  // Only an active booking has a desk action, and each its own mutation: a list's other rows
  // (most of them, done or cancelled) create none, on the server's render and in hydration.
  if (booking.stato !== 'attiva') return null;
  if (booking.fase === 'da_ritirare') return <DeskPickUp booking={booking} />;
  if (booking.fase === 'in_corso' || booking.fase === 'in_ritardo') return <DeskReturn booking={booking} />;
  return null;
}

function DeskPickUp({ booking }: { booking: DeskBooking }) {
  const t = useT();
  const pickUp = useDeskPickUp();
  const nome = personName(booking.utente, t);
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={t('staffDesk.pickUpAria', { id: booking.id })}>
          <ArrowUpFromLineIcon aria-hidden="true" />
          {t('staffDesk.pickUp')}
        </Button>
      }
      title={t('staffDesk.pickUpTitle', { numero: booking.biciNumero, nome })}
      description={t('staffDesk.pickUpDescription', { nome })}
      confirmLabel={t('staffDesk.pickUpConfirm')}
      confirmVariant="default"
      onConfirm={() => pickUp.mutateAsync({ id: booking.id, numero: booking.biciNumero, nome })}
    />
  );
}

function DeskReturn({ booking }: { booking: DeskBooking }) {
  const t = useT();
  const giveBack = useDeskReturn();
  const nome = personName(booking.utente, t);
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={t('staffDesk.returnAria', { id: booking.id })}>
          <ArrowDownToLineIcon aria-hidden="true" />
          {t('staffDesk.return')}
        </Button>
      }
      title={t('staffDesk.returnTitle', { numero: booking.biciNumero, nome })}
      description={t('staffDesk.returnDescription')}
      confirmLabel={t('staffDesk.returnConfirm')}
      confirmVariant="default"
      onConfirm={() => giveBack.mutateAsync({ id: booking.id, numero: booking.biciNumero, nome })}
    />
  );
}
