import { tShared } from '../i18n/current.js';
import type { MessageKey, MessageValues, ValuesOf } from '../i18n/index.js';

/**
 * A schema's message for a person (issue 36), put into words when zod reports the issue, never
 * when the module loads: `tShared` gives the request's language on the server and the app's
 * language in the browser. It fits every zod 4 method's
 * params: `z.string(msg('schemas.x'))`, `.min(1, msg('schemas.x'))`, `.refine(check, msg('schemas.x'))`,
 * `.refine(check, { ...msg('schemas.x'), path: ['al'] })`.
 */
export const msg = <K extends MessageKey>(key: K, ...values: ValuesOf<K>) => ({ error: () => tShared(key, ...values) });

/** A key whose message needs no values: what the schemas' helpers (`idParam`, …) take. */
export type PlainKey = { [K in MessageKey]: MessageValues[K] extends undefined ? K : never }[MessageKey];
