import { useEffect } from 'react';
import { whenInteracted } from '../lib/interaction';
import { prepareClassMerge } from '../lib/utils';

/**
 * `data-started` on #root (styles.css): until it is there, the buttons of a page the server
 * rendered for its user look disabled and take no tap. It is set by the screen itself once
 * React has hydrated it (its effects run only then), not when hydration begins: a tap in
 * between, on a part still waiting for its module, was lost (issue 22's note, 2026-11-26).
 */
export function markStarted(): void {
  document.getElementById('root')?.setAttribute('data-started', '');
  if (prepared) return;
  prepared = true;
  // tailwind-merge's tables, which a page the server rendered did not need to hydrate
  // (lib/utils.ts), for the first class list no render has seen (a dialog, a toast): built at
  // the first touch, click or key, as the toasts and the form's validation are, so that a page
  // only read never builds them (decision 027).
  whenInteracted(prepareClassMerge);
}

let prepared = false;

/** A screen that a page can open on calls this: the page's buttons are live once it has hydrated. */
export function useStarted(): void {
  useEffect(markStarted, []);
}
