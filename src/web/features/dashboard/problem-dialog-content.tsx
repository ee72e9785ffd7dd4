import { SendIcon } from 'lucide-react';
import { type FormEvent, type RefObject } from 'react';
import { DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../../../shared/damage';
import { pickupProblemRequestSchema, type BookingDto } from '../../../shared/schemas/booking';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { t as appT, useT } from '../../lib/i18n';
import { usePickupProblem } from './queries';
import { DamageFields, useDamageForm } from './return-dialog-content';

export interface ProblemDialogContentProps {
  booking: BookingDto;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The button that opened the dialog: the focus goes back to it when it closes, if it is still there. */
  triggerRef: RefObject<HTMLElement | null>;
}

type Values = { categoria: DamageCategory | ''; descrizione: string };
type Errors = { categoria?: string; descrizione?: string };

/** The form checked with the schema the server uses: the request, or each field's first mistake. */
function check(values: Values): { ok: true; request: { categoria: DamageCategory; descrizione: string } } | { ok: false; errors: Errors } {
  const parsed = pickupProblemRequestSchema.safeParse(values);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'categoria') errors.categoria ??= issue.message;
    // The schema's sentence speaks of a damage (the return's): here it is a problem.
    if (field === 'descrizione') errors.descrizione ??= appT('problemDialog.describe', { max: DAMAGE_DESCRIPTION_MAX });
  }
  return { ok: false, errors };
}

/**
 * `La bici ha un problema`'s dialog (issue 35), in a chunk of its own with Radix: what is wrong
 * (the return's damage fields), sent to the server, which moves the booking to another bike or
 * cancels it; its sentence is the toast. It stays open until the server answers; a refusal is a
 * toast and keeps what was typed. The card then shows the new bike (its title, its lock's code).
 */
export function ProblemDialogContent({ booking, open, setOpen, triggerRef }: ProblemDialogContentProps) {
  const t = useT();
  const { values, errors, setErrors, update, id } = useDamageForm<Values>({ categoria: '', descrizione: '' });
  const problem = usePickupProblem();
  const pending = problem.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const result = check(values);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(id(result.errors.categoria ? 'categoria' : 'descrizione'))?.focus();
      return;
    }
    problem.mutateAsync({ id: booking.id, request: result.request }).then(
      () => setOpen(false),
      () => undefined,
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (triggerRef.current?.isConnected) triggerRef.current.focus();
          // The button is gone with the bike (moved, or the booking cancelled): the bookings' heading takes the focus.
          else document.getElementById('prenotazioni-attive-title')?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('problemDialog.title')}</DialogTitle>
          <DialogDescription>
            {t('problemDialog.description', { numero: booking.biciNumero, modello: booking.biciModello })}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} aria-busy={pending} className="grid gap-4">
          <DamageFields
            id={id}
            values={values}
            errors={errors}
            pending={pending}
            update={update}
            labels={{ categoria: t('problemDialog.category'), descrizione: t('problemDialog.details') }}
          />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => setOpen(false)}>
              {t('problemDialog.cancel')}
            </Button>
            <Button type="submit" disabled={pending}>
              <ButtonIcon pending={pending} icon={<SendIcon aria-hidden="true" />} />
              {t('problemDialog.send')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
