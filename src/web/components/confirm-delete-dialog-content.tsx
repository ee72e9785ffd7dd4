import { useState, type MouseEvent, type ReactNode, type RefObject } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog';
import { ButtonIcon } from './ui/button';

export interface ConfirmDeleteDialogContentProps {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The button that opened the dialog: the focus goes back to it when it closes. */
  triggerRef: RefObject<HTMLElement | null>;
  title: ReactNode;
  description: ReactNode;
  onConfirm: () => Promise<unknown>;
  onDeleted?: (() => void) | undefined;
  /** The confirming button's text (default `Elimina`). */
  confirmLabel?: string | undefined;
  /** The dismissing button's text (default `Annulla`). */
  cancelLabel?: string | undefined;
}

/**
 * The Radix dialog of `ConfirmDeleteDialog` (confirm-delete-dialog.tsx), in a chunk of its
 * own with Radix: loaded when a deletion is about to be asked for.
 */
export function ConfirmDeleteDialogContent({
  open,
  setOpen,
  triggerRef,
  title,
  description,
  onConfirm,
  onDeleted,
  confirmLabel = 'Elimina',
  cancelLabel = 'Annulla',
}: ConfirmDeleteDialogContentProps) {
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
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          // Radix would focus its own trigger; this one is ours. A deleted item's button is
          // gone: `onDeleted` has moved the focus already.
          event.preventDefault();
          if (triggerRef.current?.isConnected) triggerRef.current.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction onClick={confirm} disabled={pending}>
            <ButtonIcon pending={pending} />
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
