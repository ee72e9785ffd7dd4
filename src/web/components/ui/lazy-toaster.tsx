import { lazy, Suspense, useEffect, useState } from 'react';
import { whenInteracted } from '../../lib/interaction';
import { useToast } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/**
 * The <Toaster /> (Radix Toast) without its weight in the first download: its chunk is
 * fetched when the person first touches or types, or at once when a toast comes first.
 * `toast()` only writes to a store (use-toast.ts), so a toast raised before the chunk is
 * there is shown as soon as it is.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  useEffect(() => whenInteracted(() => setWanted(true)), []);
  if (!wanted && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
