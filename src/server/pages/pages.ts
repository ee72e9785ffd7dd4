import type { Lingua } from '../../shared/i18n/index.js';
import { DEFAULT_PAGE, ownPageFile } from '../../shared/pages.js';

export { PAGE_ROUTES } from '../../shared/pages.js';

/**
 * The built file of `file` in `lingua` (issue 36): the build writes each page once per language,
 * `login.html` in Italian and `login.en.html` in English (vite.config.ts).
 */
export function inLinguaFile(file: string, lingua: Lingua): string {
  return lingua === 'it' ? file : file.replace(/\.html$/, `.${lingua}.html`);
}

/** The page file for `pathname` (shared/pages.ts); `exists` says which files the build has. */
export function pageFor(pathname: string, exists: (file: string) => boolean): string {
  const page = ownPageFile(pathname);
  return page && exists(page) ? page : DEFAULT_PAGE;
}
