import type { Translate } from './index.js';

/**
 * The translator of code shared by the server and the browser that runs without knowing its
 * reader (the zod schemas' messages, `shared/zod-it.ts`): the browser sets its own (the app's
 * language, web/lib/i18n.ts); the server sets the language of the request being validated
 * (http/errors.ts, decision 051), Italian outside a request. Before either: the key.
 */
let current: Translate | undefined;

export function setSharedTranslator(t: Translate): void {
  current = t;
}

export const tShared: Translate = (key, ...values) => (current ? current(key, ...values) : key);
