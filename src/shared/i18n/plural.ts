/**
 * Plurals without an `Intl` object. Lingui's runtime picks a plural form with `Intl.PluralRules`
 * and writes `#` with `Intl.NumberFormat`; a page's first `Intl` object loads ICU's data (some
 * 25 ms on this machine, four times that on a slow phone), and `/admin` and the dashboard open
 * without one (tests/e2e/server-render.spec.ts). Our two languages' rules are short, so:
 *
 * - scripts/compile-messages.mjs writes every `{n, plural, …}` as selects Lingui resolves by key
 *   alone: on `n~=` for the `=N` cases, then on `n~p` for the forms; a `#` becomes the
 *   value `n~#`;
 * - every instance made with `catalogueI18n` adds those three values next to each number it is
 *   given (`withCounts`), from the rules below.
 *
 * The rules are CLDR's for Italian and English cardinals (catalogue.test.ts holds them to
 * `Intl.PluralRules` and the numbers to `Intl.NumberFormat`, in Node).
 */
import { setupI18n, type I18n } from '@lingui/core';
import type { MessageValue } from './catalogue-types.js';

type Lingua = 'it' | 'en';
export type PluralForm = 'one' | 'many' | 'other';

export const EXACT = '~=';
export const FORM = '~p';
export const TEXT = '~#';

/**
 * CLDR cardinal rules: `one` for 1 (integer), and Italian's `many` for whole millions. The number
 * is first rounded to three decimals, as `Intl.PluralRules` does by default.
 */
export function pluralForm(lingua: Lingua, count: number): PluralForm {
  const n = Math.round(count * 1000) / 1000;
  if (!Number.isInteger(n)) return 'other';
  if (Math.abs(n) === 1) return 'one';
  if (lingua === 'it' && n !== 0 && n % 1_000_000 === 0) return 'many';
  return 'other';
}

/**
 * A number as `Intl.NumberFormat(lingua)` writes it with its defaults: groups of three (English
 * from 1,000, Italian from 10.000), at most three decimals.
 */
export function numberText(lingua: Lingua, n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const rounded = Math.round(Math.abs(n) * 1000) / 1000;
  const [whole = '0', fraction] = String(rounded).split('.');
  const group = lingua === 'it' ? '.' : ',';
  const grouped = whole.length > (lingua === 'it' ? 4 : 3) ? whole.replace(/\B(?=(\d{3})+$)/g, group) : whole;
  const text = fraction ? `${grouped}${lingua === 'it' ? ',' : '.'}${fraction}` : grouped;
  return text === '0' ? '0' : sign + text;
}

/** `values` with, for each number, its exact key, its plural form and its text. */
export function withCounts(values: Readonly<Record<string, unknown>>, lingua: Lingua): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'number') continue;
    out ??= { ...values };
    out[name + EXACT] = String(value);
    out[name + FORM] = pluralForm(lingua, value);
    out[name + TEXT] = numberText(lingua, value);
  }
  return out ?? (values as Record<string, unknown>);
}

/** A Lingui instance whose every translation (`_`, `t`, `<Trans>`) takes its plurals from `withCounts`. */
export function catalogueI18n(config?: Parameters<typeof setupI18n>[0]): I18n {
  const i18n = setupI18n(config);
  const translate = i18n._.bind(i18n);
  const counted = ((id: unknown, values?: Record<string, MessageValue>, options?: unknown) =>
    (translate as (...args: unknown[]) => string)(id, values && withCounts(values, i18n.locale as Lingua), options)) as I18n['_'];
  Object.assign(i18n, { _: counted, t: counted });
  return i18n;
}
