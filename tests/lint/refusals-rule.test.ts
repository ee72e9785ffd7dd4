import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import refusals from '../../eslint-rules/refusals.js';

// refusals/keys (eslint-rules/refusals.js, decision 051) fails on text written as a refusal or a
// zod message, and passes the same code written with a catalogue key.
function lint(code: string) {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module' },
      plugins: { refusals },
      rules: { 'refusals/keys': 'error' },
    },
  ], { filename: 'src/server/modules/bookings/service.ts' });
  return messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('refusals/keys', () => {
  it('refuses a string in AppError and in each of its helpers', () => {
    const bad = [
      "throw new AppError(409, 'Bici occupata', 'BUSY');",
      "throw conflict('Bici occupata');",
      'throw badRequest(`Data ${d} passata`);',
      "throw forbidden('No');",
      "throw notFound(cond ? 'Prenotazione non trovata' : other);",
    ];
    for (const code of bad) expect(lint(code), code).toHaveLength(1);
  });

  it('refuses a string as a zod message, in each way zod takes one', () => {
    const bad = [
      "z.string().min(1, 'obbligatorio');",
      "z.string('obbligatorio');",
      "z.object({}, 'manca');",
      "z.string().refine((v) => v !== '', 'vuoto');",
      "z.string().regex(/x/, { message: 'formato' });",
      "z.enum(['a', 'b'], { error: 'scegli' });",
      "z.email({ error: `email` });",
      "ctx.addIssue({ code: 'custom', message: 'fuori intervallo' });",
    ];
    for (const code of bad) expect(lint(code), code).toHaveLength(1);
  });

  it('passes the same code written with catalogue keys, and strings that are not messages', () => {
    const good = [
      "throw new AppError(409, testo('bookingsApi.bikeUnavailable'), 'BUSY');",
      "throw conflict(testo('bookingsApi.pickupFrom', { ora: '10:30' }), 'TOO_EARLY');",
      "throw notFound();",
      "z.string().min(1, msg('validation.required'));",
      "z.string(msg('schemas.codeRequired')).startsWith('sk_', msg('schemas.codeFormat'));",
      "z.enum(['a', 'b'], msg('validation.notAllowed'));",
      "z.object({ a: z.literal('x') });",
      "ctx.addIssue({ code: 'custom', message: tShared('residentsImport.yearInvalid') });",
      "text.includes('x'); label.startsWith('Bici');",
    ];
    for (const code of good) expect(lint(code), code).toEqual([]);
  });
});
