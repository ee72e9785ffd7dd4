import { ArrowDownToLineIcon, ArrowUpFromLineIcon } from 'lucide-react';
import type { ReactNode } from 'react';
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

/** One desk action: its button, the question before it, and what runs when confirmed. */
function DeskAction(props: { icon: ReactNode; label: string; aria: string; title: string; description: string; confirm: string; run: () => Promise<unknown> }) {
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={props.aria}>
          {props.icon}
          {props.label}
        </Button>
      }
      title={props.title}
      description={props.description}
      confirmLabel={props.confirm}
      confirmVariant="default"
      onConfirm={props.run}
    />
  );
}

function DeskPickUp({ booking }: { booking: DeskBooking }) {
  const t = useT();
  const pickUp = useDeskPickUp();
  const nome = personName(booking.utente, t);
  return (
    <DeskAction
      icon={<ArrowUpFromLineIcon aria-hidden="true" />}
      label={t('staffDesk.pickUp')}
      aria={t('staffDesk.pickUpAria', { id: booking.id })}
      title={t('staffDesk.pickUpTitle', { numero: booking.biciNumero, nome })}
      description={t('staffDesk.pickUpDescription', { nome })}
      confirm={t('staffDesk.pickUpConfirm')}
      run={() => pickUp.mutateAsync({ id: booking.id, numero: booking.biciNumero, nome })}
    />
  );
}

function DeskReturn({ booking }: { booking: DeskBooking }) {
  const t = useT();
  const giveBack = useDeskReturn();
  const nome = personName(booking.utente, t);
  return (
    <DeskAction
      icon={<ArrowDownToLineIcon aria-hidden="true" />}
      label={t('staffDesk.return')}
      aria={t('staffDesk.returnAria', { id: booking.id })}
      title={t('staffDesk.returnTitle', { numero: booking.biciNumero, nome })}
      description={t('staffDesk.returnDescription')}
      confirm={t('staffDesk.returnConfirm')}
      run={() => giveBack.mutateAsync({ id: booking.id, numero: booking.biciNumero, nome })}
    />
  );
}
