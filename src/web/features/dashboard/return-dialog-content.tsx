import { PackageCheckIcon } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { DAMAGE_CATEGORY_LABELS } from '../../../shared/damage';
import type { BookingView } from '../../offline/offline-model';
import { FieldError } from '../../components/field-error';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { Switch } from '../../components/ui/switch';
import { Textarea } from '../../components/ui/textarea';
import { useT } from '../../lib/i18n';
import {
  DAMAGE_DESCRIPTION_MAX,
  validateReturnForm,
  type ReturnFormResult,
  type ReturnFormValues,
} from './dashboard-model';
import { showNewCode } from './new-code-notice';
import { useReturnBike } from './queries';

export interface ReturnDialogContentProps {
  booking: BookingView;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The button that opened the dialog: the focus goes back to it when it closes, if it is still there. */
  triggerRef: RefObject<HTMLElement | null>;
  /** After the return (the button is gone: move the focus somewhere that still exists). */
  onReturned?: (() => void) | undefined;
}

/**
 * The code the rider closes the lock with (issue 34): the return's answer says it when the server
 * took the return now; a return kept on the device shows the one kept since `Ritirata`. Once read,
 * nothing of the ride's lock stays on the device.
 */
async function codeToCloseWith(bookingId: number, answered: string | null | undefined): Promise<string | null> {
  try {
    const codes = await import('../../offline/lock-codes');
    const kept = await codes.readKeptRide(bookingId);
    await codes.forgetKeptRide(bookingId);
    return answered ?? kept.nuovoCodice ?? null;
  } catch {
    return answered ?? null;
  }
}

type Errors = Extract<ReturnFormResult, { ok: false }>['errors'];

/**
 * A damage form's state (the return's, and `La bici ha un problema`'s): its values, each field's
 * error, an id per field, and `update`, which takes new values and drops their fields' errors.
 */
export function useDamageForm<V extends object>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;
  function update(next: Partial<V>) {
    setValues((current) => ({ ...current, ...next }));
    setErrors((current) => {
      const rest = { ...current };
      for (const key of Object.keys(next)) delete rest[key as keyof Errors];
      return rest;
    });
  }
  return { values, errors, setErrors, update, id };
}
type DamageValues = Pick<ReturnFormValues, 'categoria' | 'descrizione'>;

/** One field of the damage report: its label, the control, what follows it, and its error. */
function DamageField({
  id,
  label,
  error,
  after,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {after}
      <FieldError id={id} message={error} />
    </div>
  );
}

/**
 * The damage report: its category and a short text, with their errors and the text's length.
 * Also the problem found at the pick-up (problem-dialog-content.tsx), with its own `labels`.
 */
export function DamageFields({
  id,
  values,
  errors,
  pending,
  update,
  labels,
}: {
  id: (field: string) => string;
  values: DamageValues;
  errors: Errors;
  pending: boolean;
  update: (next: Partial<DamageValues>) => void;
  labels?: { categoria: string; descrizione: string };
}) {
  const t = useT();
  const label = labels ?? { categoria: t('returnDialog.category'), descrizione: t('returnDialog.details') };
  const length = values.descrizione.length;
  return (
    <>
      <DamageField id={id('categoria')} label={label.categoria} error={errors.categoria}>
        <NativeSelect
          id={id('categoria')}
          value={values.categoria}
          disabled={pending}
          onChange={(e) => update({ categoria: e.target.value as ReturnFormValues['categoria'] })}
          aria-invalid={Boolean(errors.categoria) || undefined}
          aria-describedby={errors.categoria ? `${id('categoria')}-error` : undefined}
        >
          <option value="">{t('returnDialog.choose')}</option>
          {Object.entries(DAMAGE_CATEGORY_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </NativeSelect>
      </DamageField>
      <DamageField
        id={id('descrizione')}
        label={label.descrizione}
        error={errors.descrizione}
        after={
          <p id={`${id('descrizione')}-count`} className="text-right text-sm text-muted-foreground tabular-nums">
            {t('returnDialog.count', { n: length, max: DAMAGE_DESCRIPTION_MAX })}
          </p>
        }
      >
        <Textarea
          id={id('descrizione')}
          value={values.descrizione}
          maxLength={DAMAGE_DESCRIPTION_MAX}
          rows={4}
          disabled={pending}
          placeholder={t('returnDialog.placeholder')}
          onChange={(e) => update({ descrizione: e.target.value })}
          aria-invalid={Boolean(errors.descrizione) || undefined}
          aria-describedby={[errors.descrizione ? `${id('descrizione')}-error` : null, `${id('descrizione')}-count`]
            .filter(Boolean)
            .join(' ')}
        />
      </DamageField>
    </>
  );
}

/**
 * `Riconsegnata`'s dialog (decision 022), in a chunk of its own with Radix: the return, with
 * an optional damage report (a category and a short text). It stays open until the server
 * answers, or until the return is queued on the device for lack of it (issue 22); a refusal
 * is a toast and keeps what was typed.
 */
export function ReturnDialogContent({ booking, open, setOpen, triggerRef, onReturned }: ReturnDialogContentProps) {
  const t = useT();
  const { values, errors, setErrors, update, id } = useDamageForm<ReturnFormValues>({ segnalaDanno: false, categoria: '', descrizione: '' });
  const returnBike = useReturnBike();
  const pending = returnBike.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const result = validateReturnForm(values, t);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(id(result.errors.categoria ? 'categoria' : 'descrizione'))?.focus();
      return;
    }
    returnBike.mutateAsync({ booking, request: result.request }).then(
      async (outcome) => {
        const code = await codeToCloseWith(booking.id, outcome.kind === 'sent' ? outcome.booking.nuovoCodice : null);
        setOpen(false);
        onReturned?.();
        if (code) showNewCode(code);
      },
      () => undefined,
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (triggerRef.current?.isConnected) triggerRef.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('returnDialog.title')}</DialogTitle>
          <DialogDescription>
            {t('returnDialog.description', { numero: booking.biciNumero, modello: booking.biciModello })}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} aria-busy={pending} className="grid gap-4">
          <div className="flex items-center gap-3">
            <Switch
              id={id('segnala')}
              checked={values.segnalaDanno}
              disabled={pending}
              onChange={(e) => update({ segnalaDanno: e.target.checked })}
            />
            <Label htmlFor={id('segnala')}>{t('returnDialog.reportDamage')}</Label>
          </div>
          {values.segnalaDanno ? <DamageFields id={id} values={values} errors={errors} pending={pending} update={update} /> : null}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => setOpen(false)}>
              {t('returnDialog.cancel')}
            </Button>
            <Button type="submit" disabled={pending}>
              <ButtonIcon pending={pending} icon={<PackageCheckIcon aria-hidden="true" />} />
              {t('returnDialog.confirm')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
