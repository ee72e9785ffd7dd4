import type { AdminUserDto } from '../../../shared/schemas/admin';
import type { ClosureOutcomeDto, MaintenanceOutcomeDto } from '../../../shared/schemas/rules';

/*
 * The sentences of /admin's toasts and lists that need no schema: admin/queries.ts uses them,
 * and /admin's first screen loads it without zod (decision 027). rules-model.ts re-exports them.
 */

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const userName = (u: Pick<AdminUserDto, 'nome' | 'cognome'>) => `${u.nome} ${u.cognome}`.trim();

/** The toast after a closure is added: how many bookings it cancelled, how many refunded. */
export function closureToast(outcome: ClosureOutcomeDto): { title: string; description?: string } {
  const n = outcome.cancellate.length;
  if (n === 0) return { title: 'Chiusura aggiunta' };
  const refunded = outcome.cancellate.filter((b) => b.pagata).length;
  const cancelled = n === 1 ? '1 prenotazione annullata' : `${n} prenotazioni annullate`;
  return {
    title: 'Chiusura aggiunta',
    description: refunded > 0 ? `${cancelled}, ${plural(refunded, 'rimborsata', 'rimborsate')}. Gli utenti sono stati avvisati via email.` : `${cancelled}. Gli utenti sono stati avvisati via email.`,
  };
}

/** What a planned maintenance does to the bike's bookings, in one sentence. */
export function maintenanceSummary(outcome: Pick<MaintenanceOutcomeDto, 'spostate' | 'cancellate'>): string {
  const moved = outcome.spostate.length;
  const cancelled = outcome.cancellate.length;
  if (moved === 0 && cancelled === 0) return 'Nessuna prenotazione coinvolta.';
  const parts = [];
  if (moved > 0) parts.push(moved === 1 ? '1 prenotazione spostata su un’altra bici' : `${moved} prenotazioni spostate su altre bici`);
  if (cancelled > 0) {
    parts.push(moved === 0 ? plural(cancelled, 'prenotazione annullata', 'prenotazioni annullate') : plural(cancelled, 'annullata', 'annullate'));
  }
  return `${parts.join(', ')}.`;
}
