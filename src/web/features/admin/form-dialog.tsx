import type { FormEvent, ReactElement, ReactNode } from 'react';
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

/**
 * A form in a dialog opened by its button (a bike's state, a new bike, a user): `Annulla` and
 * the submit button under the fields. While the request runs the dialog cannot be dismissed
 * and its buttons are busy.
 */
export function FormDialog({
  open,
  onOpenChange,
  pending,
  trigger,
  title,
  description,
  onSubmit,
  canSubmit,
  submitLabel,
  children,
}: {
  open: boolean;
  /** Called only while no request runs. */
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** On submit (the page does not reload); it checks what it needs. */
  onSubmit: () => void;
  /** Whether the submit button is enabled (it is not while the request runs). */
  canSubmit: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4">
          {children}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Annulla
            </Button>
            <Button type="submit" disabled={!canSubmit || pending}>
              <ButtonIcon pending={pending} />
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
