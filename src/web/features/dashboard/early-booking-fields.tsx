import { PlusIcon } from 'lucide-react';
import { useEffect, useId, useRef, type ComponentProps, type RefObject } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { useRenderTime } from '../../lib/render-clock';
import { bookingDateBounds, defaultBookingForm, type BookingFormValues } from './dashboard-model';
import { useT } from '../../lib/i18n';
import { isPopoverOpen } from '../../lib/popover';

/** The booking window as the early fields hold it when the form takes their place. */
export interface EarlyWindow {
  window: Pick<BookingFormValues, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine'>;
  /** Whether the person changed one of them (else the form starts from its own defaults, fitted to the rules). */
  changed: boolean;
  /** The field that had the focus, if one did. */
  focused: EarlyField | null;
}

export type EarlyField = keyof EarlyWindow['window'];
const EARLY_FIELDS: EarlyField[] = ['dataPrenotazione', 'orarioInizio', 'orarioFine'];

interface EarlyBookingFieldsProps {
  timeZone: string;
  /** The booking horizon in days, when known (the last date the field takes). */
  horizonDays: number | undefined;
  /** A tap on the button (after hydration): the form is asked for. */
  onOpen: () => void;
  /** `Annulla` while the form was on its way: it is not shown after all. */
  onCancel: () => void;
  /** The button, for the focus to come back to it after `Annulla`. */
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** The button's handlers that fetch the form's code at the first sign of a tap. */
  intent: Pick<ComponentProps<'button'>, 'onPointerEnter' | 'onFocus' | 'onTouchStart'>;
  /** Told what the fields hold at every change and focus, and before `onOpen` (the form starts from it). */
  onChange: (early: EarlyWindow | null) => void;
}

/**
 * `Nuova prenotazione` and the first fields of the booking form, in the HTML the server sends
 * (issue 33, decision 039). The button shows the fields natively, before any script has run:
 * it is the invoker (`popovertarget`) of an empty manual popover that only holds the state
 * "opened"; styles.css shows the fields and hides the button while that popover is open. A
 * tap therefore shows the date at once on a page still waiting for its code, and with
 * JavaScript off. Once the page has hydrated, a popover opened before is read as a tap
 * (the form is asked for), and the form takes the place of these fields keeping what they hold.
 */
export function EarlyBookingFields({ timeZone, horizonDays, onOpen, onCancel, buttonRef, intent, onChange }: EarlyBookingFieldsProps) {
  const t = useT();
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;
  const switchId = id('aperto');
  const switchRef = useRef<HTMLDivElement>(null);
  const fieldsRef = useRef<HTMLDivElement>(null);
  // The defaults of spec §4 (the form fits them to the rules when it comes), read at the
  // server's instant while the page hydrates, so that both write the same HTML (render-clock.ts).
  const now = new Date(useRenderTime());
  const defaults = defaultBookingForm(now, timeZone);
  const { min, max } = bookingDateBounds(now, timeZone, horizonDays);

  const read = (): EarlyWindow | null => {
    const root = fieldsRef.current;
    if (!root) return null;
    const inputs = EARLY_FIELDS.map((field) => [field, root.querySelector<HTMLInputElement>(`[data-early-field="${field}"]`)] as const);
    const window = Object.fromEntries(inputs.map(([field, input]) => [field, input?.value ?? ''])) as EarlyWindow['window'];
    const changed = inputs.some(([, input]) => input !== null && input.value !== input.defaultValue);
    const focused = inputs.find(([, input]) => input !== null && input === document.activeElement)?.[0] ?? null;
    return { window, changed, focused };
  };
  const keep = () => onChange(read());

  // A tap before hydration opened the fields natively: now that the page has hydrated, the form is asked for.
  useEffect(() => {
    if (isPopoverOpen(switchRef.current)) {
      keep();
      onOpen();
    }
    // Once, as the fields appear (a mount after `Annulla` finds the popover closed).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const field = (name: EarlyField, label: string, type: 'date' | 'time', bounds: { min?: string; max?: string }) => (
    <div className="grid content-start gap-2">
      <Label htmlFor={id(name)}>{label}</Label>
      <Input id={id(name)} data-early-field={name} type={type} defaultValue={defaults[name]} {...bounds} />
    </div>
  );

  return (
    <>
      <Button
        ref={buttonRef}
        {...intent}
        size="lg"
        className="w-full sm:w-auto sm:justify-self-start"
        popoverTarget={switchId}
        popoverTargetAction="show"
        data-early-open=""
        onClick={() => {
          keep();
          onOpen();
        }}
      >
        <PlusIcon aria-hidden="true" />
        {t('earlyBookingFields.newBooking')}
      </Button>
      <div ref={switchRef} id={switchId} popover="manual" data-early-switch="" />
      <div
        ref={fieldsRef}
        data-early-booking=""
        className="rounded-xl border bg-card p-4 shadow-sm sm:p-6"
        onInput={keep}
        onFocus={keep}
      >
        <div className="grid gap-5">
          <div className="grid gap-4 sm:grid-cols-3">
            {field('dataPrenotazione', t('bookingForm.date'), 'date', { min, max })}
            {field('orarioInizio', t('bookingForm.start'), 'time', {})}
            {field('orarioFine', t('bookingForm.end'), 'time', {})}
          </div>
          <Spinner label={t('earlyBookingFields.loadingForm')} showLabel className="py-2" />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" popoverTarget={switchId} popoverTargetAction="hide" onClick={onCancel}>
              {t('bookingForm.cancel')}
            </Button>
          </div>
        </div>
      </div>
    </>
  );
}
