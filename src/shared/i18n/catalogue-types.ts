import type { CompiledMessage } from '@lingui/message-utils/compileMessage';

/** A value a message puts in its text: counted values (plurals) are numbers. */
export type MessageValue = string | number;

/** One domain of the catalogue in one language, as scripts/compile-messages.mjs writes it. */
export type CompiledCatalogue = Record<string, CompiledMessage>;
