import { PlusIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogTrigger } from '../../components/ui/dialog';
import { prefetchOnIntent } from '../../lib/interaction';
import { useAdminCreateBooking } from './queries';

/** The dialog's content, with its form: fetched when the button is pointed at, focused or touched. */
const loadContent = () => import('./desk-booking-form');
const DeskBookingContent = lazy(() => loadContent().then((m) => ({ default: m.DeskBookingContent })));

/** `Nuova prenotazione` at the desk (issue 20): a booking made by an admin for any active user. */
export function DeskBooking() {
  const [open, setOpen] = useState(false);
  /** Mounted once asked for, and kept: Radix animates the closing and returns the focus. */
  const [mounted, setMounted] = useState(false);
  const create = useAdminCreateBooking();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (create.isPending) return;
        if (next) setMounted(true);
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" {...prefetchOnIntent(loadContent)}>
          <PlusIcon aria-hidden="true" />
          Nuova prenotazione
        </Button>
      </DialogTrigger>
      {mounted ? (
        <Suspense fallback={null}>
          <DeskBookingContent create={create} open={open} onDone={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </Dialog>
  );
}
