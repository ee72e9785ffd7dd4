import { beforeAll, describe, expect, it } from 'vitest';
import { DOMAINS } from '../../../shared/i18n';
import { loadDomains } from '../../lib/i18n';
import { changePasswordFormSchema, passwordChangeUserId, registrationFormSchema } from './form-schemas';

/** The first message of each field, as react-hook-form's zod resolver shows it. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
}

// The forms' own messages are in the app's language (Italian here): its texts loaded first.
beforeAll(() => loadDomains(...DOMAINS));

const registration = {
  nome: ' Giulia ',
  cognome: 'Bianchi',
  email: ' Giulia@Example.ORG ',
  siglaResidente: '',
  password: 'segreta1',
  confermaPassword: 'segreta1',
};

describe('registrationFormSchema', () => {
  it('gives the API body: trimmed names, lower-case email, empty sigla as null', () => {
    expect(registrationFormSchema.parse(registration)).toEqual({
      nome: 'Giulia',
      cognome: 'Bianchi',
      email: 'giulia@example.org',
      siglaResidente: null,
      password: 'segreta1',
      confermaPassword: 'segreta1',
    });
    expect(registrationFormSchema.parse({ ...registration, siglaResidente: ' elis002 ' }).siglaResidente).toBe('ELIS002');
  });

  it('asks for every required field with the spec message', () => {
    const result = registrationFormSchema.safeParse({
      nome: '',
      cognome: ' ',
      email: '',
      siglaResidente: '',
      password: '',
      confermaPassword: '',
    });
    expect(messages(result)).toEqual({
      nome: 'Compila tutti i campi obbligatori',
      cognome: 'Compila tutti i campi obbligatori',
      email: 'Compila tutti i campi obbligatori',
      password: 'Compila tutti i campi obbligatori',
      confermaPassword: 'Compila tutti i campi obbligatori',
    });
  });

  it('wants the two passwords equal and at least 6 characters long', () => {
    expect(messages(registrationFormSchema.safeParse({ ...registration, confermaPassword: 'segreta2' }))).toEqual({
      confermaPassword: 'Le password inserite non coincidono',
    });
    expect(messages(registrationFormSchema.safeParse({ ...registration, password: 'abc', confermaPassword: 'abc' }))).toEqual({
      password: 'La password deve essere di almeno 6 caratteri',
    });
  });
});

describe('changePasswordFormSchema', () => {
  it('asks for both fields, equal, at least 6 characters', () => {
    expect(messages(changePasswordFormSchema.safeParse({ newPassword: '', confermaPassword: '' }))).toEqual({
      newPassword: 'Compila tutti i campi',
      confermaPassword: 'Compila tutti i campi',
    });
    expect(messages(changePasswordFormSchema.safeParse({ newPassword: 'nuova-1', confermaPassword: 'nuova-2' }))).toEqual({
      confermaPassword: 'Le password non corrispondono',
    });
    expect(messages(changePasswordFormSchema.safeParse({ newPassword: 'abc', confermaPassword: 'abc' }))).toEqual({
      newPassword: 'La password deve essere di almeno 6 caratteri',
    });
    expect(changePasswordFormSchema.safeParse({ newPassword: 'nuova-1', confermaPassword: 'nuova-1' }).success).toBe(true);
  });
});

describe('passwordChangeUserId', () => {
  it('takes ?userId= first, then the id login stored, else none', () => {
    expect(passwordChangeUserId('?userId=42', 7)).toBe(42);
    expect(passwordChangeUserId('userId=42', null)).toBe(42);
    expect(passwordChangeUserId('', 7)).toBe(7);
    expect(passwordChangeUserId('?altro=1', null)).toBeNull();
  });

  it('ignores a userId that is not a positive whole number', () => {
    expect(passwordChangeUserId('?userId=abc', 7)).toBe(7);
    expect(passwordChangeUserId('?userId=-3', null)).toBeNull();
    expect(passwordChangeUserId('?userId=0', null)).toBeNull();
    expect(passwordChangeUserId('?userId=', null)).toBeNull();
  });
});
