import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '../../lib/idle';
import { useToast } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

/**
 * The <Toaster /> (Radix Toast) without its weight in the first download: its chunk is
 * fetched once the first screen is painted and idle, or at once when a toast comes first.
 * `toast()` only writes to a store (use-toast.ts), so a toast raised before the chunk is
 * there is shown as soon as it is.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  useEffect(() => whenIdle(() => setWanted(true)), []);
  if (!wanted && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
