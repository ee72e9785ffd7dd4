import { z } from 'zod';

// Default validation messages in Italian, on the server and in the forms alike. In the
// browser `jitless`: zod would otherwise probe `new Function` to compile its parsers, which
// the pages' Content-Security-Policy (script-src 'self', no eval) refuses and Chrome
// reports as an issue. The server keeps the compiled parsers.
z.config({ ...z.locales.it(), jitless: typeof document !== 'undefined' });

export { z };
