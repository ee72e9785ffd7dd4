import { personName } from './admin-notices';
import { InfoIcon } from 'lucide-react';
import { lazy, startTransition, useCallback, useDeferredValue, useEffect, useRef, useState, type CSSProperties } from 'react';
import type { AdminBookingDto } from '../../../shared/schemas/admin';
import { ConfirmDeleteDialog, DeleteButton } from '../../components/confirm-delete-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { TableBody, TableCell, TableRow } from '../../components/ui/table';
import { useT } from '../../lib/i18n';
import {
  adminBookingBadge,
  BOOKING_FILTERS,
  bookingTime,
  formatShortDate,
  type BookingFilter,
} from './admin-model';
import { whenInteracted } from '../../lib/interaction';
import { OnDemand, useDialogOnDemand } from '../../lib/dialog-on-demand';
import { ColumnHeads, NativeSelect, Pager, ScrollTable, SearchBox, StatusRow } from './admin-table';
import { PAGE_SIZE, useAdminBookings, useDeleteBooking, useListSearch } from './queries';
import { SedeFilter, useSedeBadge, useSedeFilter } from './sede-filter';
import { DeskRideActions } from './desk-ride-actions';
import { useStaffView } from '../../lib/staff-view';

/** The details' dialog (Radix and its helpers): fetched when a `Dettagli` is pointed at, focused or touched, not with /admin. */
const loadDetails = () => import('./booking-details-dialog');
const BookingDetailsDialog = lazy(() => loadDetails().then((m) => ({ default: m.BookingDetailsDialog })));

/**
 * `Dettagli`: the booking, its user and its bike in a dialog. A row holds just the button;
 * the Radix dialog is mounted at the first opening, and kept (Radix animates the closing).
 * Fifty rows of dialogs took a slow phone's main thread for long (decision 027).
 */
function BookingDetails({ booking }: { booking: AdminBookingDto }) {
  const t = useT();
  const { open, setOpen, mounted, triggerRef, triggerProps } = useDialogOnDemand(loadDetails);
  return (
    <>
      <Button variant="outline" size="sm" aria-label={t('bookingsTab.detailsAria', { id: booking.id })} {...triggerProps}>
        <InfoIcon aria-hidden="true" />
        {t('bookingsTab.details')}
      </Button>
      <OnDemand when={mounted}>
        <BookingDetailsDialog booking={booking} open={open} onOpenChange={setOpen} triggerRef={triggerRef} />
      </OnDemand>
    </>
  );
}

/** A row's deletion: the list's one mutation, whose promise the dialog waits for (not a mutation per row). */
function DeleteBooking({ booking, remove }: { booking: AdminBookingDto; remove: (id: number) => Promise<unknown> }) {
  const t = useT();
  return (
    <ConfirmDeleteDialog
      trigger={<DeleteButton aria-label={t('bookingsTab.deleteAria', { id: booking.id })} />}
      title={t('bookingsTab.deleteTitle', { id: booking.id })}
      description={t('bookingsTab.deleteDescription')}
      onConfirm={() => remove(booking.id)}
    />
  );
}

/**
 * The rows of the first page the page opens with (rendered on the server and hydrated): the
 * others render when the place kept for them comes within a screen's height of the screen,
 * or at the first touch, click or key. Fifty rows (~1,250 elements with their buttons and
 * icons) made /admin's HTML 200 KB, and their parsing, layout, hydration and commit were the
 * largest part of a slow phone's main-thread work at load, for a table below the fold
 * (decision 027).
 */
export const FIRST_ROWS = 10;

/** Whether all rows may render: false at first, then true for good (see FIRST_ROWS). */
function useAllRows(): [boolean, () => void] {
  const [all, setAll] = useState(false);
  const show = useCallback(() => startTransition(() => setAll(true)), []);
  useEffect(() => (all ? undefined : whenInteracted(show)), [all, show]);
  return [all, show];
}

/**
 * Keeps the place and the height of the rows not rendered yet, so nothing under the table
 * moves when they come (a row is the `sm` button's height, 2.75rem or 2.25rem from `sm` up,
 * plus the cell's 1rem of padding and its 1px bottom border; the last row has no border),
 * and calls `onNear` when that place comes within a screen's height of the screen.
 */
function PendingRows({ count, colSpan, onNear }: { count: number; colSpan: number; onNear: () => void }) {
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    const row = ref.current;
    if (!row || typeof IntersectionObserver === 'undefined') return onNear();
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onNear(), { rootMargin: '100% 0px' });
    observer.observe(row);
    return () => observer.disconnect();
  }, [onNear]);
  return (
    <tr ref={ref} aria-hidden="true" data-pending-rows={count}>
      <td
        colSpan={colSpan}
        className="h-[calc(var(--rows)*(3.75rem+1px)-0.5px)] p-0 sm:h-[calc(var(--rows)*(3.25rem+1px)-0.5px)]"
        style={{ '--rows': count } as CSSProperties}
      />
    </tr>
  );
}

/** Prenotazioni tab (spec §2): search, status filter (with the ride's phases, decision 022), server paging, details and delete. */
export function BookingsTab() {
  const t = useT();
  const { q, page, setPage, searchBox } = useListSearch();
  const [stato, setStato] = useState<BookingFilter>('tutti');
  const [sedeId, setSedeId] = useSedeFilter();
  const bookings = useAdminBookings({ q, stato, page }, sedeId);
  // A page of rows (each with its dialogs) takes a slow phone's main thread for half a second:
  // it renders in a transition, in slices the browser can interrupt, not in the update that
  // brought it (decision 027). Until then the table shows what it showed.
  const shown = useDeferredValue(bookings.data);
  const rows = bookings.isError ? [] : (shown?.items ?? []);
  const [allRows, showAllRows] = useAllRows();
  const rendered = allRows ? rows : rows.slice(0, FIRST_ROWS);
  const total = bookings.isError ? 0 : (shown?.total ?? 0);
  const filtered = q !== '' || stato !== 'tutti' || sedeId !== undefined;
  const desk = useStaffView().may('banco');
  const remove = useDeleteBooking();
  const sedeBadge = useSedeBadge();

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <SearchBox label={t('bookingsTab.search')} placeholder={t('bookingsTab.searchPlaceholder')} {...searchBox} />
        <NativeSelect
          className="sm:w-56"
          aria-label={t('bookingsTab.filter')}
          value={stato}
          onChange={(e) => {
            setStato(e.target.value as BookingFilter);
            setPage(1);
          }}
        >
          {BOOKING_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {t(f.label)}
            </option>
          ))}
        </NativeSelect>
        <SedeFilter
          value={sedeId}
          onChange={(next) => {
            setSedeId(next);
            setPage(1);
          }}
        />
      </div>
      <ScrollTable label={t('bookingsTab.bookings')} aria-busy={bookings.isFetching}>
        <ColumnHeads
          columns={[
            t('bookingsTab.colId'),
            t('bookingsTab.colUser'),
            t('bookingsTab.colBike'),
            t('bookingsTab.colDate'),
            t('bookingsTab.colTime'),
            t('bookingsTab.colDestination'),
            t('bookingsTab.colStatus'),
            t('bookingsTab.colActions'),
          ]}
        />
        <TableBody>
          {rows.length === 0 ? (
            <StatusRow
              colSpan={8}
              isPending={bookings.isPending || (!bookings.isError && shown === undefined)}
              isError={bookings.isError}
              empty={filtered ? t('bookingsTab.noneFound') : t('bookingsTab.none')}
              onRetry={() => void bookings.refetch()}
            />
          ) : (
            rendered.map((b) => {
              const badge = adminBookingBadge(b);
              return (
                <TableRow key={b.id}>
                  <TableCell className="tabular-nums">{b.id}</TableCell>
                  <TableCell>{personName(b.utente, t)}</TableCell>
                  <TableCell>
                    <span className="flex items-center gap-1 whitespace-nowrap">
                      {b.biciNumero}
                      {sedeBadge(b.sedeId)}
                    </span>
                  </TableCell>
                  <TableCell className="tabular-nums">{formatShortDate(b.dataPrenotazione)}</TableCell>
                  <TableCell className="tabular-nums">{bookingTime(b)}</TableCell>
                  <TableCell className="max-w-48 truncate" title={b.destinazione ?? undefined}>
                    {b.destinazione || t('bookingsTab.notAvailable')}
                  </TableCell>
                  <TableCell>
                    <Badge variant={badge.tone}>{badge.label}</Badge>
                  </TableCell>
                  <TableCell>
                    <div className="flex gap-2">
                      {desk ? <DeskRideActions booking={b} /> : null}
                      <BookingDetails booking={b} />
                      <DeleteBooking booking={b} remove={remove.mutateAsync} />
                    </div>
                  </TableCell>
                </TableRow>
              );
            })
          )}
          {rendered.length < rows.length ? <PendingRows count={rows.length - rendered.length} colSpan={8} onNear={showAllRows} /> : null}
        </TableBody>
      </ScrollTable>
      <Pager label={t('bookingsTab.pages')} page={page} total={total} pageSize={PAGE_SIZE} onPage={setPage} />
    </div>
  );
}
