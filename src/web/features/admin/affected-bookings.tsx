import { ArrowRightIcon } from 'lucide-react';
import type { AffectedBookingDto } from '../../../shared/schemas/rules';
import { Badge } from '../../components/ui/badge';
import { affectedWhen } from './rules-model';

/**
 * The bookings a closure or a maintenance touches, as the admin reads them before confirming:
 * whose (name, email), which bike, when; where a maintenance moves one, to which bike; a paid
 * one cancelled is refunded.
 */
export function AffectedBookings({ bookings, label, moved = false }: { bookings: AffectedBookingDto[]; label: string; moved?: boolean }) {
  return (
    <ul aria-label={label} className="grid gap-2">
      {bookings.map((b) => (
        <li key={b.id} className="grid gap-1 rounded-lg border bg-card p-3 text-sm">
          <p className="font-medium break-words">
            {b.utente} <span className="font-normal text-muted-foreground">({b.email})</span>
          </p>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 tabular-nums">
            <span className="min-w-0 wrap-anywhere">Bici {b.biciNumero}</span>
            {moved && b.nuovaBiciNumero ? (
              <>
                <ArrowRightIcon className="size-4" aria-hidden="true" />
                <span className="font-medium">
                  <span className="sr-only">spostata sulla </span>bici n. {b.nuovaBiciNumero}
                </span>
              </>
            ) : null}
            <span aria-hidden="true">·</span>
            <span>{affectedWhen(b)}</span>
          </p>
          {!moved && b.pagata ? (
            <Badge variant="info">Pagata: sarà rimborsata</Badge>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
