import { useEffect } from 'react';
import { SubpageHeader } from '../../components/subpage-header';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { screenHydrated } from '../../lib/page-hydration';
import { useCurrentUser } from '../../lib/session';
import { useTickets } from './queries';
import { TicketList } from './ticket-list';

/** While the screen is open new reports come in: read again every minute. */
const REFRESH_MS = 60_000;

/**
 * `/officina` (issue 48): the workshop's home, phone-first. The open tickets of the user's sedi,
 * newest first, each one big link to its page. The router lets only staff with tickets, or an
 * admin, in.
 */
export function OfficinaPage() {
  const t = useT();
  const { data: user } = useCurrentUser();
  const tickets = useTickets({ stato: 'aperti' }, { refetchInterval: REFRESH_MS });
  // The page the server rendered (decision 070) has hydrated: a refresh behind its device copy may now change its data.
  useEffect(() => screenHydrated([]), []);
  // The staff member confirmed by the server is the device's user: the worker may paint this page's copy next time.
  useEffect(() => {
    if (user) void import('../../offline/session-fallback').then((m) => m.rememberConfirmedUser(user)).catch(() => undefined);
  }, [user]);
  if (!user) return <FullScreenSpinner label={t('tickets.loading')} />;
  return (
    <div className="min-h-dvh pb-12">
      <SubpageHeader title={t('tickets.title')} description={t('tickets.description')} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-4 px-4 pt-6 sm:px-6" aria-busy={tickets.isFetching}>
        <h2 className="text-xl font-semibold">{t('tickets.openTitle')}</h2>
        <TicketList query={tickets} empty={t('tickets.noneOpen')} />
      </main>
    </div>
  );
}
