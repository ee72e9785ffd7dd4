import { lazy } from 'react';
import type { BookingView } from '../../offline/offline-model';
import { Button } from '../../components/ui/button';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { Undo2Icon } from 'lucide-react';
import { useT } from '../../lib/i18n';

const loadContent = () => import('./return-dialog-content');
const ReturnDialogContent = lazy(() => loadContent().then((m) => ({ default: m.ReturnDialogContent })));

/**
 * `Riconsegnata`: opens the return dialog (Radix, with its form), whose chunk downloads when
 * the button is pointed at, focused or touched — as the delete dialog does.
 */
export function ReturnButton({ booking, onReturned }: { booking: BookingView; onReturned?: () => void }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadContent);
  return (
    <>
      <Button size="sm" {...triggerProps}>
        <Undo2Icon aria-hidden="true" />
        {t('returnDialog.returned')}
      </Button>
      <OnDemand when={mounted}>
        <ReturnDialogContent booking={booking} open={open} setOpen={setOpen} triggerRef={triggerRef} onReturned={onReturned} />
      </OnDemand>
    </>
  );
}
