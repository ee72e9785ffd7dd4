/**
 * The people who run the racks (issue 48, decision 054): a role at a sede (`incarichi`), given by
 * an admin in the user's edit dialog. `ruolo` stays `admin | user`; a staff member is a `user`
 * with one or more of these. No zod here: the web's guards read it without the schemas' chunk.
 */
export const STAFF_ROLES = ['portineria', 'officina'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** One role at one sede. */
export interface Incarico {
  sedeId: number;
  ruolo: StaffRole;
}

/**
 * What a staff role may do, by name; the server's guard (`http/scope.ts`) and the web's tabs read
 * the same table. The admin may do all of it, at every sede.
 * - `prenotazioni`: the sede's bookings (list, detail, cancel), today's waitlists, late rides;
 * - `banco`: the desk's booking, a pick-up and a return on a person's behalf;
 * - `biciclette`: the bikes' list and states (and their QR labels);
 * - `lucchetti`: the bikes' locks and codes;
 * - `rastrelliera`: the rack board's link;
 * - `chiusure`: closures and planned maintenance of the sede;
 * - `statistiche`: the sede's statistics and its report;
 * - `interventi`: the sede's repair tickets seen, and opened by hand (either role);
 * - `riparazioni`: a ticket taken, assigned, noted and closed (the workshop).
 */
export const STAFF_CAPABILITIES = [
  'prenotazioni',
  'banco',
  'biciclette',
  'lucchetti',
  'rastrelliera',
  'chiusure',
  'statistiche',
  'interventi',
  'riparazioni',
] as const;
export type StaffCapability = (typeof STAFF_CAPABILITIES)[number];

export const ROLE_CAPABILITIES: Record<StaffRole, readonly StaffCapability[]> = {
  portineria: ['prenotazioni', 'banco', 'biciclette', 'lucchetti', 'rastrelliera', 'chiusure', 'statistiche', 'interventi'],
  officina: ['interventi', 'riparazioni', 'biciclette', 'lucchetti'],
};

/**
 * The sedi where someone may use a capability: `'all'` for an admin, else the sedi of the roles
 * that carry it (empty: none).
 */
export function sediFor(
  user: { ruolo: 'admin' | 'user'; incarichi: readonly Incarico[] },
  capability: StaffCapability,
): 'all' | number[] {
  if (user.ruolo === 'admin') return 'all';
  const sedi = new Set<number>();
  for (const { sedeId, ruolo } of user.incarichi) if (ROLE_CAPABILITIES[ruolo].includes(capability)) sedi.add(sedeId);
  return [...sedi].sort((a, b) => a - b);
}

/** Whether someone may use a capability at a sede (admin: everywhere). */
export function mayAt(user: { ruolo: 'admin' | 'user'; incarichi: readonly Incarico[] }, capability: StaffCapability, sedeId: number): boolean {
  const sedi = sediFor(user, capability);
  return sedi === 'all' || sedi.includes(sedeId);
}

/**
 * Whether someone may open the workshop's screen, `/officina` and a ticket's page (issue 48):
 * staff who see the repair tickets (either role), or an admin. Anyone else gets the page the app
 * shows for an unknown path; the server renders the two pages only for them (decision 070).
 */
export function mayOpenWorkshop(user: { ruolo: 'admin' | 'user'; incarichi: readonly Incarico[] }): boolean {
  const sedi = sediFor(user, 'interventi');
  return sedi === 'all' || sedi.length > 0;
}

/** Whether someone is staff anywhere (or an admin): `/admin` opens for them. */
export const isStaff = (user: { ruolo: 'admin' | 'user'; incarichi: readonly Incarico[] }): boolean =>
  user.ruolo === 'admin' || user.incarichi.length > 0;

/** The name of `/admin` for someone: `admin`; `portineria` or `officina`; `gestione` with both; null for anyone else. */
export type StaffAreaName = 'admin' | StaffRole | 'gestione';

export function staffAreaName(user: { ruolo: 'admin' | 'user'; incarichi?: readonly Incarico[] } | null | undefined): StaffAreaName | null {
  if (!user) return null;
  if (user.ruolo === 'admin') return 'admin';
  const roles = new Set((user.incarichi ?? []).map((i) => i.ruolo));
  if (roles.size === 0) return null;
  if (roles.size > 1) return 'gestione';
  return [...roles][0]!;
}

/* Repair tickets (`Interventi`, issue 48). */

export const TICKET_STATES = ['aperto', 'in_lavorazione', 'riparata', 'non_riparabile'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
/** A ticket in one of these is closed (`chiuso_at` set). */
export const CLOSED_TICKET_STATES: readonly TicketState[] = ['riparata', 'non_riparabile'];

/**
 * Where a ticket came from: the return's damage report (`riconsegna`), `La bici ha un problema` at
 * the pick-up (`ritiro`), `Segnala un problema` on `/bici/{numero}` (`segnalazione`), or staff or an
 * admin by hand (`staff`).
 */
export const TICKET_ORIGINS = ['riconsegna', 'ritiro', 'segnalazione', 'staff'] as const;
export type TicketOrigin = (typeof TICKET_ORIGINS)[number];

/** Up to this many photos per report or note; each at most this many bytes on upload. */
export const TICKET_PHOTOS_MAX = 3;
export const TICKET_PHOTO_BYTES_MAX = 10 * 1024 * 1024;
/** A photo's longer side after the server re-encodes it. */
export const TICKET_PHOTO_SIDE_MAX = 1600;
export const TICKET_NOTE_MAX = 2000;
