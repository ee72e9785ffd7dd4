import type { MessageKey, MessageValues } from '../../shared/i18n';

/**
 * A key whose message needs no values: what a map of labels holds (`Record<X, PlainKey>`), so
 * that `t(map[x])` type-checks without values (issue 36).
 */
export type PlainKey = { [K in MessageKey]: MessageValues[K] extends undefined ? K : never }[MessageKey];
