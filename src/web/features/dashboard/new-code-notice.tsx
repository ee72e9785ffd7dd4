import { lazy, Suspense, useSyncExternalStore } from 'react';

/**
 * The code a rider closes the lock with after the return (issue 34): raised by the return's
 * dialog, shown by a dialog of the page's own. The return's dialog cannot show it itself: its
 * booking leaves the active list the moment the server says it is returned, and the dialog with it.
 */
let current: string | null = null;
const listeners = new Set<() => void>();

function set(code: string | null): void {
  current = code;
  for (const listener of listeners) listener();
}

/** Shows `Chiudi il lucchetto con il nuovo codice …` until the rider closes it. */
export function showNewCode(code: string): void {
  set(code);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const NewCodeDialog = lazy(() => import('./new-code-dialog').then((m) => ({ default: m.NewCodeDialog })));

/** The page's host of the new code's dialog (the dashboard, the bike's page); its chunk loads only when a code comes. */
export function NewCodeNotice() {
  const code = useSyncExternalStore(subscribe, () => current, () => null);
  if (!code) return null;
  return (
    <Suspense fallback={null}>
      <NewCodeDialog code={code} onClose={() => set(null)} />
    </Suspense>
  );
}
