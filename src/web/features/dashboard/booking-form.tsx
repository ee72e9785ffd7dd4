import { BellRingIcon, CalendarPlusIcon } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { DESTINATION_MAX, EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import { formatEuroCents } from '../../../shared/money';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { useNoShowNotice } from '../../lib/no-show';
import { serverMessage } from '../auth/api-errors';
import { BIKE_RADIO_NAME, BikePicker } from './bike-picker';
import { dayHoursText, dayStatus, fitWindow, maxDurationText, ruleErrors, weeklyLimitText, type FormRules } from './booking-rules';
import { availabilityWindow, validateBookingForm } from './booking-validation';
import {
  defaultBookingForm,
  type BookingFormErrors,
  type BookingFormField,
  type BookingFormValues,
} from './dashboard-model';
import { useAvailableBikes, useCreateBooking } from './queries';
import { WAITLIST_MAX_PER_USER } from '../../../shared/schemas/waitlist';
import { useJoinWait, useWaits } from '../waitlist/queries';

interface BookingFormProps {
  /** Today in the college's time zone: the default date and the earliest allowed. */
  today: string;
  /** The college's time zone: the defaults are read in it. */
  timeZone: string;
  /** The last bookable date, when the booking horizon is known. */
  maxDate: string | undefined;
  /** An external pays for the booking: the form says how much, and that a no-show is not refunded. */
  isExternal: boolean;
  /** The service's rules (GET /api/regole), applied before asking the server; undefined when they could not be read. */
  rules: FormRules | undefined;
  onCancel: () => void;
  onCreated: () => void;
  /** The user joined the window's waitlist (issue 21): the form closes, the page shows the list. */
  onWaiting?: () => void;
}

const END_BEFORE_START = "L'orario di fine deve essere successivo all'orario di inizio";

function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} aria-live="polite" className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const describedBy = (id: string, error: string | undefined, hint = false) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

/** The fields in screen order: the first with an error gets the focus. */
const FIELD_ORDER: BookingFormField[] = ['dataPrenotazione', 'orarioInizio', 'orarioFine', 'destinazione', 'biciId'];

/**
 * The new-booking form. Mounted when opened and unmounted when closed, so every opening
 * starts from the defaults of spec §4, moved to the first window the rules allow (issue 20).
 * The day's hours and the maximum duration are shown; a window the rules refuse is said by
 * its field as it is typed, and no bikes are asked for it. A failed submission keeps what was typed.
 */
export function BookingForm({ today, maxDate, timeZone, isExternal, rules, onCancel, onCreated, onWaiting }: BookingFormProps) {
  // The instant the form opened: its defaults and the notice are measured from it (the server checks again).
  const [openedAt] = useState(() => new Date());
  const [values, setValues] = useState<BookingFormValues>(() => {
    const defaults = defaultBookingForm(openedAt, timeZone);
    return rules ? fitWindow(defaults, rules, { now: openedAt, timeZone }) : defaults;
  });
  const [errors, setErrors] = useState<BookingFormErrors>({});
  const create = useCreateBooking();
  const join = useJoinWait();
  const waits = useWaits();
  const noShowNotice = useNoShowNotice();
  const formRef = useRef<HTMLFormElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;

  // Only the date and the two times decide which bikes are free; the destination does not.
  const { dataPrenotazione, orarioInizio, orarioFine } = values;
  const broken = useMemo(
    () => (rules ? ruleErrors(rules, { dataPrenotazione, orarioInizio, orarioFine }, { now: openedAt, timeZone }) : {}),
    [rules, dataPrenotazione, orarioInizio, orarioFine, openedAt, timeZone],
  );
  const windowAllowed = Object.keys(broken).length === 0;
  const slot = useMemo(
    () => (windowAllowed ? availabilityWindow({ dataPrenotazione, orarioInizio, orarioFine }) : null),
    [windowAllowed, dataPrenotazione, orarioInizio, orarioFine],
  );
  const day = rules ? dayStatus(rules, dataPrenotazione) : null;
  const open = day?.kind === 'open' ? day : null;
  const longest = rules ? maxDurationText(rules) : null;
  const weekly = rules ? weeklyLimitText(rules) : null;
  const available = useAvailableBikes(slot);
  const availableIds = useMemo(() => (available.data ? new Set(available.data.map((b) => b.id)) : undefined), [available.data]);
  // A bike chosen for another window, or taken meanwhile, is no longer a choice.
  const selectedId = values.biciId !== null && availableIds?.has(values.biciId) ? values.biciId : null;

  useEffect(() => {
    dateRef.current?.focus();
  }, []);

  const endBeforeStart = orarioInizio !== '' && orarioFine !== '' && orarioFine <= orarioInizio;
  const shown: BookingFormErrors = { ...broken, ...errors, ...(endBeforeStart ? { orarioFine: END_BEFORE_START } : {}) };

  function update<K extends BookingFormField>(field: K, value: BookingFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  function focusField(field: BookingFormField) {
    const form = formRef.current;
    if (!form) return;
    if (field === 'biciId') {
      const radio = form.querySelector<HTMLInputElement>(`input[name="${BIKE_RADIO_NAME}"]`);
      (radio ?? dateRef.current)?.focus();
      return;
    }
    document.getElementById(id(field))?.focus();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    const result = validateBookingForm({ ...values, biciId: selectedId }, availableIds);
    if (!result.ok) {
      setErrors(result.errors);
      const all: BookingFormErrors = { ...broken, ...result.errors };
      focusField(FIELD_ORDER.find((f) => all[f] !== undefined) ?? result.first);
      return;
    }
    const firstBroken = FIELD_ORDER.find((f) => broken[f] !== undefined);
    if (firstBroken) {
      focusField(firstBroken);
      return;
    }
    setErrors({});
    create.mutateAsync(result.request).then(onCreated, () => undefined);
  }

  const loadError = available.error
    ? (serverMessage(available.error) ?? 'Impossibile caricare le biciclette disponibili')
    : null;

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={create.isPending} className="grid gap-5">
      {weekly ? <p className="text-sm text-muted-foreground">{weekly}.</p> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={id('dataPrenotazione')} label="Data" hint={day ? dayHoursText(day) : undefined} error={shown.dataPrenotazione}>
          <Input
            ref={dateRef}
            id={id('dataPrenotazione')}
            type="date"
            value={dataPrenotazione}
            min={today}
            max={maxDate}
            onChange={(e) => update('dataPrenotazione', e.target.value)}
            aria-invalid={Boolean(shown.dataPrenotazione) || undefined}
            aria-describedby={describedBy(id('dataPrenotazione'), shown.dataPrenotazione, day !== null)}
          />
        </Field>
        <Field id={id('orarioInizio')} label="Ora di inizio" error={shown.orarioInizio}>
          <Input
            id={id('orarioInizio')}
            type="time"
            value={orarioInizio}
            min={open?.apertura}
            max={open?.chiusura}
            onChange={(e) => update('orarioInizio', e.target.value)}
            aria-invalid={Boolean(shown.orarioInizio) || undefined}
            aria-describedby={describedBy(id('orarioInizio'), shown.orarioInizio)}
          />
        </Field>
        <Field id={id('orarioFine')} label="Ora di fine" hint={longest ?? undefined} error={shown.orarioFine}>
          <Input
            id={id('orarioFine')}
            type="time"
            value={orarioFine}
            min={open?.apertura}
            max={open?.chiusura}
            onChange={(e) => update('orarioFine', e.target.value)}
            aria-invalid={Boolean(shown.orarioFine) || undefined}
            aria-describedby={describedBy(id('orarioFine'), shown.orarioFine, longest !== null)}
          />
        </Field>
      </div>

      <Field
        id={id('destinazione')}
        label={
          <>
            Destinazione <span className="font-normal text-muted-foreground">(facoltativa)</span>
          </>
        }
        hint="Dicci dove vai (per esempio centro città o palestra) e ti consigliamo le bici più adatte."
        error={shown.destinazione}
      >
        <Input
          id={id('destinazione')}
          type="text"
          value={values.destinazione}
          maxLength={DESTINATION_MAX}
          autoComplete="off"
          placeholder="Es. centro città"
          onChange={(e) => update('destinazione', e.target.value)}
          aria-invalid={Boolean(shown.destinazione) || undefined}
          aria-describedby={describedBy(id('destinazione'), shown.destinazione, true)}
        />
      </Field>

      <BikePicker
        windowReady={slot !== null}
        notReadyText={windowAllowed ? undefined : 'Scegli un giorno e degli orari consentiti per vedere le biciclette libere.'}
        bikes={available.data}
        loading={available.isFetching}
        loadError={loadError}
        destinazione={values.destinazione}
        selectedId={selectedId}
        onSelect={(biciId) => update('biciId', biciId)}
        error={shown.biciId}
        errorId={`${id('biciId')}-error`}
      />

      {slot !== null && !available.isFetching && !loadError && available.data?.length === 0 ? (
        (waits.data?.length ?? 0) >= WAITLIST_MAX_PER_USER ? (
          <p className="text-sm text-muted-foreground">
            Sei già in lista d&apos;attesa per {WAITLIST_MAX_PER_USER} fasce orarie, il massimo: esci da una delle liste per
            aspettare una bici in questa.
          </p>
        ) : (
          <div className="grid gap-2 rounded-lg border border-dashed p-3">
            <p className="text-sm text-muted-foreground">
              Possiamo avvisarti se in questa fascia oraria si libera una bici: la teniamo per te per qualche minuto.
            </p>
            <Button
              type="button"
              variant="outline"
              className="sm:justify-self-start"
              disabled={join.isPending}
              onClick={() =>
                join
                  .mutateAsync({ ...slot, destinazione: values.destinazione.trim() === '' ? null : values.destinazione.trim() })
                  .then(() => onWaiting?.(), () => undefined)
              }
            >
              <ButtonIcon pending={join.isPending} icon={<BellRingIcon aria-hidden="true" />} />
              Avvisami se si libera una bici
            </Button>
          </div>
        )
      ) : null}

      {isExternal ? (
        <p className="rounded-lg border bg-muted p-3 text-sm text-muted-foreground">
          La prenotazione costa {formatEuroCents(EXTERNAL_FEE_CENTS)}: la paghi subito dopo averla creata, per confermarla.{" "}
          {noShowNotice}
        </p>
      ) : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={create.isPending}>
          Annulla
        </Button>
        <Button type="submit" disabled={create.isPending}>
          <ButtonIcon pending={create.isPending} icon={<CalendarPlusIcon aria-hidden="true" />} />
          Prenota
        </Button>
      </div>
    </form>
  );
}
