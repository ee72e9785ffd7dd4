import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TicketDto, TicketSummaryDto } from '../../../shared/schemas/interventi';
import type { TicketState } from '../../../shared/staff';
import type { PlainKey } from '../../../shared/schemas/message';
import { toast } from '../../components/ui/use-toast';
import { apiGet, apiRequest, apiSendForm } from '../../lib/api';
import { isNetworkFailure, serverMessage } from '../../lib/api-errors';
import { t } from '../../lib/i18n';
import { ticketQueryKey, TICKETS_KEY } from '../../lib/query-keys';

/** A refusal told in the person's language (the server's sentence), or the screen's own text. */
const failure = (fallback: PlainKey) => (error: unknown) =>
  toast({
    variant: 'destructive',
    title: t('tickets.error'),
    description: isNetworkFailure(error) ? t('tickets.offline') : (serverMessage(error) ?? t(fallback)),
  });


export interface TicketsFilter {
  stato?: 'aperti' | 'chiusi' | 'tutti';
  sedeId?: number;
  biciId?: number;
}

export function ticketsUrl(filter: TicketsFilter): string {
  const params = new URLSearchParams();
  if (filter.stato) params.set('stato', filter.stato);
  if (filter.sedeId !== undefined) params.set('sedeId', String(filter.sedeId));
  if (filter.biciId !== undefined) params.set('biciId', String(filter.biciId));
  const query = params.toString();
  return query ? `/api/interventi?${query}` : '/api/interventi';
}

export const ticketsQueryKey = (filter: TicketsFilter) => [...TICKETS_KEY, 'list', filter] as const;

/**
 * GET /api/interventi: the tickets of the user's sedi, newest first. The open ones come with
 * `/admin`'s page when the server renders it (OPEN_TICKETS_QUERY_KEY); a change to a ticket reads
 * every list again.
 */
export const useTickets = (filter: TicketsFilter, { refetchInterval }: { refetchInterval?: number } = {}) =>
  useQuery<TicketSummaryDto[]>({
    queryKey: ticketsQueryKey(filter),
    queryFn: ({ signal }) => apiGet<TicketSummaryDto[]>(ticketsUrl(filter), 'throw', signal) as Promise<TicketSummaryDto[]>,
    refetchInterval,
  });

/** GET /api/interventi/{id}. */
export const useTicket = (id: number) =>
  useQuery<TicketDto>({
    queryKey: ticketQueryKey(id),
    queryFn: ({ signal }) => apiGet<TicketDto>(`/api/interventi/${id}`, 'throw', signal) as Promise<TicketDto>,
    staleTime: 0,
  });

/** The ticket as the server answered it, and every list read again. */
function settle(client: QueryClient, ticket: TicketDto): void {
  client.setQueryData(ticketQueryKey(ticket.id), ticket);
  void client.invalidateQueries({ queryKey: [...TICKETS_KEY, 'list'] });
}

export interface TicketChange {
  stato?: TicketState;
  assegnatarioId?: number | null;
  nonUtilizzabile?: boolean;
}

/** PATCH /api/interventi/{id}: take it, assign it, close it, or say the bike may not be used. */
export function useChangeTicket(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: TicketChange) => apiRequest<TicketDto>('PATCH', `/api/interventi/${id}`, change),
    onSuccess: (ticket) => settle(client, ticket),
    onError: failure('tickets.changeFailed'),
  });
}

export interface NewNote {
  testo: string;
  minuti?: number;
  foto: File[];
}

/** POST /api/interventi/{id}/note, multipart: the text, the minutes, up to 3 photos. */
export function useAddNote(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (note: NewNote) => {
      const form = new FormData();
      form.append('testo', note.testo.trim());
      if (note.minuti !== undefined) form.append('minuti', String(note.minuti));
      for (const file of note.foto) form.append('foto', file, file.name);
      return apiSendForm<TicketDto>('POST', `/api/interventi/${id}/note`, form);
    },
    onSuccess: (ticket) => settle(client, ticket),
    onError: failure('tickets.noteFailed'),
  });
}
