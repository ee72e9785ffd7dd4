import { usePublicConfig } from './public-config';

/**
 * The open sedi (issue 47), the first first, as GET /api/config gives them: the server renders
 * /dashboard and /admin with the same answer, so a page adopts its HTML without asking for more
 * (decision 039). `several` is what every screen asks before it shows a sede at all: an install
 * with one open sede shows no picker, column or word. The admins' page lists every sede, archived
 * too, from its own query (GET /api/admin/sedi).
 */
export function useSedi() {
  const open = usePublicConfig().data?.sedi ?? [];
  return { open, several: open.length > 1, nameOf: (id: number) => open.find((s) => s.id === id)?.nome ?? '' };
}

/**
 * The name a booking's card adds after its bike (issue 47), or null: only when the install has
 * several open sedi.
 */
export function useSedeLabel(): (sedeId: number | undefined) => string | null {
  const { several, nameOf } = useSedi();
  return (sedeId) => (several && sedeId !== undefined ? nameOf(sedeId) || null : null);
}
