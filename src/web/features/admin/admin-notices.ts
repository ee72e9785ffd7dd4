import type { AdminUserDto } from '../../../shared/schemas/admin';
import type { ClosureOutcomeDto, MaintenanceOutcomeDto } from '../../../shared/schemas/rules';
import { t, type Translate } from '../../lib/i18n';
import { ANONYMOUS_USER_KEY, ANONYMOUS_USER_LABEL } from '../../../shared/constants';

/*
 * The sentences of /admin's toasts and lists that need no schema: admin/queries.ts uses them,
 * and /admin's first screen loads it without zod (decision 027). rules-model.ts re-exports them.
 */

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A person's name as the lists give it; an erased person's rows are named `Utente anonimo` by the
 * lists' SQL (shared/constants.ts), which is put into the reader's language here.
 */
export const personName = (name: string, tr: Translate = t): string => (name === ANONYMOUS_USER_LABEL ? tr(ANONYMOUS_USER_KEY) : name);

export const userName = (u: Pick<AdminUserDto, 'nome' | 'cognome'>) => `${u.nome} ${u.cognome}`.trim();

/** The toast after a closure is added: how many bookings it cancelled, how many refunded (by default in the app's language now). */
export function closureToast(outcome: ClosureOutcomeDto, tr: Translate = t): { title: string; description?: string } {
  const n = outcome.cancellate.length;
  if (n === 0) return { title: tr('adminNotices.closureAdded') };
  const refunded = outcome.cancellate.filter((b) => b.pagata).length;
  return {
    title: tr('adminNotices.closureAdded'),
    description: refunded > 0 ? tr('adminNotices.closureCancelledRefunded', { count: n, refunded }) : tr('adminNotices.closureCancelled', { count: n }),
  };
}

/** What a planned maintenance does to the bike's bookings, in one sentence. In a render, pass `useT()`'s translator. */
export function maintenanceSummary(outcome: Pick<MaintenanceOutcomeDto, 'spostate' | 'cancellate'>, tr: Translate = t): string {
  const moved = outcome.spostate.length;
  const cancelled = outcome.cancellate.length;
  if (moved === 0 && cancelled === 0) return tr('adminNotices.noBookingsAffected');
  const parts = [];
  if (moved > 0) parts.push(tr('adminNotices.moved', { count: moved }));
  if (cancelled > 0) {
    parts.push(moved === 0 ? tr('adminNotices.cancelledBookings', { count: cancelled }) : tr('adminNotices.cancelledAfterMoved', { count: cancelled }));
  }
  return `${parts.join(', ')}.`;
}
