import { lazy } from 'react';
import { WrenchIcon } from 'lucide-react';
import type { BookingDto } from '../../../shared/schemas/booking';
import { Button } from '../../components/ui/button';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { useT } from '../../lib/i18n';

const loadContent = () => import('./problem-dialog-content');
const ProblemDialogContent = lazy(() => loadContent().then((m) => ({ default: m.ProblemDialogContent })));

/**
 * `La bici ha un problema` (issue 35): at the rack, before `Ritirata`, the bike found broken is
 * left behind and the booking moves to another. Its dialog's chunk downloads when the button is
 * pointed at, focused or touched, as the return dialog's does.
 */
export function ProblemButton({ booking }: { booking: BookingDto }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadContent);
  return (
    <>
      <Button variant="outline" size="sm" {...triggerProps}>
        <WrenchIcon aria-hidden="true" />
        {t('problemDialog.title')}
      </Button>
      <OnDemand when={mounted}>
        <ProblemDialogContent booking={booking} open={open} setOpen={setOpen} triggerRef={triggerRef} />
      </OnDemand>
    </>
  );
}
