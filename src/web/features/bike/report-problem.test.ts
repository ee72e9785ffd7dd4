import { describe, expect, it } from 'vitest';
import { tFor } from '../../../shared/i18n/all';
import { photosProblem } from '../../components/photo-picker';
import { reportErrors } from './report-problem';

const t = tFor('it');
const en = tFor('en');
const file = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });

describe('Segnala un problema: what the form says before sending (issue 48)', () => {
  it('asks for the category and a description, in the page language', () => {
    expect(reportErrors({ categoria: '', descrizione: '  ', foto: [] }, t)).toEqual({
      categoria: 'Scegli che cosa non va.',
      descrizione: 'Descrivi il problema (al massimo 500 caratteri).',
    });
    expect(reportErrors({ categoria: '', descrizione: '', foto: [] }, en).categoria).toBe('Choose what is wrong.');
    expect(reportErrors({ categoria: 'freni', descrizione: 'Fischia', foto: [] }, t)).toEqual({});
    expect(reportErrors({ categoria: 'freni', descrizione: 'x'.repeat(501), foto: [] }, t).descrizione).toBeDefined();
  });

  it('refuses more than 3 photos, or one over 10 MB', () => {
    const small = file('a.jpg', 10);
    expect(photosProblem([small, small, small], t)).toBeNull();
    expect(photosProblem([small, small, small, small], t)).toBe('Al massimo 3 foto: togline qualcuna prima di inviare.');
    expect(photosProblem([file('grande.jpg', 10 * 1024 * 1024 + 1)], en)).toBe('The photo grande.jpg is over 10 MB: remove it or choose a smaller one.');
    expect(photosProblem([file('giusta.jpg', 10 * 1024 * 1024)], t)).toBeNull();
    expect(reportErrors({ categoria: 'luci', descrizione: 'Spenta', foto: [small, small, small, small] }, t).foto).toMatch(/^Al massimo 3 foto/);
  });
});
