import { afterEach, describe, expect, it } from 'vitest';
import { tFor } from '../i18n/all.js';
import { setSharedTranslator } from '../i18n/current.js';
import { loginSchema } from './auth.js';
import { bookingRequestSchema } from './booking.js';
import { closureRequestSchema } from './rules.js';

/** The first message of each field. */
function messages(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.') || '_'] ??= issue.message;
  return out;
}

const window = { dataPrenotazione: '2026-12-12', orarioInizio: '10:00', orarioFine: '09:00', biciId: 1 };

describe("the schemas' messages, in the language of their reader (issue 36)", () => {
  afterEach(() => setSharedTranslator(tFor('it')));

  it('are Italian as they always were', () => {
    setSharedTranslator(tFor('it'));
    expect(messages(loginSchema.safeParse({ email: '', password: 'x'.repeat(200) }))).toEqual({
      email: 'Inserisci email e password',
      password: 'La password può avere al massimo 128 caratteri',
    });
    expect(messages(bookingRequestSchema.safeParse({ ...window, destinazione: 'x'.repeat(201) }))).toEqual({
      destinazione: 'La destinazione può avere al massimo 200 caratteri',
      orarioFine: "L'orario di fine deve essere successivo all'orario di inizio",
    });
    expect(messages(closureRequestSchema.safeParse({ dal: '2026-12-10', al: '2026-12-09', motivo: 'Ponte' }))).toEqual({
      al: "L'ultimo giorno non può precedere il primo",
    });
    expect(messages(loginSchema.safeParse(null))).toEqual({ _: 'Dati non validi: invia un oggetto JSON' });
  });

  it('follow a switch to English, chosen when the issue is reported', () => {
    setSharedTranslator(tFor('en'));
    expect(messages(loginSchema.safeParse({ email: '', password: 'x'.repeat(200) }))).toEqual({
      email: 'Enter your email and password',
      password: 'The password can be at most 128 characters long',
    });
    expect(messages(bookingRequestSchema.safeParse({ ...window, destinazione: 'x'.repeat(201) }))).toEqual({
      destinazione: 'The destination can be at most 200 characters long',
      orarioFine: 'The end time must be after the start time',
    });
    expect(messages(closureRequestSchema.safeParse({ dal: '2026-12-10', al: '2026-12-09', motivo: 'Ponte' }))).toEqual({
      al: 'The last day cannot be before the first',
    });
    expect(messages(loginSchema.safeParse(null))).toEqual({ _: 'Invalid data: send a JSON object' });
  });
});
