import { lazy } from 'react';
import { AlarmClockPlusIcon } from 'lucide-react';
import type { BookingView } from '../../offline/offline-model';
import { Button } from '../../components/ui/button';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { useT } from '../../lib/i18n';

const loadContent = () => import('./extend-dialog-content');
const ExtendDialogContent = lazy(() => loadContent().then((m) => ({ default: m.ExtendDialogContent })));

/**
 * `Prolunga` (issue 35), on a ride in progress: opens the dialog of the lengths offered now,
 * whose chunk downloads when the button is pointed at, focused or touched, as the return's does.
 */
export function ExtendButton({ booking }: { booking: BookingView }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadContent);
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
