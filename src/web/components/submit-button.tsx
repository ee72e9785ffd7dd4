import { useEffect, useRef, type ReactNode } from 'react';
import { Button, ButtonIcon } from './ui/button';
import { cn } from '../lib/utils';

interface SubmitButtonProps {
  pending: boolean;
  icon: ReactNode;
  children: ReactNode;
  /** Said to screen readers while the request runs, e.g. 'Accesso in corso...'. */
  pendingLabel: string;
  className?: string;
  /** Disabled for another reason than a running request (e.g. the form is still loading). */
  disabled?: boolean;
}

/**
 * The form's submit button: disabled with a spinner while the request runs. A disabled
 * button loses the focus; if nothing else took it when the request fails, it comes back
 * here, so a keyboard user is not sent back to the top of the page.
 */
export function SubmitButton({ pending, icon, children, pendingLabel, className, disabled = false }: SubmitButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const wasPending = useRef(false);
  useEffect(() => {
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (wasPending.current && !pending && focusLost) ref.current?.focus();
    wasPending.current = pending;
  }, [pending]);

  return (
    <Button ref={ref} type="submit" size="lg" className={cn('w-full', className)} disabled={pending || disabled}>
      <ButtonIcon pending={pending} icon={icon} />
      {children}
      {pending ? <span className="sr-only">{pendingLabel}</span> : null}
    </Button>
  );
}
