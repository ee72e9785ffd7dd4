import type { SessionUser } from '../../shared/api-types';
import { sediFor, type Incarico, type StaffCapability } from '../../shared/staff';

// The name of /admin for someone lives with the roles (the dashboard's bar reads it without this module).
export { staffAreaName, type StaffAreaName } from '../../shared/staff';
import { useSedi } from './sedi';
import { useCurrentUser } from './session';

/** Who is looking at /admin: an admin, or a staff member with their roles (issue 48). */
export type StaffViewer = Pick<SessionUser, 'ruolo'> & { incarichi?: readonly Incarico[] };

/** What /admin shows someone: the server checks every call, this only hides what it would refuse. */
export interface StaffView {
  isAdmin: boolean;
  /** Whether they may use a capability at one sede at least. */
  may: (capability: StaffCapability) => boolean;
  /** The sedi of their roles ('all' for an admin): a list's `Sede` filter offers only these. */
  sedi: 'all' | number[];
}

const NOBODY: StaffView = { isAdmin: false, may: () => false, sedi: [] };

export function staffView(user: StaffViewer | null | undefined): StaffView {
  if (!user) return NOBODY;
  const person = { ruolo: user.ruolo, incarichi: user.incarichi ?? [] };
  if (person.ruolo === 'admin') return { isAdmin: true, may: () => true, sedi: 'all' };
  const may = (capability: StaffCapability) => {
    const sedi = sediFor(person, capability);
    return sedi === 'all' || sedi.length > 0;
  };
  return { isAdmin: false, may, sedi: [...new Set(person.incarichi.map((i) => i.sedeId))].sort((a, b) => a - b) };
}

/** The logged-in person's view of /admin. */
export function useStaffView(): StaffView {
  return staffView(useCurrentUser().data);
}

/**
 * The open sedi where the logged-in person may use a capability (issue 48): every one for an
 * admin (`scoped` false), a staff member's own otherwise. `several` stays the install's: with one
 * open sede, no sede shows anywhere.
 */
export function useSediFor(capability: StaffCapability) {
  const all = useSedi();
  const user = useCurrentUser().data;
  const theirs = user ? sediFor({ ruolo: user.ruolo, incarichi: user.incarichi ?? [] }, capability) : 'all';
  if (theirs === 'all') return { ...all, scoped: false };
  return { ...all, open: all.open.filter((s) => theirs.includes(s.id)), scoped: true };
}
