import type { SessionUser } from '../../shared/api-types';
import { sediFor, type Incarico, type StaffCapability } from '../../shared/staff';

/** What the router does for a path, given who is logged in (spec §2 "Guards"). */
export type GuardDecision =
  /** Let the router choose the screen for this path (or the 404 page). */
  | { kind: 'render' }
  /** Show the login screen in place, keeping the address. */
  | { kind: 'login' }
  /** Replace the address with another one. */
  | { kind: 'redirect'; to: string };

const RENDER: GuardDecision = { kind: 'render' };
const LOGIN: GuardDecision = { kind: 'login' };
const redirect = (to: string): GuardDecision => ({ kind: 'redirect', to });

/**
 * Paths that need a logged-in user (any role). Matched as prefixes, as the spec words it.
 * `/pagamento-simulato` is the simulated provider's hosted checkout: it pays for a booking
 * of the logged-in user, like /payment. `/profilo` is the user's profile page (decision 022).
 * `/bici/07` is a bike's page, opened by the QR code on the bike (issue 34).
 */
const LOGIN_REQUIRED_PREFIXES = ['/dashboard', '/payment', '/doc', '/pagamento-simulato', '/profilo', '/bici/', '/officina'] as const;

/** `incarichi`: the staff's roles (issue 48); absent reads as none. */
type GuardUser = Pick<SessionUser, 'ruolo' | 'dueFattoriDaAttivare'> & { incarichi?: readonly Incarico[] };

/**
 * The parts of /admin a staff member may open (issue 48), by the capability each needs; the
 * others (`/admin/sedi`, and any part not named here) are the admin's. /admin itself opens for
 * anyone with a role.
 */
const STAFF_ADMIN_PATHS: Record<string, StaffCapability | null> = { '/admin': null, '/admin/statistiche': 'statistiche' };

function staffMayOpen(path: string, user: GuardUser): boolean {
  const incarichi = user.incarichi ?? [];
  if (incarichi.length === 0) return false;
  const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (!(bare in STAFF_ADMIN_PATHS)) return false;
  const capability = STAFF_ADMIN_PATHS[bare];
  if (!capability) return true;
  const sedi = sediFor({ ruolo: user.ruolo, incarichi }, capability);
  return sedi === 'all' || sedi.length > 0;
}

/** Where an admin who must enrol a second factor first is sent (ADMIN_2FA_REQUIRED, decision 030). */
export const TWO_FACTOR_ENROLMENT_PATH = '/profilo';

export function decideRoute(path: string, user: GuardUser | null): GuardDecision {
  // Addresses that other screens link to but that have no screen of their own.
  if (path === '/dashboard-admin' || path.startsWith('/dashboard-admin/')) return redirect('/admin');
  if (path.startsWith('/dashboard-esterno/')) return redirect('/dashboard');

  if (path === '/') return user ? redirect('/dashboard') : LOGIN;

  if (path.startsWith('/admin')) {
    if (!user) return LOGIN;
    // Staff (issue 48): /admin with their own tabs; a part of it that is not theirs sends them to /admin.
    if (user.ruolo !== 'admin') return staffMayOpen(path, user) ? RENDER : redirect((user.incarichi ?? []).length > 0 ? '/admin' : '/dashboard');
    return user.dueFattoriDaAttivare ? redirect(TWO_FACTOR_ENROLMENT_PATH) : RENDER;
  }

  // The workshop's screen (issue 48) acts as the admin's tools do: an admin enrols a second factor first.
  if (path.startsWith('/officina') && user?.ruolo === 'admin' && user.dueFattoriDaAttivare) return redirect(TWO_FACTOR_ENROLMENT_PATH);

  if (LOGIN_REQUIRED_PREFIXES.some((prefix) => path.startsWith(prefix))) return user ? RENDER : LOGIN;

  return RENDER;
}

/**
 * The address a login shown in its place goes back to, if it is one (issue 34: a bike's page,
 * reached from the QR code on the bike): an allow-list, never any address (`?next=` of the code
 * step included), so a link cannot send a person who logs in somewhere else.
 */
export function returnPathAfterLogin(path: string | null | undefined): string | null {
  return path && /^\/bici\/[^/?#\\]{1,60}\/?$/.test(path) ? path : null;
}

/** Where a user lands after logging in. */
export function homePathFor(user: GuardUser): string {
  if (user.dueFattoriDaAttivare) return TWO_FACTOR_ENROLMENT_PATH;
  return user.ruolo === 'admin' ? '/admin' : '/dashboard';
}

/**
 * Where a user lands after registering. The spec names /dashboard-admin here (and /admin
 * after login); /dashboard-admin redirects to /admin, so both readings end up the same.
 */
export function homePathAfterRegistration(user: GuardUser): string {
  return user.ruolo === 'admin' ? '/dashboard-admin' : '/dashboard';
}

/**
 * What a path shows while the session is being read: the login form at /login (a person
 * with a session is sent on when the answer comes), the loading state anywhere else. The
 * HTML served for a path is this screen pre-rendered (boot/prerender.tsx), so the
 * browser paints it before any script runs and React hydrates it.
 */
export function firstScreen(path: string): 'login' | 'loading' | 'privacy' {
  if (isPrivacyPath(path)) return 'privacy';
  return path === '/login' || path === '/login/' ? 'login' : 'loading';
}

/** The privacy notice (issue 23): public, shown at once whoever is (or is not) logged in. */
export function isPrivacyPath(path: string): boolean {
  return path === '/privacy' || path === '/privacy/';
}

/** The rack's board (issue 34): `/rastrelliera/{token}`, public (its token is the credential). */
export const RACK_PATH = /^\/rastrelliera\/([^/?#]+)\/?$/;
