import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/**
 * An on/off switch: a native checkbox with role="switch" (announced as on/off, toggled with
 * Space, labelled by its <label>), drawn as a track and a knob. No script to load.
 */
export function Switch({ className, ...props }: Omit<ComponentProps<'input'>, 'type' | 'role'>) {
  return (
    <input
      type="checkbox"
      role="switch"
      data-slot="switch"
      className={cn(
        'relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full border-2 border-transparent bg-input transition-colors',
        "before:absolute before:top-0 before:left-0 before:size-5 before:rounded-full before:bg-white before:shadow before:transition-transform before:content-['']",
        'checked:bg-primary checked:before:translate-x-5',
        // A 44 px touch target around the 24 px track.
        "after:absolute after:-inset-2.5 after:content-['']",
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    />
  );
}
