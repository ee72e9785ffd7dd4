import { useQuery } from '@tanstack/react-query';
import type { SedeDto } from '../../shared/schemas/sedi';
import { usePublicConfig } from './public-config';

export const SEDI_QUERY_KEY = ['/api/sedi'] as const;

/**
 * GET /api/sedi (issue 47): every sede, the open ones first. `several` is what every screen asks
 * before it shows a sede at all: an install with one open sede shows no picker, column or word.
 */
export function useSedi(enabled = true) {
  const query = useQuery<SedeDto[]>({ queryKey: SEDI_QUERY_KEY, staleTime: 5 * 60_000, enabled });
  const open = (query.data ?? []).filter((s) => !s.archiviata);
  return { ...query, open, several: open.length > 1, nameOf: (id: number) => query.data?.find((s) => s.id === id)?.nome ?? '' };
}

/**
 * The name a booking's card adds after its bike (issue 47), or null: only when the install has
 * several open sedi. From GET /api/config, which the server renders /dashboard with, so the card
 * is the same on the server and in the browser (decision 039).
 */
export function useSedeLabel(): (sedeId: number | undefined) => string | null {
  const sedi = usePublicConfig().data?.sedi ?? [];
  return (sedeId) => (sedi.length > 1 ? (sedi.find((s) => s.id === sedeId)?.nome ?? null) : null);
}
