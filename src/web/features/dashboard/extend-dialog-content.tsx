import { AlarmClockPlusIcon, CircleAlertIcon } from 'lucide-react';
import { useState, type RefObject } from 'react';
import type { ExtendMinutes } from '../../../shared/schemas/booking';
import type { BookingView } from '../../offline/offline-model';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { useTimeZone } from '../../lib/public-config';
import { extendedEnd, MSG_NO_EXTENSION } from './extend-model';
import { useExtendOptions, useExtendRide } from './extend-queries';
import { useT } from '../../lib/i18n';

export interface ExtendDialogContentProps {
  booking: BookingView;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The button that opened the dialog: the focus goes back to it when it closes. */
  triggerRef: RefObject<HTMLElement | null>;
}

/** The dialog's body: the lengths offered now, while they load, why none is, or the refusal to read them. */
function Lengths({
  booking,
  timeZone,
  pending,
  choose,
}: {
  booking: BookingView;
  timeZone: string;
  pending: boolean;
  choose: (minuti: ExtendMinutes) => void;
}) {
  const t = useT();
  const options = useExtendOptions(booking.id, true);
  const [chosen, setChosen] = useState<ExtendMinutes | null>(null);
  if (options.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {t('extendDialog.searching')}
      </p>
    );
  }
  if (options.isError) {
    return (
      <div className="grid gap-3">
        <p role="alert" className="flex items-start gap-2 text-sm font-medium text-red-900">
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden="true" />
          {options.error.message}
        </p>
        <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => void options.refetch()}>
          {t('extendDialog.retry')}
        </Button>
      </div>
    );
  }
  if (options.data.minuti.length === 0) {
    return (
      <p role="status" className="text-sm">
        {t(MSG_NO_EXTENSION)}
      </p>
    );
  }
  return (
    <ul className="grid gap-2" aria-label={t('extendDialog.lengths')} aria-busy={pending}>
      {options.data.minuti.map((minuti) => (
        <li key={minuti}>
          <Button
            type="button"
            className="w-full justify-start tabular-nums"
            disabled={pending}
            onClick={() => {
              setChosen(minuti);
              choose(minuti);
            }}
          >
            <ButtonIcon pending={pending && chosen === minuti} icon={<AlarmClockPlusIcon aria-hidden="true" />} />
            {t('extendDialog.option', { minuti, ora: extendedEnd(booking, minuti, timeZone) })}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * `Prolunga`'s dialog (issue 35), in a chunk of its own with Radix: the lengths the server
 * offers now, each with the new end; one tap extends the ride (free: the same booking). It
 * closes once the server has answered yes (a toast says the new end, the card shows it); a
 * refusal is a toast and the lengths are read again.
 */
export function ExtendDialogContent({ booking, open, setOpen, triggerRef }: ExtendDialogContentProps) {
  const timeZone = useTimeZone();
  const t = useT();
  const extend = useExtendRide();
  return (
    <Dialog open={open} onOpenChange={(next) => !extend.isPending && setOpen(next)}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (triggerRef.current?.isConnected) triggerRef.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('extendDialog.title')}</DialogTitle>
          <DialogDescription>
            {t('extendDialog.description', { numero: booking.biciNumero, modello: booking.biciModello, ora: booking.orarioFine })}
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <Lengths
            booking={booking}
            timeZone={timeZone}
            pending={extend.isPending}
            choose={(minuti) => extend.mutate({ id: booking.id, minuti }, { onSuccess: () => setOpen(false) })}
          />
        ) : null}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            {t('extendDialog.cancel')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
