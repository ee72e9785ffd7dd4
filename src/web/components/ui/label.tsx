import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/** A form label (a native <label>: Radix's adds only a double-click guard, and weight to the login screen). */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return (
    <label
      data-slot="label"
      className={cn(
        'flex select-none items-center gap-2 text-sm font-medium leading-none text-foreground',
        'peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
        className,
      )}
      {...props}
    />
  );
}
