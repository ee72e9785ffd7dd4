import { ArrowRightIcon } from 'lucide-react';
import type { AffectedBookingDto } from '../../../shared/schemas/rules';
import { Badge } from '../../components/ui/badge';
import { Trans, useT } from '../../lib/i18n';
import { affectedWhen } from './rules-model';

/**
 * The bookings a closure or a maintenance touches, as the admin reads them before confirming:
 * whose (name, email), which bike, when; where a maintenance moves one, to which bike; a paid
 * one cancelled is refunded.
 */
export function AffectedBookings({ bookings, label, moved = false }: { bookings: AffectedBookingDto[]; label: string; moved?: boolean }) {
  const t = useT();
  return (
    <ul aria-label={label} className="grid gap-2">
      {bookings.map((b) => (
        <li key={b.id} className="grid gap-1 rounded-lg border bg-card p-3 text-sm">
          <p className="font-medium break-words">
            {b.utente} <span className="font-normal text-muted-foreground">({b.email})</span>
          </p>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 tabular-nums">
            <span className="min-w-0 wrap-anywhere">{t('affectedBookings.bike', { numero: b.biciNumero })}</span>
            {moved && b.nuovaBiciNumero ? (
              <>
                <ArrowRightIcon className="size-4" aria-hidden="true" />
                <span className="font-medium">
                  <Trans id="affectedBookings.movedTo" values={{ numero: b.nuovaBiciNumero }} components={{ 0: <span className="sr-only" /> }} />
                </span>
              </>
            ) : null}
            <span aria-hidden="true">·</span>
            <span>{affectedWhen(b)}</span>
          </p>
          {!moved && b.pagata ? (
            <Badge variant="info">{t('affectedBookings.refunded')}</Badge>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
