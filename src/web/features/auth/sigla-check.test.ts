import { describe, expect, it } from 'vitest';
import { tFor } from '../../../shared/i18n/all';
import { autofillDescription, namesToFill, siglaCode, siglaStatus, type SiglaAnswer } from './sigla-check';

const italian = tFor('it');
const giulia = { nome: 'Giulia', cognome: 'Bianchi', corsoDiStudi: 'Economia', annoCorso: 1 };
const answer = (code: string, over: Partial<SiglaAnswer> = {}): SiglaAnswer => ({
  code,
  result: { valid: true, data: giulia },
  failed: false,
  ...over,
});

describe('siglaCode', () => {
  it('compares codes as the server does: trimmed, upper-case, empty for nothing', () => {
    expect(siglaCode('  elis002 ')).toBe('ELIS002');
    expect(siglaCode('')).toBe('');
    expect(siglaCode('   ')).toBe('');
    expect(siglaCode(null)).toBe('');
    expect(siglaCode(undefined)).toBe('');
  });
});

describe('siglaStatus', () => {
  it('is empty with no code, whatever answer is around', () => {
    expect(siglaStatus('', null)).toEqual({ kind: 'empty' });
    expect(siglaStatus('', answer('ELIS002'))).toEqual({ kind: 'empty' });
  });

  it('is checking until an answer for exactly this code arrives', () => {
    expect(siglaStatus('ELIS002', null)).toEqual({ kind: 'checking', code: 'ELIS002' });
    expect(siglaStatus('ELIS002', answer('ELIS002', { result: undefined }))).toEqual({
      kind: 'checking',
      code: 'ELIS002',
    });
  });

  it('ignores a late answer for a code that is no longer typed', () => {
    expect(siglaStatus('ELIS0021', answer('ELIS002'))).toEqual({ kind: 'checking', code: 'ELIS0021' });
    expect(siglaStatus('ELIS003', answer('ELIS00', { result: { valid: false } }))).toEqual({
      kind: 'checking',
      code: 'ELIS003',
    });
  });

  it('is valid with the resident data, or invalid, from the answer', () => {
    expect(siglaStatus('ELIS002', answer('ELIS002'))).toEqual({ kind: 'valid', code: 'ELIS002', data: giulia });
    expect(siglaStatus('ELIS999', answer('ELIS999', { result: { valid: false } }))).toEqual({
      kind: 'invalid',
      code: 'ELIS999',
    });
  });

  it('treats a failed check (network error) as invalid', () => {
    expect(siglaStatus('ELIS002', answer('ELIS002', { result: undefined, failed: true }))).toEqual({
      kind: 'invalid',
      code: 'ELIS002',
    });
  });

  it('is invalid at once for a code the server could never accept, without asking', () => {
    expect(siglaStatus('ELIS 002', null)).toEqual({ kind: 'invalid', code: 'ELIS 002' });
    expect(siglaStatus('../ELIS', null)).toEqual({ kind: 'invalid', code: '../ELIS' });
    expect(siglaStatus('A'.repeat(33), null)).toEqual({ kind: 'invalid', code: 'A'.repeat(33) });
  });
});

describe('namesToFill and autofillDescription', () => {
  it('fills both names when both are empty', () => {
    const fill = namesToFill({ nome: '', cognome: '  ' }, giulia);
    expect(fill).toEqual({ nome: 'Giulia', cognome: 'Bianchi' });
    expect(autofillDescription(fill, italian)).toBe('Nome e cognome compilati automaticamente: Giulia Bianchi.');
  });

  it('never overwrites what the person typed', () => {
    expect(namesToFill({ nome: 'Giuly', cognome: 'B.' }, giulia)).toEqual({});
    expect(autofillDescription({}, italian)).toBeNull();

    const onlySurname = namesToFill({ nome: 'Giuly', cognome: '' }, giulia);
    expect(onlySurname).toEqual({ cognome: 'Bianchi' });
    expect(autofillDescription(onlySurname, italian)).toBe('Cognome compilato automaticamente: Bianchi.');

    const onlyName = namesToFill({ nome: undefined, cognome: 'Bianchi' }, giulia);
    expect(onlyName).toEqual({ nome: 'Giulia' });
    expect(autofillDescription(onlyName, italian)).toBe('Nome compilato automaticamente: Giulia.');
  });
});
