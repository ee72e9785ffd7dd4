import { WrenchIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LinkButton } from '../../components/link-button';
import { useT } from '../../lib/i18n';
import { ticketsQueryKey, useTickets } from './queries';

/** The open tickets of every sede in reach: `/admin`'s list, in the state of the page the server renders. */
export const OPEN_TICKETS_QUERY_KEY = ticketsQueryKey({ stato: 'aperti' });
import { TicketList } from './ticket-list';

/**
 * `/admin`'s `Danni da controllare` (issue 48): the open repair tickets of the sedi in reach,
 * each a link to its page on the workshop's screen.
 */
export function OpenTicketsSection({ sedeId, filter }: { sedeId?: number; filter?: ReactNode }) {
  const t = useT();
  const tickets = useTickets({ stato: 'aperti', ...(sedeId === undefined ? {} : { sedeId }) });
  return (
    <section aria-labelledby="interventi-aperti-title" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="interventi-aperti-title" className="text-xl font-semibold">
          {t('tickets.adminTitle')}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          {filter}
          <LinkButton href="/officina" icon={WrenchIcon} variant="outline" size="sm">
            {t('tickets.workshop')}
          </LinkButton>
        </div>
      </div>
      <TicketList query={tickets} empty={t('tickets.noneOpen')} />
    </section>
  );
}

/** A bike's tickets, open and closed, newest first: its repair history (the bike's dialog in `/admin`). */
export function BikeTickets({ biciId }: { biciId: number }) {
  const t = useT();
  const tickets = useTickets({ stato: 'tutti', biciId });
  return (
    <section aria-label={t('tickets.history')} className="grid gap-2">
      <h3 className="text-base font-semibold">{t('tickets.history')}</h3>
      <TicketList query={tickets} empty={t('tickets.noneForBike')} />
    </section>
  );
}
