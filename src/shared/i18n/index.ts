/**
 * The two languages (issue 36, docs/decisions/049-two-languages.md): the keys of the message
 * catalogue, a text not yet put into a language (`Testo`), the choice of a language from what a
 * request or a browser says, and a translator over Lingui's runtime. Shared by the server and
 * the web app; which catalogues are loaded is theirs to say (server: `i18n/all.ts`; browser:
 * `web/lib/i18n.ts`, one domain at a time).
 */
import type { I18n } from '@lingui/core';
import type { MessageValue } from './catalogue-types.js';
import type { DOMAINS, MessageValues } from './compiled/keys.js';

export type { MessageValue } from './catalogue-types.js';
export type { MessageValues } from './compiled/keys.js';

export const LINGUE = ['it', 'en'] as const;
export type Lingua = (typeof LINGUE)[number];
/** Italian is the college's language and the default (`APP_LANG`). */
export const LINGUA_PREDEFINITA: Lingua = 'it';
/** The cookie the `IT | EN` switch of the anonymous pages writes; it wins over Accept-Language. */
export const LINGUA_COOKIE = 'lingua';
/** A year: the choice outlives sessions. */
export const LINGUA_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
/**
 * The catalogue's domains and their parts (`admin-biciclette`: a folder of its domain's messages,
 * decision 061): the browser loads `common` with the app and the others with their screens and tabs.
 */
export { DOMAINS } from './compiled/keys.js';
export type Domain = (typeof DOMAINS)[number];

export type MessageKey = keyof MessageValues;
/** The values `key` needs: none, or an object naming each of its placeholders. */
export type ValuesOf<K extends MessageKey> = MessageValues[K] extends undefined ? [values?: undefined] : [values: MessageValues[K]];

export const isLingua = (value: unknown): value is Lingua => value === 'it' || value === 'en';

/**
 * A text for a person, not yet in a language: the server's refusals are made of these (the
 * request's language is chosen when the answer is written), and so are the notices sent later.
 */
export interface Testo {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, MessageValue>>;
}

export function testo<K extends MessageKey>(key: K, ...values: ValuesOf<K>): Testo {
  return values[0] === undefined ? { key } : { key, values: values[0] as Record<string, MessageValue> };
}

/** Puts a key and its values into the language of `i18n`. */
export type Translate = <K extends MessageKey>(key: K, ...values: ValuesOf<K>) => string;

export function translator(i18n: I18n): Translate {
  return (key, ...values) => i18n._(key, values[0] as Record<string, unknown> | undefined);
}

/** A `Testo` in the language of `t`. */
export const render = (t: Translate, text: Testo): string =>
  (t as (key: MessageKey, values?: Readonly<Record<string, MessageValue>>) => string)(text.key, text.values);

/**
 * The language of a first visit: a first preference that starts with `en` gives English, anything
 * else Italian (issue 36). `Accept-Language` lists preferences best first unless weighted: the
 * highest `q` wins, the first of equals.
 */
export function linguaFromAcceptLanguage(header: string | undefined | null): Lingua {
  if (!header) return LINGUA_PREDEFINITA;
  let best: { tag: string; q: number } | undefined;
  for (const part of header.split(',')) {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag?.trim().toLowerCase();
    if (!tag) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { tag, q };
  }
  return best && (best.tag === 'en' || best.tag.startsWith('en-')) ? 'en' : LINGUA_PREDEFINITA;
}

/** The value of the `lingua` cookie in a Cookie header, when it names a language. */
export function linguaFromCookieHeader(header: string | undefined | null): Lingua | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LINGUA_COOKIE && isLingua(value)) return value;
  }
  return undefined;
}

/** BCP 47 tag of a language, for `Intl` and `<html lang>`'s neighbours (British English: 24-hour clock, day first). */
export const LOCALE_TAG: Record<Lingua, string> = { it: 'it-IT', en: 'en-GB' };
