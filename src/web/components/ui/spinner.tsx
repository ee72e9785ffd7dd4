import type { ComponentProps } from 'react';
import { LoaderCircleIcon } from 'lucide-react';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';

export type SpinnerProps = ComponentProps<'div'> & {
  /** What is loading, for screen readers (and on screen with `showLabel`). */
  label?: string;
  showLabel?: boolean;
  iconClassName?: string;
};

export function Spinner({ label, showLabel = false, className, iconClassName, ...props }: SpinnerProps) {
  const t = useT();
  return (
    <div
      role="status"
      aria-live="polite"
      data-slot="spinner"
      className={cn('inline-flex items-center gap-2 text-muted-foreground', className)}
      {...props}
    >
      <LoaderCircleIcon className={cn('size-5 animate-spin text-primary', iconClassName)} aria-hidden="true" />
      <span className={showLabel ? undefined : 'sr-only'}>{label ?? t('ui.loading')}</span>
    </div>
  );
}

/** Covers the screen while the session is being read. */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      <Spinner label={label} showLabel className="flex-col gap-3 text-base" iconClassName="size-10" />
    </main>
  );
}
