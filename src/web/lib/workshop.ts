import type { SessionUser } from '../../shared/api-types';
import { sediFor } from '../../shared/staff';

/**
 * Whether someone may open the workshop's screen, `/officina` (issue 48): staff who see the repair
 * tickets (either role), or an admin. Anyone else gets the page the app shows for an unknown path.
 */
export function mayOpenWorkshop(user: Pick<SessionUser, 'ruolo' | 'incarichi'>): boolean {
  const sedi = sediFor(user, 'interventi');
  return sedi === 'all' || sedi.length > 0;
}
