import { ArrowRightLeftIcon, ClockIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import { useId, useRef } from 'react';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import type { BookingDto, MoveCause } from '../../../shared/schemas/booking';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Button, ButtonIcon } from '../../components/ui/button';
import { useOffline } from '../../offline/connectivity';
import type { MessageKey } from '../../../shared/i18n';
import { money } from '../../../shared/i18n/format';
import { useLingua, useT } from '../../lib/i18n';
import { bookingDate, formatTimeRange } from './dashboard-model';
import { useCancelBooking, useWaitForBike } from './queries';

/*
 * The fleet that heals itself, on the booking's card (issue 35): the note of a booking moved to
 * another bike, and the choice of a booking whose bike is still out on a late ride with no other
 * free (`Annulla` or `Aspetta`).
 */

const MOVE_CAUSE_TEXT = {
  ritardo: 'fleetNotes.causeLate',
  guasto: 'fleetNotes.causeBroken',
  problema: 'fleetNotes.causeProblem',
} as const satisfies Record<MoveCause, MessageKey>;

/** `Spostata dalla bici n. 03: …`: the card's title already names the new bike. */
export function MovedNote({ moved }: { moved: NonNullable<BookingDto['spostata']> }) {
  const t = useT();
  return (
    <p className="flex items-start gap-2 rounded-lg border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950">
      <ArrowRightLeftIcon className="mt-0.5 size-4 shrink-0 text-sky-700" aria-hidden="true" />
      <span>
        {t('fleetNotes.moved', { numero: moved.daBiciNumero, causa: t(MOVE_CAUSE_TEXT[moved.causa]) })}
      </span>
    </p>
  );
}

/** `Annulla`, asked twice: no no-show is counted, and a paid booking is refunded whatever the hour. */
function CancelAbsent({ booking, describedBy, onDeleted }: { booking: BookingDto; describedBy: string; onDeleted?: (() => void) | undefined }) {
  const t = useT();
  const lingua = useLingua();
  const cancel = useCancelBooking();
  const when = `${bookingDate(booking.dataPrenotazione, lingua)}, ${formatTimeRange(booking.orarioInizio, booking.orarioFine)}`;
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" disabled={cancel.isPending} aria-describedby={describedBy}>
          <ButtonIcon pending={cancel.isPending} icon={<XIcon aria-hidden="true" />} />
          {t('fleetNotes.cancel')}
        </Button>
      }
      title={t('fleetNotes.cancelTitle')}
      description={
        <>
          {t('fleetNotes.cancelWhat', { numero: booking.biciNumero, modello: booking.biciModello, quando: when })}
          {booking.paymentStatus === 'completed' ? t('fleetNotes.cancelRefund', { importo: money(EXTERNAL_FEE_CENTS, lingua) }) : '.'}
        </>
      }
      confirmLabel={t('fleetNotes.cancelConfirm')}
      cancelLabel={t('fleetNotes.back')}
      onConfirm={() => cancel.mutateAsync(booking.id)}
      onDeleted={onDeleted}
    />
  );
}

/**
 * The booking's bike is still out on a late ride and no other is free (`biciAssente`): the owner
 * cancels or waits; once waiting, the card says so and still offers `Annulla`. Both need the
 * server: offline the sentence stays and says so.
 */
export function AbsentBike({ booking, onDeleted }: { booking: BookingDto; onDeleted?: (() => void) | undefined }) {
  const t = useT();
  const offline = useOffline();
  const wait = useWaitForBike();
  const boxRef = useRef<HTMLDivElement>(null);
  const textId = `${useId()}-assente`;
  return (
    <div ref={boxRef} tabIndex={-1} className="grid gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p id={textId} className="flex items-start gap-2 font-medium" role="status">
        {booking.aspetta ? (
          <ClockIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
        ) : (
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
        )}
        <span>
          {booking.aspetta
            ? t('fleetNotes.waiting')
            : t('fleetNotes.absent', { numero: booking.biciNumero })}
          {offline ? t('fleetNotes.offline') : null}
        </span>
      </p>
      {offline ? null : (
        <div className="flex flex-wrap gap-2">
          <CancelAbsent booking={booking} describedBy={textId} onDeleted={onDeleted} />
          {booking.aspetta ? null : (
            <Button
              size="sm"
              disabled={wait.isPending}
              aria-describedby={textId}
              // The button goes once the choice is saved: the focus stays in the box, which says it.
              onClick={() => wait.mutate(booking.id, { onSuccess: () => boxRef.current?.focus() })}
            >
              <ButtonIcon pending={wait.isPending} icon={<ClockIcon aria-hidden="true" />} />
              {t('fleetNotes.wait')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
