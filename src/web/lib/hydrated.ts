import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React renders the page at build time (the pre-rendered HTML) and while it
 * hydrates that HTML in the browser; true from the render after. A form uses it to keep
 * its submit button disabled until its handlers are attached.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
