import { isValidElement, useState, type MouseEvent, type ReactNode, type RefObject } from 'react';
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
import { useT } from '../lib/i18n';
import { ButtonIcon } from './ui/button';

export interface ConfirmDeleteDialogContentProps {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The button that opened the dialog: the focus goes back to it when it closes. */
  triggerRef: RefObject<HTMLElement | null>;
  title: ReactNode;
  /** A text (a fragment of texts), or an HTML element (a `div` with a list) that stands in the description's place. */
  description: ReactNode;
  onConfirm: () => Promise<unknown>;
  onDeleted?: (() => void) | undefined;
  /** The confirming button's text (default `Elimina`). */
  confirmLabel?: string | undefined;
  confirmVariant?: 'default' | 'destructive' | undefined;
  /** The dismissing button's text (default `Annulla`). */
  cancelLabel?: string | undefined;
}

/** An HTML element given as the description takes the place of its `<p>` (no block inside a paragraph). */
const isBlock = (description: ReactNode) => isValidElement(description) && typeof description.type === 'string';

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
  confirmLabel,
  confirmVariant,
  cancelLabel,
}: ConfirmDeleteDialogContentProps) {
  const t = useT();
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
          <AlertDialogDescription asChild={isBlock(description)}>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel ?? t('components.cancel')}</AlertDialogCancel>
          <AlertDialogAction variant={confirmVariant} onClick={confirm} disabled={pending}>
            <ButtonIcon pending={pending} />
            {confirmLabel ?? t('components.delete')}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
