import { Suspense, useRef, useState, type ReactNode } from 'react';
import { prefetchOnIntent } from './interaction';

/**
 * A button that opens a dialog whose code (Radix's dialog, its form) is loaded on demand
 * (decision 027): `load` starts when the button is pointed at, focused or touched; the dialog
 * is mounted at the first click and kept mounted, so Radix can animate its closing and give
 * the focus back to `triggerRef`.
 *
 * Spread `triggerProps` on the button, and render the dialog inside `<OnDemand when={mounted}>`
 * with `open`, `setOpen` and `triggerRef`.
 */
export function useDialogOnDemand<T extends HTMLElement = HTMLButtonElement>(load: () => Promise<unknown>) {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<T>(null);
  const triggerProps = {
    ref: triggerRef,
    'aria-haspopup': 'dialog' as const,
    'aria-expanded': open,
    ...prefetchOnIntent(load),
    onClick: () => {
      setMounted(true);
      setOpen(true);
    },
  };
  return { open, setOpen, mounted, triggerRef, triggerProps };
}

/**
 * The dialog once asked for (`when`), nothing before; while its chunk arrives, `fallback`
 * (nothing, unless the dialog has a first screen of its own to show: `Riconsegnata`'s, decision 067).
 */
export function OnDemand({ when, fallback = null, children }: { when: boolean; fallback?: ReactNode; children: ReactNode }) {
  return when ? <Suspense fallback={fallback}>{children}</Suspense> : null;
}
