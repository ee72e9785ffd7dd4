import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../shared/api-types';

export const PUBLIC_CONFIG_QUERY_KEY = ['/api/config'] as const;

/** GET /api/config: time zone, booking horizon, payment provider. Read once per page load. */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: PUBLIC_CONFIG_QUERY_KEY });
}
