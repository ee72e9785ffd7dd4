import { z } from 'zod';
import { tShared } from './i18n/current.js';

/**
 * Messages for a person, in the reader's language (`tShared`: the request's language on the server,
 * the app's language in the browser), where a
 * schema gives none of its own. Zod's Italian locale names the code's types ("atteso object,
 * ricevuto numero"): fine for a developer, not for someone filling a form or for an API answer
 * (behaviour.md §4), so every issue without a schema message gets one of these. A schema's own message always wins.
 */
export const personErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return tShared('validation.required');
      if (issue.expected === 'object' && (issue.path?.length ?? 0) === 0) return tShared('validation.sendObject');
      return tShared('validation.invalidValue');
    case 'too_big':
      if (issue.origin === 'string') return tShared('validation.maxChars', { max: String(issue.maximum) });
      if (issue.origin === 'array' || issue.origin === 'set') return tShared('validation.maxItems', { max: String(issue.maximum) });
      return tShared('validation.tooBig');
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? tShared('validation.required') : tShared('validation.minChars', { min: String(issue.minimum) });
      if (issue.origin === 'array' || issue.origin === 'set') return tShared('validation.minItems', { min: String(issue.minimum) });
      return tShared('validation.tooSmall');
    case 'invalid_format':
      return tShared('validation.invalidFormat');
    case 'invalid_value':
      return tShared('validation.notAllowed');
    case 'unrecognized_keys':
      return tShared('validation.unknownFields');
    default:
      return tShared('validation.invalidValue');
  }
};

// Default validation messages through `tShared`, on the server and in the forms alike. In the
// browser `jitless`: zod would otherwise probe `new Function` to compile its parsers, which
// the pages' Content-Security-Policy (script-src 'self', no eval) refuses and Chrome
// reports as an issue. The server keeps the compiled parsers.
z.config({ ...z.locales.it(), customError: personErrorMap, jitless: typeof document !== 'undefined' });

export { z };
