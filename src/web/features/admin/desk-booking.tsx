import { PlusIcon } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { prefetchOnIntent } from '../../lib/interaction';
import { useAdminCreateBooking } from './queries';

/**
 * The dialog with its form (and Radix's dialog): fetched when the button is pointed at,
 * focused or touched, so /admin's first download holds no Radix (decision 027).
 */
const loadContent = () => import('./desk-booking-form');
const DeskBookingDialog = lazy(() => loadContent().then((m) => ({ default: m.DeskBookingDialog })));

/** `Nuova prenotazione` at the desk (issue 20): a booking made by an admin for any active user. */
export function DeskBooking() {
  const [open, setOpen] = useState(false);
  /** Mounted once asked for, and kept: Radix animates the closing and returns the focus. */
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const create = useAdminCreateBooking();
  return (
    <>
      <Button
        ref={triggerRef}
        size="sm"
        aria-haspopup="dialog"
        aria-expanded={open}
        {...prefetchOnIntent(loadContent)}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        <PlusIcon aria-hidden="true" />
        Nuova prenotazione
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <DeskBookingDialog
            create={create}
            open={open}
            onOpenChange={(next) => {
              if (!create.isPending) setOpen(next);
            }}
            onDone={() => setOpen(false)}
            triggerRef={triggerRef}
          />
        </Suspense>
      ) : null}
    </>
  );
}
