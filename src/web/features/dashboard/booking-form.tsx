import { BellRingIcon, CalendarPlusIcon } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { DESTINATION_MAX, EXTERNAL_FEE_CENTS } from '../../../shared/constants';
import { money } from '../../../shared/i18n/format';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Trans, useLingua, useT } from '../../lib/i18n';
import { useNoShowNotice } from '../../lib/no-show';
import { BIKE_RADIO_NAME, WindowBikePicker } from './bike-picker';
import { dayHoursText, fitWindow, maxDurationText, weeklyLimitText, type DayStatus, type FormRules } from './booking-rules';
import { validateBookingForm } from './booking-validation';
import {
  defaultBookingForm,
  type BookingFormErrors,
  type BookingFormField,
  type BookingFormValues,
} from './dashboard-model';
import { useCreateBooking, useSedeRules } from './queries';
import { useBookingWindow, type BookingWindow } from './use-booking-window';
import type { EarlyWindow } from './early-booking-fields';
import { WAITLIST_MAX_PER_USER } from '../../../shared/schemas/waitlist';
import { useJoinWait, useWaits } from '../waitlist';
import { NativeSelect } from '../../components/ui/native-select';
import { useSedi } from '../../lib/sedi';
import { useCurrentUser } from '../../lib/session';

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
  /** What the early fields held when the form took their place (early-booking-fields.tsx), if it did. */
  early?: EarlyWindow | null;
  /**
   * A bike asked for by its number (`/dashboard?bici=07`, issue 34): chosen as soon as it is free
   * in the window shown, until the person chooses another; a bike not free is simply not chosen.
   */
  bikeNumero?: string | null;
}

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

type Update = <K extends BookingFormField>(field: K, value: BookingFormValues[K]) => void;

/** The date and the two times, with the day's hours and the longest booking said under them. */
function WindowFields({
  id,
  values,
  day,
  today,
  maxDate,
  rules,
  shown,
  update,
  dateRef,
}: {
  id: (field: string) => string;
  values: BookingFormValues;
  day: DayStatus | null;
  today: string;
  maxDate: string | undefined;
  rules: FormRules | undefined;
  shown: BookingFormErrors;
  update: Update;
  dateRef: RefObject<HTMLInputElement | null>;
}) {
  const t = useT();
  const open = day?.kind === 'open' ? day : null;
  const longest = rules ? maxDurationText(rules, t) : null;
  const time = (field: 'orarioInizio' | 'orarioFine', label: string, hint: string | null) => (
    <Field id={id(field)} label={label} hint={hint ?? undefined} error={shown[field]}>
      <Input
        id={id(field)}
        type="time"
        value={values[field]}
        min={open?.apertura}
        max={open?.chiusura}
        onChange={(e) => update(field, e.target.value)}
        aria-invalid={Boolean(shown[field]) || undefined}
        aria-describedby={describedBy(id(field), shown[field], hint !== null)}
      />
    </Field>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Field id={id('dataPrenotazione')} label={t('bookingForm.date')} hint={day ? dayHoursText(day, t) : undefined} error={shown.dataPrenotazione}>
        <Input
          ref={dateRef}
          id={id('dataPrenotazione')}
          type="date"
          value={values.dataPrenotazione}
          min={today}
          max={maxDate}
          onChange={(e) => update('dataPrenotazione', e.target.value)}
          aria-invalid={Boolean(shown.dataPrenotazione) || undefined}
          aria-describedby={describedBy(id('dataPrenotazione'), shown.dataPrenotazione, day !== null)}
        />
      </Field>
      {time('orarioInizio', t('bookingForm.start'), null)}
      {time('orarioFine', t('bookingForm.end'), longest)}
    </div>
  );
}

/**
 * The sede whose bikes, hours and waitlist the form shows (issue 47), above the date: only
 * when the install has several open sedi. It opens on the person's home sede.
 */
function SedeField({ id, value, home, onChange }: { id: string; value: number; home: number | undefined; onChange: (sedeId: number) => void }) {
  const t = useT();
  const sedi = useSedi();
  if (!sedi.several) return null;
  return (
    <Field id={id} label={t('bookingSede.label')} hint={t('bookingSede.hint')} error={undefined}>
      <NativeSelect id={id} value={String(value)} onChange={(e) => onChange(Number(e.target.value))} aria-describedby={describedBy(id, undefined, true)}>
        {sedi.open.map((s) => (
          <option key={s.id} value={s.id}>
            {s.id === home ? t('bookingSede.home', { nome: s.nome }) : s.nome}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

/**
 * The sede chosen in the form (issue 47) and the rules that apply there: the install's limits
 * with that sede's hours and closures. The home sede's rules are the form's own (`rules`); another
 * sede's are asked for when it is chosen, and until they come the server alone checks the window.
 */
function useChosenSede(rules: FormRules | undefined) {
  const home = useCurrentUser().data?.sedeId;
  const [chosen, setChosen] = useState<number | null>(null);
  const other = chosen !== null && chosen !== home ? chosen : null;
  const sedeRules = useSedeRules(other);
  const effective: FormRules | undefined =
    other === null ? rules : rules && sedeRules.data ? { ...rules, orari: sedeRules.data.orari, chiusure: sedeRules.data.chiusure } : undefined;
  return { home, shown: chosen ?? home ?? 0, asked: other, setChosen, rules: effective };
}

function DestinationField({ id, value, error, update }: { id: string; value: string; error: string | undefined; update: Update }) {
  const t = useT();
  return (
    <Field
      id={id}
      label={
        <Trans id="bookingForm.destination" components={{ 0: <span className="font-normal text-muted-foreground" /> }} />
      }
      hint={t('bookingForm.destinationHint')}
      error={error}
    >
      <Input
        id={id}
        type="text"
        value={value}
        maxLength={DESTINATION_MAX}
        autoComplete="off"
        placeholder={t('bookingForm.destinationPlaceholder')}
        onChange={(e) => update('destinazione', e.target.value)}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={describedBy(id, error, true)}
      />
    </Field>
  );
}

/** No bike free in an allowed window: the offer to wait for one (issue 21), unless the person already waits in as many windows as allowed. */
function WaitOffer({ window: w, destinazione, onWaiting }: { window: BookingWindow; destinazione: string; onWaiting: (() => void) | undefined }) {
  const t = useT();
  const join = useJoinWait();
  const waits = useWaits();
  const { slot } = w;
  if (slot === null || w.available.isFetching || w.loadError || w.available.data?.length !== 0) return null;
  if ((waits.data?.length ?? 0) >= WAITLIST_MAX_PER_USER) {
    return (
      <p className="text-sm text-muted-foreground">
        {t('bookingForm.waitMax', { max: WAITLIST_MAX_PER_USER })}
      </p>
    );
  }
  return (
    <div className="grid gap-2 rounded-lg border border-dashed p-3">
      <p className="text-sm text-muted-foreground">
        {t('bookingForm.waitOffer')}
      </p>
      <Button
        type="button"
        variant="outline"
        className="sm:justify-self-start"
        disabled={join.isPending}
        onClick={() =>
          join
            .mutateAsync({ ...slot, destinazione: destinazione.trim() === '' ? null : destinazione.trim() })
            .then(() => onWaiting?.(), () => undefined)
        }
      >
        <ButtonIcon pending={join.isPending} icon={<BellRingIcon aria-hidden="true" />} />
        {t('bookingForm.notifyMe')}
      </Button>
    </div>
  );
}

/**
 * The form's values and errors, and its submission: a field that is wrong takes the focus,
 * the first in screen order; a failed submission keeps what was typed.
 */
function useBookingSubmit({
  values,
  w,
  id,
  formRef,
  dateRef,
  onCreated,
}: {
  values: BookingFormValues;
  w: BookingWindow;
  id: (field: string) => string;
  formRef: RefObject<HTMLFormElement | null>;
  dateRef: RefObject<HTMLInputElement | null>;
  onCreated: () => void;
}) {
  const [errors, setErrors] = useState<BookingFormErrors>({});
  const create = useCreateBooking();

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
    const result = validateBookingForm({ ...values, biciId: w.selectedId }, w.availableIds);
    if (!result.ok) {
      setErrors(result.errors);
      const all: BookingFormErrors = { ...w.broken, ...result.errors };
      focusField(FIELD_ORDER.find((f) => all[f] !== undefined) ?? result.first);
      return;
    }
    const firstBroken = FIELD_ORDER.find((f) => w.broken[f] !== undefined);
    if (firstBroken) {
      focusField(firstBroken);
      return;
    }
    setErrors({});
    create.mutateAsync(result.request).then(onCreated, () => undefined);
  }

  return { errors, setErrors, pending: create.isPending, onSubmit };
}

/**
 * The new-booking form. Mounted when opened and unmounted when closed, so every opening
 * starts from the defaults of spec §4, moved to the first window the rules allow (issue 20).
 * The day's hours and the maximum duration are shown; a window the rules refuse is said by
 * its field as it is typed, and no bikes are asked for it. A failed submission keeps what was typed.
 */
export function BookingForm({ today, maxDate, timeZone, isExternal, rules, onCancel, onCreated, onWaiting, early, bikeNumero = null }: BookingFormProps) {
  // The instant the form opened: its defaults and the notice are measured from it (the server checks again).
  const [openedAt] = useState(() => new Date());
  // The early fields as the form is rendered in their place: a window the person changed there is kept.
  const [earlyAtOpen] = useState(() => early ?? null);
  const [values, setValues] = useState<BookingFormValues>(() => {
    const defaults = defaultBookingForm(openedAt, timeZone);
    if (earlyAtOpen?.changed) return { ...defaults, ...earlyAtOpen.window };
    return rules ? fitWindow(defaults, rules, { now: openedAt, timeZone }) : defaults;
  });
  const t = useT();
  const lingua = useLingua();
  const noShowNotice = useNoShowNotice();
  const formRef = useRef<HTMLFormElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;
  const sede = useChosenSede(rules);
  const w = useBookingWindow(values, sede.rules, { openedAt, timeZone, sedeId: sede.asked });
  const weekly = rules ? weeklyLimitText(rules, t) : null;
  const { errors, setErrors, pending, onSubmit } = useBookingSubmit({ values, w, id, formRef, dateRef, onCreated });
  // The bike asked for, chosen while the render adjusts to the free bikes (no effect: no extra paint).
  const [wanted, setWanted] = useState(bikeNumero);
  const wantedId = wanted === null ? undefined : w.available.data?.find((b) => b.numero === wanted)?.id;
  if (wantedId !== undefined && values.biciId !== wantedId) setValues((current) => ({ ...current, biciId: wantedId }));

  // In the frame the form replaces the early fields: the focus on the field that had it (else on
  // the date, as a tap on `Nuova prenotazione` does).
  useLayoutEffect(() => {
    const field = earlyAtOpen?.focused;
    if (field) document.getElementById(id(field))?.focus();
    else dateRef.current?.focus();
    // Once, as the form appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const { orarioInizio, orarioFine } = values;
  const endBeforeStart = orarioInizio !== '' && orarioFine !== '' && orarioFine <= orarioInizio;
  const shown: BookingFormErrors = { ...w.broken, ...errors, ...(endBeforeStart ? { orarioFine: t('bookingForm.endBeforeStart') } : {}) };

  const update: Update = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-busy={pending} className="grid gap-5">
      {weekly ? <p className="text-sm text-muted-foreground">{weekly}.</p> : null}
      <SedeField
        id={id('sede')}
        value={sede.shown}
        home={sede.home}
        onChange={(sedeId) => {
          sede.setChosen(sedeId);
          // A bike of the other sede is no choice here.
          setWanted(null);
          update('biciId', null);
        }}
      />
      <WindowFields id={id} values={values} day={w.day} today={today} maxDate={maxDate} rules={sede.rules} shown={shown} update={update} dateRef={dateRef} />
      <DestinationField id={id('destinazione')} value={values.destinazione} error={shown.destinazione} update={update} />
      <WindowBikePicker
        window={w}
        destinazione={values.destinazione}
        onSelect={(biciId) => {
          setWanted(null);
          update('biciId', biciId);
        }}
        error={shown.biciId}
        errorId={`${id('biciId')}-error`}
      />
      <WaitOffer window={w} destinazione={values.destinazione} onWaiting={onWaiting} />

      {isExternal ? (
        <p className="rounded-lg border bg-muted p-3 text-sm text-muted-foreground">
          {t('bookingForm.externalFee', { importo: money(EXTERNAL_FEE_CENTS, lingua) })}{' '}
          {noShowNotice}
        </p>
      ) : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          {t('bookingForm.cancel')}
        </Button>
        <Button type="submit" disabled={pending}>
          <ButtonIcon pending={pending} icon={<CalendarPlusIcon aria-hidden="true" />} />
          {t('bookingForm.book')}
        </Button>
      </div>
    </form>
  );
}
