import { describe, expect, it } from 'vitest';
import { decideRoute, homePathAfterRegistration, homePathFor, returnPathAfterLogin } from './guards';

const admin = { ruolo: 'admin' } as const;
const user = { ruolo: 'user' } as const;

describe('decideRoute', () => {
  it('shows login at / when anonymous and sends a logged-in user to the dashboard', () => {
    expect(decideRoute('/', null)).toEqual({ kind: 'login' });
    expect(decideRoute('/', user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decideRoute('/', admin)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it.each(['/dashboard', '/dashboard/x', '/payment/12', '/doc', '/doc/whatever', '/pagamento-simulato/cs_sim_abcdefgh', '/profilo', '/bici/07'])(
    'shows login in place at %s without a user, the screen with one',
    (path) => {
      expect(decideRoute(path, null)).toEqual({ kind: 'login' });
      expect(decideRoute(path, user)).toEqual({ kind: 'render' });
      expect(decideRoute(path, admin)).toEqual({ kind: 'render' });
    },
  );

  it.each(['/admin', '/admin/utenti', '/admin/statistiche'])('guards %s by role', (path) => {
    expect(decideRoute(path, null)).toEqual({ kind: 'login' });
    expect(decideRoute(path, user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decideRoute(path, admin)).toEqual({ kind: 'render' });
  });

  it('opens /admin to staff (issue 48), and only the parts their roles carry', () => {
    const porter = { ruolo: 'user', incarichi: [{ sedeId: 2, ruolo: 'portineria' }] } as const;
    const mechanic = { ruolo: 'user', incarichi: [{ sedeId: 2, ruolo: 'officina' }] } as const;
    expect(decideRoute('/admin', porter)).toEqual({ kind: 'render' });
    expect(decideRoute('/admin', mechanic)).toEqual({ kind: 'render' });
    expect(decideRoute('/admin/statistiche', porter)).toEqual({ kind: 'render' });
    expect(decideRoute('/admin/statistiche', mechanic)).toEqual({ kind: 'redirect', to: '/admin' });
    expect(decideRoute('/admin/sedi', porter)).toEqual({ kind: 'redirect', to: '/admin' });
    expect(decideRoute('/admin', { ruolo: 'user', incarichi: [] })).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('asks for a login on the simulated hosted checkout, which pays for the user\'s own booking', () => {
    expect(decideRoute('/pagamento-simulato/cs_sim_abcdefgh', null)).toEqual({ kind: 'login' });
    expect(decideRoute('/pagamento-simulato/cs_sim_abcdefgh', user)).toEqual({ kind: 'render' });
    // The hosted flow's own pages stay as the spec has them: reachable without a login.
    expect(decideRoute('/checkout/5', null)).toEqual({ kind: 'render' });
    expect(decideRoute('/checkout-success', null)).toEqual({ kind: 'render' });
  });

  it('redirects /dashboard-admin to /admin for everyone (the /admin guard then applies)', () => {
    for (const who of [null, user, admin]) {
      expect(decideRoute('/dashboard-admin', who)).toEqual({ kind: 'redirect', to: '/admin' });
    }
    expect(decideRoute('/admin', null)).toEqual({ kind: 'login' });
  });

  it('redirects /dashboard-esterno/:sigla to /dashboard', () => {
    for (const who of [null, user, admin]) {
      expect(decideRoute('/dashboard-esterno/ABC12', who)).toEqual({ kind: 'redirect', to: '/dashboard' });
    }
  });

  it.each([
    '/login',
    '/registrazione',
    '/recupera-password',
    '/cambio-password',
    '/checkout',
    '/checkout/5',
    '/checkout-success',
    '/pagina-che-non-esiste',
  ])('lets public or unknown path %s through to the router', (path) => {
    expect(decideRoute(path, null)).toEqual({ kind: 'render' });
    expect(decideRoute(path, user)).toEqual({ kind: 'render' });
  });
});

describe('homePathFor', () => {
  it('sends admins to /admin and everyone else to /dashboard', () => {
    expect(homePathFor(admin)).toBe('/admin');
    expect(homePathFor(user)).toBe('/dashboard');
  });
});

describe('homePathAfterRegistration', () => {
  it('sends admins to /dashboard-admin (which leads to /admin) and everyone else to /dashboard', () => {
    expect(homePathAfterRegistration(admin)).toBe('/dashboard-admin');
    expect(homePathAfterRegistration(user)).toBe('/dashboard');
    expect(decideRoute(homePathAfterRegistration(admin), admin)).toEqual({ kind: 'redirect', to: '/admin' });
  });
});

describe('the account screens', () => {
  it.each(['/login', '/registrazione', '/recupera-password', '/cambio-password'])(
    'are reachable at %s without a login (and by an admin)',
    (path) => {
      expect(decideRoute(path, null)).toEqual({ kind: 'render' });
      expect(decideRoute(path, admin)).toEqual({ kind: 'render' });
    },
  );
});

describe('an admin who must enrol a second factor first (ADMIN_2FA_REQUIRED, decision 030)', () => {
  const mustEnrol = { ruolo: 'admin' as const, dueFattoriDaAttivare: true as const };
  it('is sent from any admin page to the profile, and lands there after login', () => {
    expect(decideRoute('/admin', mustEnrol)).toEqual({ kind: 'redirect', to: '/profilo' });
    expect(decideRoute('/admin/statistiche', mustEnrol)).toEqual({ kind: 'redirect', to: '/profilo' });
    expect(decideRoute('/profilo', mustEnrol)).toEqual({ kind: 'render' });
    expect(homePathFor(mustEnrol)).toBe('/profilo');
  });
  it('an admin without the flag keeps the admin pages', () => {
    expect(decideRoute('/admin', { ruolo: 'admin' })).toEqual({ kind: 'render' });
    expect(homePathFor({ ruolo: 'admin' })).toBe('/admin');
  });
});

describe('the page a login shown in its place goes back to (issue 34)', () => {
  it("is a bike's page, and nothing else", () => {
    expect(returnPathAfterLogin('/bici/07')).toBe('/bici/07');
    expect(returnPathAfterLogin('/bici/City 12')).toBe('/bici/City 12');
    for (const path of ['/dashboard', '/admin', '/bici', '/bici/', '/bici/07/x', '//evil.example/bici/07', 'https://evil.example/bici/07', '/bici/07?x=1', '/bici/a\\b', null, undefined, '']) {
      expect(returnPathAfterLogin(path), String(path)).toBeNull();
    }
  });
});
