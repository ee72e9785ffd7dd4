import { useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import { Button, ButtonIcon } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { useT } from '../../lib/i18n';

/** A dialog with its title and description, opened by its button (`trigger`) or by the page. */
export function TitledDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: ReactElement;
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/**
 * A form in a dialog opened by its button (a bike's state, a new bike, a user): `Annulla` and
 * the submit button under the fields. While the request runs the dialog cannot be dismissed
 * and its buttons are busy; it closes when the request succeeds, and stays open when it fails
 * (the failure is told by the mutation's toast).
 */
export function FormDialog({
  onOpen,
  pending,
  trigger,
  title,
  description,
  onSubmit,
  canSubmit,
  submitLabel,
  children,
}: {
  /** When the dialog opens (fill the fields afresh). */
  onOpen?: () => void;
  pending: boolean;
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** On submit (the page does not reload): the request, or nothing when the values are not ready. */
  onSubmit: () => Promise<unknown> | undefined;
  /** Whether the submit button is enabled (it is not while the request runs). */
  canSubmit: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit()?.then(
      () => setOpen(false),
      () => undefined,
    );
  }

  return (
    <TitledDialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        if (next) onOpen?.();
        setOpen(next);
      }}
      trigger={trigger}
      title={title}
      description={description}
    >
      <form onSubmit={submit} className="grid gap-4">
        {children}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={pending}>
            {t('formDialog.cancel')}
          </Button>
          <Button type="submit" disabled={!canSubmit || pending}>
            <ButtonIcon pending={pending} />
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </TitledDialog>
  );
}
