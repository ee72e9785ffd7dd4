import { createContext, useContext } from 'react';

/**
 * What a screen may ask of the app's registry of screens (screens.tsx) without importing it:
 * the registry lazily imports every screen, so a screen importing it back would close a cycle
 * (issue 31). The app passes it down (app.tsx); the login screens use it to start downloading
 * the next screen's chunk while the person waits.
 */
export interface ScreenRegistry {
  /** Starts fetching the chunk of the screen shown at `path`; settles once it has arrived. */
  preload(path: string): Promise<unknown>;
}

export const ScreenRegistryContext = createContext<ScreenRegistry | null>(null);

/** The registry the app provides (app.tsx). */
export function useScreenRegistry(): ScreenRegistry {
  const registry = useContext(ScreenRegistryContext);
  if (!registry) throw new Error('ScreenRegistryContext mancante: la schermata va resa dentro <App />');
  return registry;
}
