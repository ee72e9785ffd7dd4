import { useEffect, useState } from 'react';
import { useRenderTime } from '../../lib/render-clock';

/**
 * The current time, read again when `at` (ms) passes: a button that becomes usable at a given
 * instant, a card that comes first once its pick-up window opens (issue 51). While a
 * server-rendered page hydrates, the server's instant (lib/render-clock.ts), so the button, its
 * hint and the page's order are what the server wrote; the browser's clock from the render after.
 */
export function useNowPassing(at: number | null): Date {
  const renderTime = useRenderTime();
  const [readAt, setReadAt] = useState<number | null>(null);
  const now = readAt ?? renderTime;
  useEffect(() => {
    if (at === null || now >= at) return;
    // setTimeout takes at most ~24.8 days; a later instant is simply looked at again then.
    const timer = setTimeout(() => setReadAt(Date.now()), Math.min(Math.max(0, at - Date.now()) + 250, 2_147_483_647));
    return () => clearTimeout(timer);
  }, [at, now]);
  return new Date(now);
}
