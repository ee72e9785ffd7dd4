import { useState, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './ui/alert-dialog';
import { ButtonIcon } from './ui/button';

interface ConfirmDeleteDialogProps {
  /** The button that opens the dialog (rendered as the trigger, `asChild`). */
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** The deletion; its failure is told by the caller (a toast), the dialog just closes. */
  onConfirm: () => Promise<unknown>;
  /** After a successful deletion (e.g. move the focus somewhere that still exists). */
  onDeleted?: () => void;
}

/**
 * A deletion asked for twice: the dialog stays open, its button busy, until the server
 * answers, and cannot be dismissed meanwhile; then it closes whatever the outcome.
 */
export function ConfirmDeleteDialog({ trigger, title, description, onConfirm, onDeleted }: ConfirmDeleteDialogProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  function confirm(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    setPending(true);
    onConfirm().then(
      () => {
        setPending(false);
        setOpen(false);
        onDeleted?.();
      },
      () => {
        setPending(false);
        setOpen(false);
      },
    );
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Annulla</AlertDialogCancel>
          <AlertDialogAction onClick={confirm} disabled={pending}>
            <ButtonIcon pending={pending} />
            Elimina
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
