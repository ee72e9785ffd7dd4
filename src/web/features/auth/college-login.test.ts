import { describe, expect, it } from 'vitest';
import { collegeLoginHref, refusalIn } from './college-login';

describe('the college login on /login', () => {
  it('knows the four refusals of the callback and nothing else', () => {
    for (const code of ['non-verificata', 'disattivato', 'scaduto', 'errore']) expect(refusalIn(`?accesso=${code}`)).toBe(code);
    expect(refusalIn('?accesso=toString')).toBeNull();
    expect(refusalIn('?accesso=')).toBeNull();
    expect(refusalIn('')).toBeNull();
  });

  it('goes back to a bike page the login was shown in place of, and never elsewhere', () => {
    expect(collegeLoginHref('/login')).toBe('/api/auth/oidc/login');
    expect(collegeLoginHref('/bici/07')).toBe('/api/auth/oidc/login?ritorno=%2Fbici%2F07');
    expect(collegeLoginHref('/admin')).toBe('/api/auth/oidc/login');
  });
});
