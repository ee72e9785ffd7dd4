import { describe, expect, it } from 'vitest';
import { checkCompletion, type CompletionValues } from './college-completion-model';

const t = (key: string) => key;
const base: CompletionValues = { nome: ' Anna ', cognome: 'Bianchi', path: 'esterno', sigla: '', privacy: true };

describe('checkCompletion', () => {
  it('sends the trimmed names and no sigla on the external path', () => {
    expect(checkCompletion(base, 'empty', t as never)).toEqual({ request: { nome: 'Anna', cognome: 'Bianchi', privacy: true }, errors: {} });
  });

  it('sends the normalised sigla on the resident path once the live check said it is valid', () => {
    const result = checkCompletion({ ...base, path: 'residente', sigla: ' ab12 ' }, 'valid', t as never);
    expect(result.request).toEqual({ nome: 'Anna', cognome: 'Bianchi', siglaResidente: 'AB12', privacy: true });
  });

  it('refuses a resident without a sigla, with an invalid one, or before the check answered', () => {
    expect(checkCompletion({ ...base, path: 'residente' }, 'empty', t as never).errors).toEqual({ sigla: 'collegeCompletion.siglaRequired' });
    expect(checkCompletion({ ...base, path: 'residente', sigla: 'XX' }, 'invalid', t as never).errors).toEqual({ sigla: 'registrationPage.invalidSigla' });
    expect(checkCompletion({ ...base, path: 'residente', sigla: 'XX' }, 'checking', t as never).request).toBeNull();
  });

  it('ignores a sigla typed before choosing the external path', () => {
    expect(checkCompletion({ ...base, sigla: 'AB12' }, 'empty', t as never).request).not.toHaveProperty('siglaResidente');
  });

  it('asks for both names and the privacy notice', () => {
    const result = checkCompletion({ ...base, nome: '  ', cognome: '', privacy: false }, 'empty', t as never);
    expect(result).toEqual({
      request: null,
      errors: { nome: 'collegeCompletion.nameRequired', cognome: 'collegeCompletion.nameRequired', privacy: 'collegeCompletion.privacyRequired' },
    });
  });
});
