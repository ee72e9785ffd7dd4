import { lazy, useEffect, useId, useLayoutEffect, useRef, type RefObject } from 'react';
import { AlarmClockPlusIcon, Undo2Icon, WrenchIcon } from 'lucide-react';
import type { BookingDto } from '../../../shared/schemas/booking';
import type { BookingView } from '../../offline/offline-model';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { useT } from '../../lib/i18n';
import { isPopoverOpen } from '../../lib/popover';

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
 *
 * At the rack the tap comes before the app does (decision 067): the button is also the invoker
 * of a popover, the dialog's first screen (its title, the bike, `Annulla`), which the browser
 * opens without any script. Once hydrated the app hands it over: a popover opened before is
 * read as a tap; from then on the app opens its dialog itself, the popover standing in while
 * the dialog's chunk is still on its way, and `Annulla` or Escape on it cancel the tap.
 */
export function ReturnButton({ booking, onReturned }: { booking: BookingView; onReturned?: () => void }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadReturn);
  const ids = useId();
  const earlyId = `${ids}-riconsegna`;
  const earlyRef = useRef<HTMLDivElement>(null);
  // The popover closed by the app itself (its dialog took over), not by the person.
  const handedOver = useRef(false);

  useEffect(() => {
    const early = earlyRef.current;
    if (!early) return;
    // A tap before hydration opened the first screen natively: the dialog is asked for now.
    if (isPopoverOpen(early)) triggerProps.onClick();
    const onToggle = (event: Event) => {
      if ((event as ToggleEvent).newState !== 'closed') return;
      if (handedOver.current) handedOver.current = false;
      else setOpen(false); // `Annulla`, Escape or a tap outside, while the dialog was coming.
    };
    early.addEventListener('toggle', onToggle);
    return () => early.removeEventListener('toggle', onToggle);
    // Once, at hydration (`handedOver` is a ref; `setOpen` and the first tap's handler do not change meaning).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <Button
        size="sm"
        {...triggerProps}
        popoverTarget={earlyId}
        popoverTargetAction="show"
        data-early-dialog-open=""
        onClick={(event) => {
          // The app opens its own dialog (and the popover while that one's chunk comes: below).
          event.preventDefault();
          triggerProps.onClick();
        }}
      >
        <Undo2Icon aria-hidden="true" />
        {t('returnDialog.returned')}
      </Button>
      <div
        ref={earlyRef}
        id={earlyId}
        popover="auto"
        role="dialog"
        aria-labelledby={`${earlyId}-title`}
        aria-describedby={`${earlyId}-description`}
        tabIndex={-1}
        data-early-dialog=""
        // As components/ui/dialog.tsx draws the dialog it hands over to (not imported: that file brings Radix).
        className="fixed inset-0 m-auto h-fit outline-none max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-lg border bg-popover p-6 text-popover-foreground shadow-lg backdrop:bg-black/50"
      >
        <div className="grid gap-4">
          <div className="flex flex-col gap-2 pr-8 text-left">
            <h2 id={`${earlyId}-title`} className="text-lg leading-tight font-semibold">
              {t('returnDialog.title')}
            </h2>
            <p id={`${earlyId}-description`} className="text-sm text-muted-foreground">
              {t('returnDialog.description', { numero: booking.biciNumero, modello: booking.biciModello })}
            </p>
          </div>
          <Spinner label={t('returnDialog.loading')} showLabel className="py-2" />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" popoverTarget={earlyId} popoverTargetAction="hide">
              {t('returnDialog.cancel')}
            </Button>
          </div>
        </div>
      </div>
      <OnDemand when={mounted} fallback={<StandIn open={open} early={earlyRef} handedOver={handedOver} />}>
        <ReturnDialogContent booking={booking} open={open} setOpen={setOpen} triggerRef={triggerRef} onReturned={onReturned} />
      </OnDemand>
    </>
  );
}

/**
 * While the dialog's chunk comes, its first screen (the popover) stands in for it, open while the
 * dialog is; it goes as the dialog comes (this fallback's end), handed over, not cancelled.
 */
function StandIn({ open, early, handedOver }: { open: boolean; early: RefObject<HTMLDivElement | null>; handedOver: RefObject<boolean> }) {
  useLayoutEffect(() => {
    const element = early.current;
    // A browser without popovers (before 2024) shows nothing while the chunk comes, as before decision 067.
    if (!open || !element || typeof element.showPopover !== 'function') return;
    if (!isPopoverOpen(element)) element.showPopover();
    return () => {
      if (!isPopoverOpen(element)) return;
      handedOver.current = true;
      element.hidePopover();
    };
  }, [open, early, handedOver]);
  return null;
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
