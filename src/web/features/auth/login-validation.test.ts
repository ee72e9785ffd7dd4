import { describe, expect, it } from 'vitest';
import { checkLogin } from './login-validation';

describe('checkLogin (the login form, with the API schema)', () => {
  it('asks for both fields when either is empty, and says the toast is due', () => {
    const empty = checkLogin({ email: '', password: '' });
    expect(empty).toEqual({
      ok: false,
      errors: { email: 'Inserisci email e password', password: 'Inserisci email e password' },
      missing: true,
      missingMessage: 'Inserisci email e password',
    });
    // FormData.get gives null for a field that is not there.
    expect(checkLogin({ email: 'a@b.it', password: null })).toMatchObject({ ok: false, errors: { password: 'Inserisci email e password' } });
  });

  it('refuses an address that is not one, without the missing-fields toast', () => {
    expect(checkLogin({ email: 'non-una-email', password: 'x' })).toEqual({
      ok: false,
      errors: { email: 'Inserisci un indirizzo email valido' },
      missing: false,
      missingMessage: 'Inserisci email e password',
    });
  });

  it('gives the request as the server will read it: the email trimmed and lower-case, the password as typed', () => {
    expect(checkLogin({ email: '  Ada@Example.IT ', password: ' segreta ' })).toEqual({
      ok: true,
      request: { email: 'ada@example.it', password: ' segreta ' },
      errors: {},
    });
  });
});
