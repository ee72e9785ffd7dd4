import { PlusIcon } from 'lucide-react';
import { lazy } from 'react';
import { Button } from '../../components/ui/button';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { useT } from '../../lib/i18n';
import { useAdminCreateBooking } from './queries';

/**
 * The dialog with its form (and Radix's dialog): fetched when the button is pointed at,
 * focused or touched, so /admin's first download holds no Radix (decision 027).
 */
const loadContent = () => import('./desk-booking-form');
const DeskBookingDialog = lazy(() => loadContent().then((m) => ({ default: m.DeskBookingDialog })));

/** `Nuova prenotazione` at the desk (issue 20): a booking made by an admin for any active user. */
export function DeskBooking() {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadContent);
  const create = useAdminCreateBooking();
  return (
    <>
      <Button size="sm" {...triggerProps}>
        <PlusIcon aria-hidden="true" />
        {t('deskBooking.newBooking')}
      </Button>
      <OnDemand when={mounted}>
        <DeskBookingDialog
          create={create}
          open={open}
          onOpenChange={(next) => {
            if (!create.isPending) setOpen(next);
          }}
          onDone={() => setOpen(false)}
          triggerRef={triggerRef}
        />
      </OnDemand>
    </>
  );
}
