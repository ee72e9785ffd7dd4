import { CalendarPlusIcon } from 'lucide-react';
import { useId, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { DESTINATION_MAX } from '../../../shared/constants';
import type { AdminUserDto } from '../../../shared/schemas/admin';
import { adminBookingRequestSchema } from '../../../shared/schemas/rules';
import { Badge } from '../../components/ui/badge';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { t as tNow, Trans, useT } from '../../lib/i18n';
import { usePublicConfig } from '../../lib/public-config';
import { serverFieldErrors, serverMessage } from '../../lib/api-errors';
import { FALLBACK_TIME_ZONE } from '../../lib/booking-labels';
import { dayHoursText, useBookingWindow, WindowBikePicker, type BookingWindow, type DayStatus, type FormRules } from '../dashboard';
import { useClosures, useRules, useUserSearch, type useAdminCreateBooking } from './queries';
import { useDebounced } from '../../lib/use-debounced';
import { InlineError } from './rules-parts';
import { FieldError } from '../../components/field-error';
import { deskDefaultWindow, userChoiceDetail, userName } from './rules-model';
import { useSediFor } from '../../lib/staff-view';
import { BikeSedeField } from './bike-sede-field';

type Field = 'userId' | 'dataPrenotazione' | 'orarioInizio' | 'orarioFine' | 'destinazione' | 'biciId';
const FIELD_ORDER: Field[] = ['userId', 'dataPrenotazione', 'orarioInizio', 'orarioFine', 'destinazione', 'biciId'];

interface Values {
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  destinazione: string;
  biciId: number | null;
}

/** The user search: a text box and, under it, at most 10 matches as radio buttons. */
function UserSearch({
  idPrefix,
  selected,
  onSelect,
  error,
}: {
  idPrefix: string;
  selected: AdminUserDto | null;
  onSelect: (user: AdminUserDto) => void;
  error: string | undefined;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const search = useUserSearch(q);
  const users = search.data?.items ?? [];
  const errorId = `${idPrefix}-userId-error`;

  let status: string;
  if (q === '') status = t('deskBookingForm.typeToSearch');
  else if (search.isFetching) status = t('deskBookingForm.searching');
  else if (search.isError) status = serverMessage(search.error) ?? t('deskBookingForm.searchFailed');
  else if (users.length === 0) status = t('deskBookingForm.noneFound');
  else if ((search.data?.total ?? 0) > users.length) status = t('deskBookingForm.firstOf', { shown: users.length, total: search.data?.total ?? 0 });
  else status = t('deskBookingForm.found', { count: users.length });

  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">{t('deskBookingForm.user')}</legend>
      <Label htmlFor={`${idPrefix}-cerca`} className="sr-only">
        {t('deskBookingForm.searchUser')}
      </Label>
      <Input
        id={`${idPrefix}-cerca`}
        type="search"
        value={text}
        autoComplete="off"
        placeholder={t('deskBookingForm.searchPlaceholder')}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={`${idPrefix}-cerca-status`}
        aria-invalid={error ? true : undefined}
      />
      <p id={`${idPrefix}-cerca-status`} aria-live="polite" className="text-sm text-muted-foreground">
        {search.isFetching && q !== '' ? <Spinner label={status} showLabel className="text-sm" /> : status}
      </p>
      {selected ? (
        <p className="text-sm">
          <Trans
            id="deskBookingForm.chosen"
            values={{ name: userName(selected), email: selected.email }}
            components={{ 0: <span className="font-semibold" /> }}
          />
        </p>
      ) : null}
      <FieldError id={`${idPrefix}-userId`} message={error} />
      {q !== '' && users.length > 0 ? (
        <div className="grid max-h-56 gap-2 overflow-y-auto p-0.5">
          {users.map((u) => (
            <label
              key={u.id}
              className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border bg-card px-3 py-2 hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-brand-50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring"
            >
              <input
                type="radio"
                name={`${idPrefix}-utente`}
                value={u.id}
                checked={selected?.id === u.id}
                disabled={!u.attiva}
                onChange={() => onSelect(u)}
                className="size-5 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
              />
              <span className="grid min-w-0">
                <span className="flex flex-wrap items-center gap-2 font-medium">
                  {userName(u)}
                  {u.attiva ? null : <Badge variant="muted">{t('deskBookingForm.deactivated')}</Badge>}
                  {u.sospesoFino ? <Badge variant="warning">{t('deskBookingForm.suspended')}</Badge> : null}
                </span>
                <span className="text-sm break-words text-muted-foreground">{userChoiceDetail(u)}</span>
              </span>
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

type CreateBooking = ReturnType<typeof useAdminCreateBooking>;

/** The window's free bikes of one sede only (issue 47); all of them when there is no sede to choose. */
function atSede(w: BookingWindow, sedeId: number | null): BookingWindow {
  if (sedeId === null || !w.available.data) return w;
  const data = w.available.data.filter((b) => b.sedeId === sedeId);
  const availableIds = new Set(data.map((b) => b.id));
  const selectedId = w.selectedId !== null && availableIds.has(w.selectedId) ? w.selectedId : null;
  return { ...w, available: { ...w.available, data } as BookingWindow['available'], availableIds, selectedId };
}
type Errors = Partial<Record<Field, string>>;
type SetValue = <K extends keyof Values>(field: K, value: Values[K]) => void;

/** The date (with the day's hours) and the two times. */
function DeskWindowFields({
  id,
  values,
  day,
  shown,
  set,
}: {
  id: (field: Field) => string;
  values: Values;
  day: DayStatus | null;
  shown: Errors;
  set: SetValue;
}) {
  const t = useT();
  const timeField = (field: 'orarioInizio' | 'orarioFine', label: string) => (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id(field)}>{label}</Label>
      <Input
        id={id(field)}
        type="time"
        value={values[field]}
        onChange={(e) => set(field, e.target.value)}
        aria-invalid={shown[field] ? true : undefined}
        aria-describedby={shown[field] ? `${id(field)}-error` : undefined}
      />
      <FieldError id={id(field)} message={shown[field]} />
    </div>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="grid content-start gap-1.5">
        <Label htmlFor={id('dataPrenotazione')}>{t('deskBookingForm.date')}</Label>
        <Input
          id={id('dataPrenotazione')}
          type="date"
          value={values.dataPrenotazione}
          onChange={(e) => set('dataPrenotazione', e.target.value)}
          aria-invalid={shown.dataPrenotazione ? true : undefined}
          aria-describedby={[day ? `${id('dataPrenotazione')}-hint` : null, shown.dataPrenotazione ? `${id('dataPrenotazione')}-error` : null].filter(Boolean).join(' ') || undefined}
        />
        {day ? (
          <p id={`${id('dataPrenotazione')}-hint`} aria-live="polite" className="text-sm text-muted-foreground">
            {dayHoursText(day)}
          </p>
        ) : null}
        <FieldError id={id('dataPrenotazione')} message={shown.dataPrenotazione} />
      </div>
      {timeField('orarioInizio', t('deskBookingForm.startTime'))}
      {timeField('orarioFine', t('deskBookingForm.endTime'))}
    </div>
  );
}

/** Hours and closures bind a desk booking too; the fair-use limits do not (issue 20). */
function useDeskRules(): FormRules | undefined {
  const rulesQuery = useRules();
  const closures = useClosures();
  return useMemo(
    () =>
      rulesQuery.data && closures.data
        ? { orari: rulesQuery.data.orari, chiusure: closures.data, durataMassimaMinuti: null, preavvisoMinimoMinuti: null, orizzonteGiorni: null }
        : undefined,
    [rulesQuery.data, closures.data],
  );
}

/**
 * The desk's submission: checked with the request's own schema and the rules, the first wrong
 * field (in screen order) focused; the server's refusal said in the dialog and at its fields.
 */
function useDeskSubmit({
  create,
  values,
  user,
  sedeId,
  w,
  focus,
  onDone,
}: {
  create: CreateBooking;
  values: Values;
  user: AdminUserDto | null;
  sedeId: number | null;
  w: BookingWindow;
  focus: (field: Field) => void;
  onDone: () => void;
}) {
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = adminBookingRequestSchema.safeParse({ ...values, biciId: w.selectedId, userId: user?.id, ...(sedeId === null ? {} : { sedeId }) });
    const found: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (typeof key === 'string' && (FIELD_ORDER as string[]).includes(key)) found[key as Field] ??= issue.message;
      }
    }
    const all = { ...w.broken, ...found };
    const first = FIELD_ORDER.find((f) => all[f] !== undefined);
    if (!parsed.success || first || !user) {
      setErrors(found);
      focus(first ?? 'userId');
      return;
    }
    setErrors({});
    setFailure(null);
    create.mutateAsync({ request: parsed.data, user }).then(onDone, (error: unknown) => {
      setFailure(serverMessage(error) ?? tNow('adminQueries.createBookingFailed'));
      const fields = serverFieldErrors(error);
      setErrors(Object.fromEntries(Object.entries(fields).filter(([key]) => (FIELD_ORDER as string[]).includes(key))));
    });
  }

  return { errors, setErrors, failure, submit };
}

function DeskBookingForm({ create, onDone }: { create: CreateBooking; onDone: () => void }) {
  const t = useT();
  const config = usePublicConfig();
  const timeZone = config.data?.timeZone ?? FALLBACK_TIME_ZONE;
  const [openedAt] = useState(() => new Date());
  const [values, setValues] = useState<Values>(() => ({ ...deskDefaultWindow(openedAt, timeZone), destinazione: '', biciId: null }));
  const [user, setUser] = useState<AdminUserDto | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const rules = useDeskRules();
  const ids = useId();
  const id = (field: Field) => `${ids}-${field}`;
  const sedi = useSediFor('banco');
  // Issue 47: with several sedi, the desk books at one: the person's home sede until another is chosen.
  const [chosenSede, setChosenSede] = useState<number | null>(null);
  // Issue 48: the desk's own sedi only; the person's home sede when it is one of them.
  const home = sedi.open.some((s) => s.id === user?.sedeId) ? user?.sedeId : undefined;
  const sedeId = sedi.several ? (chosenSede ?? home ?? sedi.open[0]?.id ?? null) : null;
  const w = atSede(useBookingWindow(values, rules, { openedAt, timeZone, limits: false, sedeId }), sedeId);

  function focus(field: Field) {
    const target =
      field === 'userId'
        ? document.getElementById(`${ids}-cerca`)
        : field === 'biciId'
          ? formRef.current?.querySelector<HTMLElement>('input[name="biciId"]')
          : document.getElementById(id(field));
    target?.focus();
  }

  const { errors, setErrors, failure, submit } = useDeskSubmit({ create, values, user, sedeId, w, focus, onDone });
  const shown = { ...w.broken, ...errors };
  const set: SetValue = (field, value) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} aria-busy={create.isPending} className="grid gap-5">
      <UserSearch
        idPrefix={ids}
        selected={user}
        onSelect={(u) => {
          setUser(u);
          setErrors(({ userId: _cleared, ...rest }) => rest);
        }}
        error={errors.userId}
      />

      {sedi.several ? <BikeSedeField sedi={sedi.open} value={sedeId} onChange={setChosenSede} /> : null}

      <DeskWindowFields id={id} values={values} day={w.day} shown={shown} set={set} />

      <div className="grid gap-1.5">
        <Label htmlFor={id('destinazione')}>
          {t('deskBookingForm.destination')} <span className="font-normal text-muted-foreground">{t('deskBookingForm.optional')}</span>
        </Label>
        <Input
          id={id('destinazione')}
          value={values.destinazione}
          maxLength={DESTINATION_MAX}
          autoComplete="off"
          onChange={(e) => set('destinazione', e.target.value)}
          aria-invalid={shown.destinazione ? true : undefined}
          aria-describedby={shown.destinazione ? `${id('destinazione')}-error` : undefined}
        />
        <FieldError id={id('destinazione')} message={shown.destinazione} />
      </div>

      <WindowBikePicker
        window={w}
        destinazione={values.destinazione}
        onSelect={(biciId) => set('biciId', biciId)}
        error={shown.biciId}
        errorId={`${id('biciId')}-error`}
      />

      <p className="rounded-lg border bg-muted p-3 text-sm text-muted-foreground">
        {t('deskBookingForm.note')}
      </p>

      <InlineError message={failure} />

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
          {t('deskBookingForm.cancel')}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          <ButtonIcon pending={create.isPending} icon={<CalendarPlusIcon aria-hidden="true" />} />
          {t('deskBookingForm.bookForUser')}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The dialog of `Nuova prenotazione` at the desk (issue 20): a booking made by an admin for
 * any active user. A chunk of its own (desk-booking.tsx): /admin's first screen does not load
 * its form, its rules and zod.
 */
/** The dialog, open or closed as `DeskBooking` says: a chunk of its own with Radix's dialog (decision 027). */
export function DeskBookingDialog({
  create,
  open,
  onOpenChange,
  onDone,
  triggerRef,
}: {
  create: CreateBooking;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
  triggerRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DeskBookingContent create={create} open={open} onDone={onDone} triggerRef={triggerRef} />
    </Dialog>
  );
}

function DeskBookingContent({
  create,
  open,
  onDone,
  triggerRef,
}: {
  create: CreateBooking;
  open: boolean;
  onDone: () => void;
  triggerRef: RefObject<HTMLButtonElement | null>;
}) {
  const t = useT();
  return (
    <DialogContent
      className="sm:max-w-2xl"
      onCloseAutoFocus={(event) => {
        // Radix would focus its own trigger; this one is ours.
        event.preventDefault();
        triggerRef.current?.focus();
      }}
    >
      <DialogHeader>
        <DialogTitle>{t('deskBookingForm.title')}</DialogTitle>
        <DialogDescription>{t('deskBookingForm.description')}</DialogDescription>
      </DialogHeader>
      {/* Mounted while open: every opening starts from now. */}
      {open ? <DeskBookingForm create={create} onDone={onDone} /> : null}
    </DialogContent>
  );
}
