import { useState } from 'react';
import { useHydrated } from './hydrated';

/**
 * The instant a server-rendered page was rendered at (issue 22, decision 027), for what a
 * screen computes from the clock: a countdown, `Potrai ritirarla dalle …`. The server renders
 * with its `now` and sends it with the page; the browser hydrates with that same instant, so
 * both write the same HTML, and reads its own clock from the render right after.
 */
let renderedAt: number | null = null;

/** Set by the server around each render, and by the browser before it hydrates such a page. */
export function setRenderedAt(ms: number | null): void {
  renderedAt = ms;
}

/**
 * The time (ms) a component computes from when it renders: the server's instant while a
 * server-rendered page is rendered or hydrated, else the moment the component mounted. After
 * hydration React renders again (`useHydrated` turns true) and the text follows the browser's
 * clock; a component that moves with the time keeps its own later readings on top.
 */
export function useRenderTime(): number {
  const hydrated = useHydrated();
  const [mountedAt] = useState(Date.now);
  return !hydrated && renderedAt !== null ? renderedAt : mountedAt;
}
