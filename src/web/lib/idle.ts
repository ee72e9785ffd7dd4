/**
 * Runs `task` once the browser has nothing more urgent to do (after the first paint and the
 * hydration), or after `timeoutMs` at the latest. For work the first screen does not need:
 * fetching the chunks of what comes next.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof window === 'undefined') return () => {};
  if ('requestIdleCallback' in window) {
    const handle = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}
