/**
 * Runs `task` once, at the first sign that a person is using the page (a touch, a click, a
 * key, a field taking the focus), or after `timeoutMs` if given. For what the first screen
 * does not need until then: the form's validation, the toasts. Nothing of it runs while
 * the page is only being loaded and painted.
 */
export function whenInteracted(task: () => void, timeoutMs?: number): () => void {
  if (typeof window === 'undefined') return () => {};
  const events = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;
  let done = false;
  const timer = timeoutMs === undefined ? undefined : setTimeout(run, timeoutMs);
  function stop() {
    for (const type of events) window.removeEventListener(type, run, true);
    if (timer !== undefined) clearTimeout(timer);
  }
  function run() {
    if (done) return;
    done = true;
    stop();
    task();
  }
  for (const type of events) window.addEventListener(type, run, { capture: true, passive: true });
  return () => {
    done = true;
    stop();
  };
}

/**
 * Props for an element that leads to code loaded on demand: `load` starts when the pointer
 * comes over it, it takes the focus or a finger touches it — before the click, so the chunk
 * is usually there when it is needed. `load` must be safe to call many times (an `import()`).
 */
export function prefetchOnIntent(load: () => Promise<unknown>) {
  const start = () => void load();
  return { onPointerEnter: start, onFocus: start, onTouchStart: start };
}
