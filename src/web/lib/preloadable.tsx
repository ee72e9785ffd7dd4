import { lazy, type ComponentType } from 'react';

/**
 * A lazily loaded module whose components render directly once it has loaded.
 *
 * `React.lazy` suspends at its first render even when its module is already in memory: its
 * promise resolves a microtask later. Inside a page the server rendered (decision 027) that
 * first render is the hydration: the boundary around it stays dehydrated meanwhile, and an
 * update that reaches it then (the first render after hydration, a countdown's tick) makes
 * React drop the server's HTML and show the fallback until the module resolves. On a busy
 * phone that was the waitlist's offer vanishing and coming back (a layout shift of 0.5).
 * Here the module, once loaded (the page preloads it before hydrating), is rendered as is.
 */
export function preloadable<M>(load: () => Promise<M>) {
  let loaded: M | undefined;
  const loadModule = (): Promise<M> =>
    load().then((module) => {
      loaded = module;
      return module;
    });
  function component<P extends object>(pick: (module: M) => ComponentType<P>): ComponentType<P> {
    const Lazy = lazy(() => loadModule().then((module) => ({ default: pick(module) })));
    function Preloadable(props: P) {
      // A module export: one component for the page's life, never one made during render.
      const Loaded = loaded === undefined ? Lazy : pick(loaded);
      return <Loaded {...props} />;
    }
    return Preloadable;
  }
  return { load: loadModule, component };
}
