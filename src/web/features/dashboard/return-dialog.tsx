import { lazy, Suspense, useRef, useState } from 'react';
import type { BookingView } from '../../offline/offline-model';
import { Button } from '../../components/ui/button';
import { prefetchOnIntent } from '../../lib/interaction';
import { Undo2Icon } from 'lucide-react';

const loadContent = () => import('./return-dialog-content');
const ReturnDialogContent = lazy(() => loadContent().then((m) => ({ default: m.ReturnDialogContent })));

/**
 * `Riconsegnata`: opens the return dialog (Radix, with its form), whose chunk downloads when
 * the button is pointed at, focused or touched — as the delete dialog does.
 */
export function ReturnButton({ booking, onReturned }: { booking: BookingView; onReturned?: () => void }) {
  const [open, setOpen] = useState(false);
  /** Mounted once asked for, and kept: Radix animates the closing and returns the focus. */
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
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
        <Undo2Icon aria-hidden="true" />
        Riconsegnata
      </Button>
      {mounted ? (
        <Suspense fallback={null}>
          <ReturnDialogContent booking={booking} open={open} setOpen={setOpen} triggerRef={triggerRef} onReturned={onReturned} />
        </Suspense>
      ) : null}
    </>
  );
}
