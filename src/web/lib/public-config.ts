import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../shared/api-types';
import { FALLBACK_TIME_ZONE } from './booking-labels';

export const PUBLIC_CONFIG_QUERY_KEY = ['/api/config'] as const;

/** GET /api/config: time zone, booking horizon, payment provider. Read once per page load. */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: PUBLIC_CONFIG_QUERY_KEY });
}

/** The college's time zone (TZ_APP) as GET /api/config says it; the server renders with the same answer. */
export function useTimeZone(): string {
  return usePublicConfig().data?.timeZone ?? FALLBACK_TIME_ZONE;
}
