import {
  CalendarIcon,
  CalendarPlusIcon,
  ClockIcon,
  CloudUploadIcon,
  CreditCardIcon,
  HandIcon,
  KeyRoundIcon,
  MapPinIcon,
  TriangleAlertIcon,
  WifiOffIcon,
} from 'lucide-react';
import { useEffect } from 'react';
import { EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import type { BookingDto } from '../../../shared/schemas/booking';
import { ConfirmDeleteDialog, DeleteButton } from '../../components/confirm-delete-dialog';
import { Badge } from '../../components/ui/badge';
import { Button, ButtonIcon } from '../../components/ui/button';
import { useLingua, useT } from '../../lib/i18n';
import { money } from '../../../shared/i18n/format';
import { useTimeZone } from '../../lib/public-config';
import { useSedeLabel } from '../../lib/sedi';
import { useOffline } from '../../offline/connectivity';
import type { BookingView } from '../../offline/offline-model';
import { useNowPassing } from './use-now-passing';
import {
  BOOKING_PHASE_BADGE,
  BOOKING_STATO_BADGE,
  bookingDate,
  formatClock,
  formatTimeRange,
  pastRideNote,
  paymentDisplay,
  pickUpState,
} from './dashboard-model';
import { AbsentBike, MovedNote } from './fleet-notes';
import { useCancelBooking, useLockCode, usePickUp } from './queries';
import { ExtendButton, preloadReturnDialog, ProblemButton, ReturnButton } from './ride-dialogs';

function PaymentStatus({ booking }: { booking: BookingDto }) {
  const t = useT();
  const lingua = useLingua();
  const payment = paymentDisplay(booking, t, lingua);
  const offline = useOffline();
  if (payment.kind === 'pay' && offline) {
    // The payment page is the server's own (its CSP lets Stripe in): offline it cannot open.
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <WifiOffIcon className="size-4 shrink-0" aria-hidden="true" />
        {t('bookingItem.payOffline')}
      </p>
    );
  }
  if (payment.kind === 'pay') {
    return (
      // A full page load, not a route change: the payment page gets the server's answer for
      // /payment/*, whose Content-Security-Policy lets Stripe.js in (and only there).
      <Button asChild size="sm">
        <a href={payment.href}>
          <CreditCardIcon aria-hidden="true" />
          {payment.label}
        </a>
      </Button>
    );
  }
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground">
      {t('bookingItem.payment')}
      <Badge variant={payment.tone}>{payment.label}</Badge>
    </p>
  );
}

/**
 * A step tapped on this device that has not reached the server yet (issue 22): what it was,
 * at what time, and that it is waiting.
 */
function WaitingToSend({ booking }: { booking: BookingView }) {
  const t = useT();
  const timeZone = useTimeZone();
  const action = booking.inAttesa;
  if (!action) return null;
  const clock = formatClock(action.oraDispositivo, timeZone);
  return (
    <p className="flex items-start gap-2 rounded-lg border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950">
      <CloudUploadIcon className="mt-0.5 size-4 shrink-0 text-sky-700" aria-hidden="true" />
      <span>
        <span className="font-semibold">{t('bookingItem.waitingToSend')}</span>
        {' · '}
        {action.tipo === 'ritiro' ? t('bookingItem.pickUpMarked') : t('bookingItem.returnMarked')}
        {clock ? t('bookingItem.atTime', { ora: clock }) : ''}: {action.tipo === 'ritiro' ? t('bookingItem.sendPickUp') : t('bookingItem.sendReturn')}
      </span>
    </p>
  );
}

function DeleteBooking({ booking, onDeleted }: { booking: BookingDto; onDeleted: () => void }) {
  const t = useT();
  const lingua = useLingua();
  const cancel = useCancelBooking();
  const when = `${bookingDate(booking.dataPrenotazione, lingua)}, ${formatTimeRange(booking.orarioInizio, booking.orarioFine)}`;
  // Its bike still out on a late ride: the card's own block offers `Annulla` (issue 35).
  if (booking.biciAssente) return null;
  return (
    <ConfirmDeleteDialog
      trigger={<DeleteButton disabled={cancel.isPending} />}
      title={t('bookingItem.deleteTitle')}
      description={
        <>
          {t('bookingItem.deleteWhat', { numero: booking.biciNumero, modello: booking.biciModello, quando: when })}
          {booking.paymentStatus === 'completed' ? t('bookingItem.deleteRefund', { importo: money(EXTERNAL_FEE_CENTS, lingua) }) : null}
        </>
      }
      onConfirm={() => cancel.mutateAsync(booking.id)}
      onDeleted={onDeleted}
    />
  );
}

/**
 * `Ritirata`, usable from `ritiroDa`; before that, a hint says from when. From then, online,
 * `La bici ha un problema` too (issue 35). Neither while the bike is still out on a late ride.
 */
function PickUp({ booking }: { booking: BookingView }) {
  const t = useT();
  const timeZone = useTimeZone();
  const pickUp = usePickUp();
  const offline = useOffline();
  const from = new Date(booking.ritiroDa).getTime();
  const now = useNowPassing(Number.isNaN(from) ? null : from);
  const state = pickUpState(booking, now, timeZone, t);
  const hintId = `ritiro-${booking.id}-hint`;
  if (booking.biciAssente) return null;
  return (
    <>
      <div className="grid gap-1 sm:justify-items-end">
        <Button
          size="sm"
          disabled={state.kind === 'early' || pickUp.isPending}
          aria-describedby={state.kind === 'early' ? hintId : undefined}
          onClick={() => pickUp.mutate(booking)}
        >
          <ButtonIcon pending={pickUp.isPending} icon={<HandIcon aria-hidden="true" />} />
          {t('bookingItem.pickedUp')}
        </Button>
        {state.kind === 'early' ? (
          <p id={hintId} className="text-sm text-muted-foreground">
            {state.hint}
          </p>
        ) : null}
      </div>
      {state.kind === 'ready' && !offline && !booking.inAttesa ? <ProblemButton booking={booking} /> : null}
    </>
  );
}

/**
 * The lock's code (issue 34), on an active booking of a bike with a lock: from the pick-up
 * window (the server says from when) until the return, large enough to read in the sun. Asked of
 * the server when the window opens; kept on the device, so it stays readable without a signal.
 */
function LockCode({ booking }: { booking: BookingView }) {
  const t = useT();
  const timeZone = useTimeZone();
  const from = new Date(booking.ritiroDa).getTime();
  const now = useNowPassing(Number.isNaN(from) ? null : from);
  const inWindow = booking.fase !== 'da_ritirare' || now.getTime() >= from;
  const code = useLockCode(booking.id, booking.biciId, inWindow);
  const box = 'flex items-start gap-2 rounded-lg border p-3 text-sm';
  if (!inWindow) {
    return (
      <p className={`${box} text-muted-foreground`}>
        <KeyRoundIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t('bookingItem.lockFrom', { ora: formatClock(booking.ritiroDa, timeZone) ?? '' })}
      </p>
    );
  }
  if (code.isError) {
    return (
      <p className={`${box} border-amber-300 bg-amber-50 font-medium text-amber-950`} role="status">
        <KeyRoundIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
        {code.error.message}
      </p>
    );
  }
  if (code.isSuccess && !code.data.codice) return null;
  const codice = code.data?.codice ?? null;
  // While the code is on its way and once it is shown, one box with both states (decision 067):
  // the page's own script (boot/early-controls.ts) asks for the code before the app has come, writes
  // its digits and sets `data-state`; hydration leaves those two untouched (not compared), and the
  // app then renders the same answer into the same place.
  return (
    <div className="group/code contents" data-early-code={booking.id} data-state={codice ? 'ready' : 'pending'} suppressHydrationWarning>
      <p className={`${box} text-muted-foreground group-data-[state=ready]/code:hidden`} role="status">
        <KeyRoundIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t('bookingItem.lockLoading')}
      </p>
      <div className="hidden gap-1 rounded-lg border-2 border-foreground bg-background p-3 text-foreground group-data-[state=ready]/code:grid">
        <p className="flex flex-wrap items-baseline gap-x-3 text-base font-semibold">
          {t('bookingItem.lockCode')}{' '}
          <span className="font-mono text-4xl font-bold tracking-[0.2em] tabular-nums" data-early-digits="" suppressHydrationWarning>
            {codice ?? '····'}
          </span>
        </p>
        {code.data?.salvato ? <p className="text-sm text-muted-foreground">{t('bookingItem.lockSaved')}</p> : null}
      </div>
    </div>
  );
}

/** A plain download of the booking as an iCalendar event, for the phone's calendar. */
function AddToCalendar({ booking }: { booking: BookingDto }) {
  const t = useT();
  return (
    <Button asChild variant="outline" size="sm">
      <a href={`/api/prenotazioni/${booking.id}/calendario.ics`} download={t('bookingItem.calendarFile', { id: booking.id })}>
        <CalendarPlusIcon aria-hidden="true" />
        {t('bookingItem.addToCalendar')}
      </a>
    </Button>
  );
}

function OverdueWarning({ booking }: { booking: BookingDto }) {
  const t = useT();
  return (
    <p className="flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-900">
      <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden="true" />
      {t('bookingItem.overdue', { ora: booking.orarioFine })}
    </p>
  );
}

/**
 * What an active booking lets its owner do now, by phase (decision 022). A return waiting on
 * this device leaves nothing to do; offline, what only the server can do (the calendar file,
 * deleting the booking) is not offered: the offline banner says why.
 */
function RideActions({ booking, onDeleted, onRideChanged }: { booking: BookingView; onDeleted?: () => void; onRideChanged?: () => void }) {
  const offline = useOffline();
  const awaitingPayment = booking.paymentStatus === 'pending';
  if (booking.inAttesa?.tipo === 'riconsegna') return null;
  return (
    <>
      {booking.fase === 'da_ritirare' && !awaitingPayment ? <PickUp booking={booking} /> : null}
      {booking.fase === 'in_corso' || booking.fase === 'in_ritardo' ? <ReturnButton booking={booking} onReturned={onRideChanged} /> : null}
      {booking.fase === 'in_corso' && !booking.inAttesa && !offline ? <ExtendButton booking={booking} /> : null}
      {offline ? null : <AddToCalendar booking={booking} />}
      {booking.fase === 'da_ritirare' && onDeleted && !booking.inAttesa && !offline ? <DeleteBooking booking={booking} onDeleted={onDeleted} /> : null}
    </>
  );
}

/**
 * One booking: bike, date, time range, destination, where the ride is, payment. An active
 * one offers the next step of the ride (`Ritirata`, `Riconsegnata`), the calendar event, and
 * deletion until the bike is picked up; a past one says when it was returned, or that it
 * was never picked up.
 */
export function BookingItem({
  booking,
  onDeleted,
  onRideChanged,
  atRack = false,
}: {
  booking: BookingView;
  onDeleted?: () => void;
  onRideChanged?: () => void;
  /**
   * The booking the person stands at the rack with (issue 51, decision 060): its actions come
   * right under the lock's code, before the day and the times, so that on a phone the bike, the
   * code and `Ritirata` / `Riconsegnata` are on the first screen.
   */
  atRack?: boolean;
}) {
  const t = useT();
  const lingua = useLingua();
  const timeZone = useTimeZone();
  const active = booking.stato === 'attiva';
  const stato = active ? BOOKING_PHASE_BADGE[booking.fase] : BOOKING_STATO_BADGE[booking.stato];
  const note = active ? null : pastRideNote(booking, timeZone, t);
  const sede = useSedeLabel()(booking.sedeId);
  // At the rack on a ride, `Riconsegnata` is the tap to come: its dialog's code is fetched once the
  // page is live, not when the finger lands (decision 027's on-demand chunk, asked for earlier).
  const riding = atRack && (booking.fase === 'in_corso' || booking.fase === 'in_ritardo');
  useEffect(() => {
    if (riding) preloadReturnDialog();
  }, [riding]);
  const actions = (
    <div className={`flex flex-wrap items-center gap-2${atRack ? '' : ' sm:justify-end'}`}>
      <PaymentStatus booking={booking} />
      {active ? <RideActions booking={booking} onDeleted={onDeleted} onRideChanged={onRideChanged} /> : null}
    </div>
  );
  return (
    // `data-at-rack`: where the ride is. Before `Ritirata` the person's first tap needs the app, and
    // boot/after-paint.ts asks for it first; on a ride, the code and `Riconsegnata` work before it (decision 067).
    <li
      className={`flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-sm${atRack ? '' : ' sm:flex-row sm:items-center sm:justify-between'}`}
      data-at-rack={atRack ? (riding ? 'riconsegna' : 'ritiro') : undefined}
    >
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="min-w-0 font-semibold wrap-anywhere">
            {t('bookingItem.title', { numero: booking.biciNumero, modello: booking.biciModello })}
            {sede ? ` · ${sede}` : null}
          </h3>
          {note && booking.stato === 'cancellata' ? null : <Badge variant={stato.tone}>{t(stato.labelKey)}</Badge>}
          {note ? <Badge variant={note.tone}>{note.label}</Badge> : null}
        </div>
        {booking.fase === 'in_ritardo' && booking.inAttesa?.tipo !== 'riconsegna' ? <OverdueWarning booking={booking} /> : null}
        <WaitingToSend booking={booking} />
        {active && booking.spostata ? <MovedNote moved={booking.spostata} /> : null}
        {active && booking.biciAssente ? <AbsentBike booking={booking} onDeleted={onDeleted} /> : null}
        {active && booking.lucchetto !== 'nessuno' && booking.inAttesa?.tipo !== 'riconsegna' ? <LockCode booking={booking} /> : null}
        {atRack ? actions : null}
        <ul className="grid gap-1 text-sm text-muted-foreground">
          <li className="flex items-center gap-2">
            <CalendarIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">{t('bookingItem.date')}</span>
            <span className="text-foreground">{bookingDate(booking.dataPrenotazione, lingua)}</span>
          </li>
          <li className="flex items-center gap-2">
            <ClockIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">{t('bookingItem.time')}</span>
            <span className="text-foreground tabular-nums">{formatTimeRange(booking.orarioInizio, booking.orarioFine)}</span>
          </li>
          <li className="flex min-w-0 items-center gap-2">
            <MapPinIcon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">{t('bookingItem.destination')}</span>
            {booking.destinazione ? (
              <span className="break-words text-foreground">{booking.destinazione}</span>
            ) : (
              <span>{t('bookingItem.noDestination')}</span>
            )}
          </li>
        </ul>
      </div>
      {atRack ? null : actions}
    </li>
  );
}
