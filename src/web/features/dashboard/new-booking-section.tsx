import { BanIcon, PlusIcon, TriangleAlertIcon, WifiOffIcon } from 'lucide-react';
import { lazy, startTransition, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { prefetchOnIntent } from '../../lib/interaction';
import { usePublicConfig } from '../../lib/public-config';
import { useOffline } from '../../offline/connectivity';
import { bookingDateBounds, FALLBACK_TIME_ZONE, suspensionText } from './dashboard-model';
import { EarlyBookingFields, type EarlyWindow } from './early-booking-fields';
import { usePublicRules } from './queries';
import { useT } from '../../lib/i18n';

/** The form (with zod and the shared schemas) is its own chunk: it downloads when the form is about to open. */
const loadBookingForm = () => import('./booking-form');
const BookingForm = lazy(() => loadBookingForm().then((m) => ({ default: m.BookingForm })));
const prefetchForm = prefetchOnIntent(loadBookingForm);

interface NewBookingSectionProps {
  /** Whether the user has an `attiva` booking; undefined while the bookings load. */
  hasActiveBooking: boolean | undefined;
  /** Called once a booking is created (the page moves the focus to the list). */
  onCreated: () => void;
  /** Not a resident: the booking is paid for. */
  isExternal: boolean;
  /** An admin's own bookings are not held to the fair-use limits (issue 20): only hours and closures apply. */
  isAdmin?: boolean;
  /** Called once the user joined a waitlist from the form (issue 21): the page shows the list. */
  onWaiting?: () => void;
}

/** `/dashboard?bici=07`: the bike's page's `Prenota questa bici` (issue 34). */
export const WANTED_BIKE_PARAM = 'bici';

/** The bike number the address asks for, if any (as long as a bike number can be). */
export function wantedBikeFrom(search: string): string | null {
  const numero = new URLSearchParams(search).get(WANTED_BIKE_PARAM)?.trim();
  return numero && numero.length <= 20 ? numero : null;
}

/**
 * A bike asked for by the address (`/dashboard?bici=07`: `Prenota questa bici` on the bike's
 * page, issue 34). Read once in the browser (the server renders the page without it: the number
 * itself is shown by nothing until the form opens). After hydration the form opens, as a tap on
 * `Nuova prenotazione` would, and the address drops the parameter: a reload does not reopen it.
 */
function useBikeFromAddress(setOpen: (open: boolean) => void): string | null {
  const [wanted] = useState(() => (typeof window === 'undefined' ? null : wantedBikeFrom(window.location.search)));
  useEffect(() => {
    if (wanted === null) return;
    startTransition(() => setOpen(true));
    const url = new URL(window.location.href);
    url.searchParams.delete(WANTED_BIKE_PARAM);
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }, [wanted, setOpen]);
  return wanted;
}

/** Suspended for repeated no-shows (issue 20): until when and why, and the button disabled. */
function SuspendedNotice({ suspension, timeZone }: { suspension: { fino: string; motivo: string }; timeZone: string }) {
  const t = useT();
  const suspensionId = useId();
  return (
    <>
      <div id={suspensionId} className="flex items-start gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-red-950">
        <BanIcon className="mt-0.5 size-5 shrink-0 text-red-700" aria-hidden="true" />
        <div className="grid gap-1">
          <p className="font-semibold">{suspensionText(suspension, timeZone, t)}</p>
          <p className="text-sm">
            {t('newBookingSection.suspendedNote')}
          </p>
        </div>
      </div>
      <Button size="lg" className="w-full sm:w-auto sm:justify-self-start" disabled aria-describedby={suspensionId}>
        <PlusIcon aria-hidden="true" />
        {t('earlyBookingFields.newBooking')}
      </Button>
    </>
  );
}

/** One active booking at a time: the warning takes the place of the button and the form. */
function ActiveBookingNotice() {
  const t = useT();
  return (
    <div className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <TriangleAlertIcon className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="grid gap-1">
        <p className="font-semibold">{t('newBookingSection.activeTitle')}</p>
        <p className="text-sm">
          {t('newBookingSection.activeText')}
        </p>
      </div>
    </div>
  );
}

/**
 * 'Nuova prenotazione' opens the form on demand (spec §4). While the user has an active
 * booking, a warning takes the place of both; while the user is suspended for repeated
 * no-shows (issue 20), an alert says until when and why, and the button is disabled.
 * Offline (issue 22) the section says that booking needs the connection, instead of waiting
 * for rules it cannot read; a form already open stays, with the same note above it.
 */
export function NewBookingSection({ hasActiveBooking, onCreated, isExternal, isAdmin = false, onWaiting }: NewBookingSectionProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const openButtonRef = useRef<HTMLButtonElement>(null);
  // What the early fields hold (early-booking-fields.tsx): the form starts from it.
  // (State, not a ref: a change while the form is being rendered restarts that render with it.)
  const [early, setEarly] = useState<EarlyWindow | null>(null);
  const returnFocus = useRef(false);
  const wantedBike = useBikeFromAddress(setOpen);
  const config = usePublicConfig();
  // GET /api/regole: the form applies the rules; when they cannot be read, the server alone does.
  const rules = usePublicRules();
  const formRules =
    rules.data && isAdmin
      ? { ...rules.data, durataMassimaMinuti: null, preavvisoMinimoMinuti: null, orizzonteGiorni: null, prenotazioniSettimanaliMax: null }
      : rules.data;
  const offlineId = useId();
  const offline = useOffline();
  const timeZone = config.data?.timeZone ?? FALLBACK_TIME_ZONE;

  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      openButtonRef.current?.focus();
    }
  }, [open]);

  let body;
  const suspension = rules.data?.sospensione ?? null;
  const offlineNote = (
    <p id={offlineId} className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 font-semibold text-amber-950">
      <WifiOffIcon className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
      {t('newBookingSection.offline')}
    </p>
  );
  if (offline && !open) {
    body = (
      <>
        {offlineNote}
        <Button size="lg" className="w-full sm:w-auto sm:justify-self-start" disabled aria-describedby={offlineId}>
          <PlusIcon aria-hidden="true" />
          {t('earlyBookingFields.newBooking')}
        </Button>
      </>
    );
  } else if (hasActiveBooking === undefined || config.isPending || rules.isPending) {
    // As tall as the button that replaces it: nothing below moves when it comes.
    body = <Spinner label={t('newBookingSection.loading')} className="h-12" />;
  } else if (suspension) {
    body = <SuspendedNotice suspension={suspension} timeZone={timeZone} />;
  } else if (hasActiveBooking) {
    body = <ActiveBookingNotice />;
  } else if (!open) {
    // The button and the form's first fields, shown by the button natively before the page has
    // hydrated (decision 039). A tap asks for the form as a transition: until its code is in,
    // the fields stay on screen, and it takes their place keeping what they hold.
    body = (
      <EarlyBookingFields
        timeZone={timeZone}
        horizonDays={(formRules ? formRules.orizzonteGiorni : config.data?.bookingHorizonDays) ?? undefined}
        onChange={setEarly}
        buttonRef={openButtonRef}
        intent={prefetchForm}
        onOpen={() => startTransition(() => setOpen(true))}
        onCancel={() => startTransition(() => setOpen(false))}
      />
    );
  } else {
    // Today in the college's time zone, read at the moment the form opens.
    const horizon = formRules ? formRules.orizzonteGiorni : config.data?.bookingHorizonDays;
    const { min, max } = bookingDateBounds(new Date(), timeZone, horizon ?? undefined);
    body = (
      <>
        {offline ? offlineNote : null}
        <div className="rounded-xl border bg-card p-4 shadow-sm sm:p-6">
          <Suspense fallback={<Spinner label={t('earlyBookingFields.loadingForm')} showLabel className="py-2" />}>
            <BookingForm
              today={min}
              timeZone={timeZone}
              maxDate={max}
              isExternal={isExternal}
              rules={formRules}
              early={early}
              bikeNumero={wantedBike}
              onCancel={() => {
                returnFocus.current = true;
                setOpen(false);
              }}
              onCreated={() => {
                setOpen(false);
                onCreated();
              }}
              onWaiting={() => {
                setOpen(false);
                onWaiting?.();
              }}
            />
          </Suspense>
        </div>
      </>
    );
  }

  return (
    <section aria-labelledby="nuova-prenotazione-title" className="grid gap-3">
      <h2 id="nuova-prenotazione-title" className="text-xl font-semibold">
        {t('newBookingSection.title')}
      </h2>
      {body}
    </section>
  );
}
