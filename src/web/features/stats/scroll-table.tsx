import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a phone, and so can be reached and scrolled by keyboard: the
 * region is focusable and named (`label`, else the caption); the caption is for screen readers.
 */
export function ScrollTable({ caption, label = caption, children }: { caption: string; label?: string; children: ReactNode }) {
  return (
    <div
      className="mt-3 overflow-x-auto rounded-md border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
