/**
 * The web app's language (issue 36, docs/decisions/049-two-languages.md). One Lingui instance;
 * the catalogue comes one domain at a time, compiled, in the page's language only: `common`
 * before the first render (boot/main.tsx), each screen's domain with its chunk (screens.tsx).
 * The page's language is the one its HTML was made in (`<html lang>`: the server chose it from
 * the account, the `lingua` cookie or Accept-Language). Switching loads the same domains in the
 * other language and re-renders what reads them: no reload.
 *
 * In a render, read texts through `useT()` (or `<Trans>` for a sentence holding elements): they
 * follow a switch. `t` is for code outside a render (a toast shown after an answer).
 */
import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
import {
  isLingua,
  LINGUA_COOKIE,
  LINGUA_COOKIE_MAX_AGE_S,
  LINGUA_PREDEFINITA,
  translator,
  type Domain,
  type Lingua,
  type Translate,
} from '../../shared/i18n';
import { loaders } from '../../shared/i18n/compiled/loaders';
import { setSharedTranslator } from '../../shared/i18n/current';
import { catalogueI18n } from '../../shared/i18n/plural';

export { Trans } from '@lingui/react';
export type { Lingua, Domain, Translate } from '../../shared/i18n';

// One loader per domain and language (generated with the catalogue): each a chunk of its own.
const compiled = loaders;

export const i18n: I18n = catalogueI18n();

const loaded = new Map<string, Promise<void>>();

function pageLingua(): Lingua {
  if (typeof document === 'undefined') return LINGUA_PREDEFINITA;
  const lang = document.documentElement.lang;
  return isLingua(lang) ? lang : LINGUA_PREDEFINITA;
}

let active: Lingua = pageLingua();
const domainsInUse = new Set<Domain>(['common']);

function load(domain: Domain, lingua: Lingua): Promise<void> {
  const name = `${domain}.${lingua}`;
  let promise = loaded.get(name);
  if (!promise) {
    const loader = compiled[name];
    if (!loader) return Promise.reject(new Error(`Catalogo ${name} mancante`));
    promise = loader().then((m) => i18n.load(lingua, m.messages));
    // A chunk that failed (offline) may be asked for again.
    promise.catch(() => loaded.delete(name));
    loaded.set(name, promise);
  }
  return promise;
}

/** Loads `domains` in the page's language (and activates it the first time). Settles once they are in. */
export async function loadDomains(...domains: Domain[]): Promise<void> {
  for (const domain of domains) domainsInUse.add(domain);
  const lingua = active;
  await Promise.all(domains.map((domain) => load(domain, lingua)));
  if (i18n.locale !== lingua && active === lingua) i18n.activate(lingua);
}

/**
 * A chunk and its texts in the page's language, together: a screen's (screens.tsx), an /admin
 * tab's (its part of the catalogue, decision 061). Written `withTexts(import('…'), 'domain', …)`,
 * literally: the catalogue's test reads these calls to check that the modules a chunk brings
 * read only the keys of the domains loaded with it (shared/i18n/readers.ts).
 */
export const withTexts = <T>(chunk: Promise<T>, ...domains: Domain[]): Promise<T> =>
  Promise.all([chunk, loadDomains(...domains)]).then(([loaded]) => loaded);

/** The app's language now. */
export const currentLingua = (): Lingua => active;

/** Outside a render: a key in the app's language now. */
export const t: Translate = translator(i18n);
// The zod schemas' messages in the forms follow the app's language (shared/i18n/current.ts).
setSharedTranslator(t);

/** In a render: a translator into the app's language, which changes (and re-renders) on a switch. */
export function useT(): Translate {
  const { i18n: instance } = useLingui();
  const locale = instance.locale;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new translator per language, so memoised children follow a switch.
  return useMemo(() => translator(instance), [instance, locale]);
}

/** In a render: the app's language now. */
export function useLingua(): Lingua {
  const { i18n: instance } = useLingui();
  return isLingua(instance.locale) ? instance.locale : LINGUA_PREDEFINITA;
}

/**
 * Switches the app to `lingua`: the domains in use are loaded in it, then every text follows.
 * `remember` writes the `lingua` cookie (the anonymous pages' switch; a logged-in user's choice
 * is stored on the account by the profile, and the server writes the cookie from it).
 */
export async function switchLingua(lingua: Lingua, { remember = true }: { remember?: boolean } = {}): Promise<void> {
  if (remember) rememberLingua(lingua);
  active = lingua;
  await Promise.all([...domainsInUse].map((domain) => load(domain, lingua)));
  if (active !== lingua) return;
  i18n.activate(lingua);
  document.documentElement.lang = lingua;
}

export function rememberLingua(lingua: Lingua): void {
  document.cookie = `${LINGUA_COOKIE}=${lingua}; Path=/; Max-Age=${LINGUA_COOKIE_MAX_AGE_S}; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
}

/** Every domain in both languages: for a render outside the browser (the build's pre-render, the server's pages). */
export async function loadEveryLingua(): Promise<void> {
  const names = Object.keys(compiled).map((name) => name.split('.') as [Domain, Lingua]);
  await Promise.all(names.map(([domain, lingua]) => load(domain, lingua)));
}

/**
 * Outside the browser, before a synchronous render: the app's texts in `lingua` (every domain
 * loaded by `loadEveryLingua`). No other render runs until it returns.
 */
export function renderingIn(lingua: Lingua): void {
  active = lingua;
  i18n.activate(lingua);
}
