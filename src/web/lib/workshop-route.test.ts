import { describe, expect, it } from 'vitest';
import { decideRoute } from './guards';
import { mayOpenWorkshop } from '../../shared/staff';

describe('the workshop screen, /officina (issue 48)', () => {
  it('opens for staff who see tickets (either role) and for an admin, for nobody else', () => {
    expect(mayOpenWorkshop({ ruolo: 'admin', incarichi: [] })).toBe(true);
    expect(mayOpenWorkshop({ ruolo: 'user', incarichi: [{ sedeId: 2, ruolo: 'officina' }] })).toBe(true);
    expect(mayOpenWorkshop({ ruolo: 'user', incarichi: [{ sedeId: 2, ruolo: 'portineria' }] })).toBe(true);
    expect(mayOpenWorkshop({ ruolo: 'user', incarichi: [] })).toBe(false);
  });

  it.each(['/officina', '/officina/12'])('%s asks for a login, and sends an admin who must enrol a second factor to it first', (path) => {
    expect(decideRoute(path, null)).toEqual({ kind: 'login' });
    expect(decideRoute(path, { ruolo: 'user' })).toEqual({ kind: 'render' });
    expect(decideRoute(path, { ruolo: 'admin' })).toEqual({ kind: 'render' });
    expect(decideRoute(path, { ruolo: 'admin', dueFattoriDaAttivare: true })).toEqual({ kind: 'redirect', to: '/profilo' });
  });
});
