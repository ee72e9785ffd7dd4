/**
 * Runs in the page (Playwright's `addInitScript`), before its scripts: records in
 * `window.liveAt` (performance.now()) the moment the screen's buttons take taps, i.e. when
 * `#root` gets `data-started`, set once the screen has hydrated (src/web/lib/started.ts).
 * Read by the benches that time an open (opens.ts, lighthouse.ts).
 */
export function recordButtonsLive(): void {
  const w = window as unknown as { liveAt: number | null };
  w.liveAt = null;
  const watch = new MutationObserver(() => {
    if (document.getElementById('root')?.hasAttribute('data-started') !== true) return;
    watch.disconnect();
    w.liveAt = performance.now();
  });
  watch.observe(document, { attributes: true, attributeFilter: ['data-started'], subtree: true });
}

/** In the page: the moment recorded by `recordButtonsLive`, or null before it. */
export const buttonsLiveAt = (): number | null => (window as unknown as { liveAt: number | null }).liveAt;
