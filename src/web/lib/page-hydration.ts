import { useEffect } from 'react';
/*
 * When a server-rendered page is hydrated through and through. React hydrates each Suspense
 * boundary of the page after the one around it (at a low priority, once the page is
 * interactive), and a component hydrating must read the very data it was rendered with: the
 * answers of a refresh (boot/device-copy.ts) go into the query cache only after this. The
 * screen says it has hydrated and which parts it waits for (`screenHydrated`), each part when
 * it has (`partHydrated`).
 */
const hydratedParts = new Set<string>();
let awaitedParts: readonly string[] | undefined;
let pageHydrated!: () => void;
const hydrated = new Promise<void>((resolve) => {
  pageHydrated = resolve;
});

function checkHydrated(): void {
  if (awaitedParts?.every((part) => hydratedParts.has(part))) pageHydrated();
}

/** The screen's own boundary has hydrated; `parts`: the boundaries within it that it rendered. */
export function screenHydrated(parts: readonly string[]): void {
  awaitedParts = parts;
  checkHydrated();
}

/** A boundary within the screen has hydrated. */
export function partHydrated(part: string): void {
  hydratedParts.add(part);
  checkHydrated();
}

/** Resolves once the screen and the parts it named have hydrated. */
export const whenPageHydrated = (): Promise<void> => hydrated;

/**
 * Renders nothing; says when the Suspense boundary it is in has hydrated: a page refreshed
 * behind its device copy waits for it before it changes any data.
 */
export function HydrationMark({ part }: { part: string }): null {
  useEffect(() => partHydrated(part), [part]);
  return null;
}
