import type { Page } from '@playwright/test';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import { compiledCatalogue } from '../../src/shared/i18n/all.js';
import type { Lingua } from '../../src/shared/i18n/index.js';
import { expect } from './fixtures';

/** The literal pieces of a compiled message (its text between placeholders, in every branch). */
function pieces(message: CompiledMessage, into: string[] = []): string[] {
  let current = '';
  for (const token of message) {
    if (typeof token === 'string') {
      current += token;
      continue;
    }
    into.push(current);
    current = '';
    const format = token[2];
    if (format && typeof format === 'object' && !Array.isArray(format)) {
      for (const [key, branch] of Object.entries(format)) if (key !== 'offset' && Array.isArray(branch)) pieces(branch as CompiledMessage, into);
    }
  }
  into.push(current);
  return into;
}

/** Tags of rich text (`<0>`, `</0>`) split a piece too. */
const fragmentsOf = (message: CompiledMessage) =>
  pieces(message)
    .flatMap((p) => p.split(/<\/?\d+\/?>/))
    .map((p) => p.trim())
    .filter(Boolean);

/**
 * The texts of one language that the other never writes: the fragments of the catalogue's
 * messages in `lingua`, at least `min` characters long with a letter in them, that appear in no
 * message of the other language (so `BiciElis`, `Email` or `404 Page Not Found` are not in it).
 */
export function knownTexts(lingua: Lingua, min = 4): string[] {
  const other = Object.values(compiledCatalogue(lingua === 'it' ? 'en' : 'it'))
    .flatMap(fragmentsOf)
    .join('\n');
  const own = new Set(Object.values(compiledCatalogue(lingua)).flatMap(fragmentsOf));
  return [...own].filter((text) => text.length >= min && /\p{L}{3}/u.test(text) && !other.includes(text)).sort((a, b) => b.length - a.length);
}

/**
 * Everything a person reads on the page now, or hears from a screen reader: the visible text
 * nodes, and the accessible names and hints given in attributes (aria-label, title,
 * placeholder, alt), of elements that are rendered.
 */
export async function readableTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const shown = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) {
        const style = getComputedStyle(e);
        // What is on screen counts, hidden from screen readers or not (a dialog's background is
        // still read by the eye); what is visually hidden but heard (sr-only) counts too.
        if (style.display === 'none' || style.visibility === 'hidden') return false;
      }
      return true;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(parent.tagName)) continue;
      if (shown(parent)) out.push(text);
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], img[alt], [aria-description]')) {
      if (!shown(el)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = el.getAttribute(name)?.trim();
        if (value) out.push(value);
      }
    }
    out.push(document.title);
    return out;
  });
}

/** Words only Italian has, frequent in the app's sentences: a text that holds one is Italian even if the catalogue does not know it. */
const ITALIAN_WORDS =
  /(?:^|[\s(«"'’])(della|delle|degli|dello|nella|nelle|sulla|alla|alle|dalla|questa|questo|sono|puoi|nessuna|nessun|prenotazione|prenotazioni|prenota|bicicletta|biciclette|riconsegna|ritiro|accedi|annulla|conferma|salva|elimina|chiudi|aggiorna|oggi|domani|attesa|orario|giorno|utente|utenti|modifica|cerca|scegli|inserisci|indietro|caricamento|errore)(?=$|[\s.,:;!?)»"'])/iu;

/**
 * Fails when the page shows a text of the other language: a fragment the catalogue gives only
 * in it, or (in English) a text holding a word only Italian has. `allowed`: texts shown as
 * written (what an admin or a person wrote: a closure's reason, a bike's model, a name).
 */
export async function expectOnlyLanguage(page: Page, lingua: Lingua, where: string, allowed: RegExp[] = []): Promise<void> {
  const foreign = knownTexts(lingua === 'it' ? 'en' : 'it');
  const texts = (await readableTexts(page)).filter((text) => !allowed.some((re) => re.test(text)));
  const found = new Set<string>();
  for (const text of texts) {
    // A long fragment anywhere in a text; a short one (a word: `Chiusura`) only as the whole text, so a name
    // or a reason someone wrote that holds the word is not taken for the app's own.
    const hit = foreign.find((fragment) => (fragment.length >= 14 ? text.includes(fragment) : text === fragment));
    if (hit) found.add(`"${text}" (catalogo: "${hit}")`);
    else if (lingua === 'en' && ITALIAN_WORDS.test(text)) found.add(`"${text}"`);
  }
  expect([...found], `${where}: testi nell'altra lingua (${lingua === 'en' ? 'italiano' : 'inglese'})`).toEqual([]);
}
