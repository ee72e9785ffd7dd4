import { z } from 'zod';

/**
 * Messages for a person, in Italian, where a schema gives none of its own. Zod's Italian
 * locale names the code's types ("atteso object, ricevuto numero"): fine for a developer,
 * not for someone filling a form or for an API answer (behaviour.md §4), so every issue
 * without a schema message gets one of these. A schema's own message always wins.
 */
export const personErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Campo obbligatorio';
      if (issue.expected === 'object' && (issue.path?.length ?? 0) === 0) return 'Dati non validi: invia un oggetto JSON';
      return 'Valore non valido';
    case 'too_big':
      if (issue.origin === 'string') return `Al massimo ${String(issue.maximum)} caratteri`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Al massimo ${String(issue.maximum)} elementi`;
      return 'Valore troppo grande';
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'Campo obbligatorio' : `Almeno ${String(issue.minimum)} caratteri`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Almeno ${String(issue.minimum)} elementi`;
      return 'Valore troppo piccolo';
    case 'invalid_format':
      return 'Formato non valido';
    case 'invalid_value':
      return 'Valore non consentito';
    case 'unrecognized_keys':
      return 'Campi non riconosciuti';
    default:
      return 'Valore non valido';
  }
};

// Default validation messages in Italian, on the server and in the forms alike. In the
// browser `jitless`: zod would otherwise probe `new Function` to compile its parsers, which
// the pages' Content-Security-Policy (script-src 'self', no eval) refuses and Chrome
// reports as an issue. The server keeps the compiled parsers.
z.config({ ...z.locales.it(), customError: personErrorMap, jitless: typeof document !== 'undefined' });

export { z };
