import { lazy } from 'react';
import { AlarmClockPlusIcon, Undo2Icon, WrenchIcon } from 'lucide-react';
import type { BookingDto } from '../../../shared/schemas/booking';
import type { BookingView } from '../../offline/offline-model';
import { Button } from '../../components/ui/button';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { useT } from '../../lib/i18n';

const loadReturn = () => import('./return-dialog-content');
/** The return dialog's chunk, asked for ahead of the tap: a ride's card at the rack (issue 51, decision 060). */
export const preloadReturnDialog = (): void => void loadReturn().catch(() => undefined);
const ReturnDialogContent = lazy(() => loadReturn().then((m) => ({ default: m.ReturnDialogContent })));
const loadExtend = () => import('./extend-dialog-content');
const ExtendDialogContent = lazy(() => loadExtend().then((m) => ({ default: m.ExtendDialogContent })));
const loadProblem = () => import('./problem-dialog-content');
const ProblemDialogContent = lazy(() => loadProblem().then((m) => ({ default: m.ProblemDialogContent })));

/**
 * `Riconsegnata`: opens the return dialog (Radix, with its form), whose chunk downloads when
 * the button is pointed at, focused or touched — as the delete dialog does.
 */
export function ReturnButton({ booking, onReturned }: { booking: BookingView; onReturned?: () => void }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadReturn);
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

/**
 * `Prolunga` (issue 35), on a ride in progress: opens the dialog of the lengths offered now,
 * whose chunk downloads when the button is pointed at, focused or touched, as the return's does.
 */
export function ExtendButton({ booking }: { booking: BookingView }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadExtend);
  return (
    <>
      <Button size="sm" variant="outline" {...triggerProps}>
        <AlarmClockPlusIcon aria-hidden="true" />
        {t('extendDialog.extend')}
      </Button>
      <OnDemand when={mounted}>
        <ExtendDialogContent booking={booking} open={open} setOpen={setOpen} triggerRef={triggerRef} />
      </OnDemand>
    </>
  );
}

/**
 * `La bici ha un problema` (issue 35): at the rack, before `Ritirata`, the bike found broken is
 * left behind and the booking moves to another. Its dialog's chunk downloads when the button is
 * pointed at, focused or touched, as the return dialog's does.
 */
export function ProblemButton({ booking }: { booking: BookingDto }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadProblem);
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
