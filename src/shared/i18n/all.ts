/**
 * Every domain of the catalogue in both languages, loaded at once: for the server (answers,
 * emails, notices, the PDF, the pages it renders), the build's pre-render and the tests. The
 * browser never imports this file: it loads one domain at a time (web/lib/i18n.ts).
 */
import type { I18n } from '@lingui/core';
import { LINGUE, translator, render, type Lingua, type Testo, type Translate } from './index.js';
import type { CompiledCatalogue } from './catalogue-types.js';
import { catalogueI18n } from './plural.js';
import * as catalogues from './compiled/catalogues.js';

const byLingua: Record<Lingua, CompiledCatalogue> = { it: {}, en: {} };
for (const [name, module] of Object.entries(catalogues)) {
  const lingua = name.endsWith('_en') ? 'en' : 'it';
  Object.assign(byLingua[lingua], module);
}

const instances = Object.fromEntries(
  LINGUE.map((lingua) => [lingua, catalogueI18n({ locale: lingua, messages: { [lingua]: byLingua[lingua] } })]),
) as Record<Lingua, I18n>;
const translators = Object.fromEntries(LINGUE.map((lingua) => [lingua, translator(instances[lingua])])) as Record<Lingua, Translate>;

/** A translator into `lingua`, every domain loaded. */
export const tFor = (lingua: Lingua): Translate => translators[lingua];

/** A Lingui instance in `lingua` with every domain, for a render that needs one (the server's pages). */
export const i18nFor = (lingua: Lingua): I18n => instances[lingua];

/** A `Testo` in `lingua`. */
export const inLingua = (lingua: Lingua, text: Testo): string => render(translators[lingua], text);

/** Every key of the catalogue in `lingua`, compiled: for the catalogue's tests. */
export const compiledCatalogue = (lingua: Lingua): Readonly<CompiledCatalogue> => byLingua[lingua];
