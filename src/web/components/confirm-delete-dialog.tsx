import { Trash2Icon } from 'lucide-react';
import { cloneElement, lazy, type ReactElement, type ReactNode } from 'react';
import { OnDemand, useDialogOnDemand } from '../lib/dialog-on-demand';
import { useT } from '../lib/i18n';
import { cn } from '../lib/utils';
import { Button, type ButtonProps } from './ui/button';

const loadContent = () => import('./confirm-delete-dialog-content');
const ConfirmDeleteDialogContent = lazy(() => loadContent().then((m) => ({ default: m.ConfirmDeleteDialogContent })));

interface ConfirmDeleteDialogProps {
  /** The button that opens the dialog (given the click, the ARIA state and a ref). */
  trigger: ReactElement<TriggerProps>;
  title: ReactNode;
  description: ReactNode;
  /** The deletion; its failure is told by the caller (a toast), the dialog just closes. */
  onConfirm: () => Promise<unknown>;
  /** After a successful deletion (e.g. move the focus somewhere that still exists). */
  onDeleted?: () => void;
  /** The confirming button's text (default `Elimina`): `Revoca`, `Rilascia`… */
  confirmLabel?: string;
  /** The confirming button's look: `destructive` (default), or `default` for what deletes nothing (an import). */
  confirmVariant?: 'default' | 'destructive';
  /** The dismissing button's text (default `Annulla`; `Indietro` when the action itself is an `Annulla`). */
  cancelLabel?: string;
}

interface TriggerProps {
  ref?: unknown;
  onClick?: unknown;
  onPointerEnter?: unknown;
  onFocus?: unknown;
  onTouchStart?: unknown;
  'aria-haspopup'?: unknown;
  'aria-expanded'?: unknown;
}

/**
 * A deletion asked for twice: the dialog stays open, its button busy, until the server
 * answers, and cannot be dismissed meanwhile; then it closes whatever the outcome.
 * The dialog (Radix, ~22 KB gzip with its helpers) downloads when the button is pointed at,
 * focused or touched, so a screen that lists deletable things does not pay for it up front.
 */
export function ConfirmDeleteDialog({ trigger, title, description, onConfirm, onDeleted, confirmLabel, confirmVariant, cancelLabel }: ConfirmDeleteDialogProps) {
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand<HTMLElement>(loadContent);

  return (
    <>
      {cloneElement(trigger, triggerProps)}
      <OnDemand when={mounted}>
        <ConfirmDeleteDialogContent
          open={open}
          setOpen={setOpen}
          triggerRef={triggerRef}
          title={title}
          description={description}
          onConfirm={onConfirm}
          onDeleted={onDeleted}
          confirmLabel={confirmLabel}
          confirmVariant={confirmVariant}
          cancelLabel={cancelLabel}
        />
      </OnDemand>
    </>
  );
}

/** The `Elimina` button that opens a deletion's dialog (its `aria-label` names what it deletes). */
export function DeleteButton({ className, ...props }: Omit<ButtonProps, 'children' | 'variant' | 'size'>) {
  const t = useT();
  return (
    <Button variant="outline" size="sm" className={cn('text-destructive hover:text-destructive', className)} {...props}>
      <Trash2Icon aria-hidden="true" />
      {t('components.delete')}
    </Button>
  );
}
