import { ChevronRightIcon, ImageOffIcon } from 'lucide-react';
import { Link } from 'wouter';
import { DAMAGE_CATEGORY_LABELS } from '../../../shared/damage';
import type { TicketSummaryDto } from '../../../shared/schemas/interventi';
import { LoadFailed } from '../../components/load-failed';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { useTimeZone } from '../../lib/public-config';
import { useRenderTime } from '../../lib/render-clock';
import { useSedeLabel } from '../../lib/sedi';
import { ageText, dateTimeText, TICKET_STATE_BADGE } from './ticket-model';

/** A ticket's address: its page on the workshop's screen. */
export const ticketHref = (id: number) => `/officina/${id}`;

/** One ticket as a card that is one big link (gloves on): photo, bike, category, state, age. */
function TicketCard({ ticket, now }: { ticket: TicketSummaryDto; now: number }) {
  const t = useT();
  const timeZone = useTimeZone();
  const sedeLabel = useSedeLabel()(ticket.sedeId);
  const state = TICKET_STATE_BADGE[ticket.stato];
  return (
    <li>
      <Link
        href={ticketHref(ticket.id)}
        className="flex min-h-20 items-center gap-3 rounded-xl border bg-card p-3 shadow-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        aria-label={t('tickets.openAria', { numero: ticket.biciNumero, categoria: t(DAMAGE_CATEGORY_LABELS[ticket.categoria]), stato: t(state.label) })}
      >
        {ticket.miniatura ? (
          <img src={ticket.miniatura.url} alt="" loading="lazy" className="size-16 shrink-0 rounded-lg border object-cover" />
        ) : (
          <span className="flex size-16 shrink-0 items-center justify-center rounded-lg border bg-muted text-muted-foreground">
            <ImageOffIcon className="size-6" aria-hidden="true" />
          </span>
        )}
        <span className="grid min-w-0 flex-1 gap-1">
          <span className="flex flex-wrap items-center gap-2">
            <span className="text-lg font-semibold">{t('tickets.bike', { numero: ticket.biciNumero })}</span>
            <Badge variant="warning">{t(DAMAGE_CATEGORY_LABELS[ticket.categoria])}</Badge>
            <Badge variant={state.tone}>{t(state.label)}</Badge>
            {ticket.nonUtilizzabile ? <Badge variant="danger">{t('tickets.unusable')}</Badge> : null}
          </span>
          <span className="truncate text-sm">{ticket.descrizione}</span>
          <span className="text-sm text-muted-foreground">
            <time dateTime={ticket.createdAt} title={dateTimeText(ticket.createdAt, timeZone)}>
              {ageText(ticket.createdAt, now, t)}
            </time>
            {ticket.assegnatario ? ` · ${t('tickets.assignedTo', { nome: ticket.assegnatario.nome })}` : ''}
            {sedeLabel ? ` · ${sedeLabel}` : ''}
          </span>
        </span>
        <ChevronRightIcon className="size-6 shrink-0 text-muted-foreground" aria-hidden="true" />
      </Link>
    </li>
  );
}

/** A list of tickets with its loading, failure and empty states. */
export function TicketList({
  query,
  empty,
}: {
  query: { data: TicketSummaryDto[] | undefined; isPending: boolean; isError: boolean; refetch: () => unknown };
  empty: string;
}) {
  const t = useT();
  const now = useRenderTime();
  if (query.isPending) return <Spinner label={t('tickets.loading')} showLabel className="py-6" />;
  if (query.isError || !query.data) {
    return (
      <LoadFailed
        className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4"
        message={t('tickets.loadFailed')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.length === 0) return <p className="rounded-xl border border-dashed bg-card px-4 py-6 text-center text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-3">
      {query.data.map((ticket) => (
        <TicketCard key={ticket.id} ticket={ticket} now={now} />
      ))}
    </ul>
  );
}
