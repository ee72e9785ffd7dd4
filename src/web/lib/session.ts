import { useQuery, type QueryFunction } from '@tanstack/react-query';
import type { SessionUser } from '../../shared/api-types';
import { getQueryFn } from './api';

export const CURRENT_USER_QUERY_KEY = ['/api/current-user'] as const;

const fetchCurrentUser = getQueryFn<SessionUser>({ on401: 'returnNull' });

/**
 * A 401 means anonymous. Any other failure (network down, server error) is also treated
 * as anonymous, so the login screen shows instead of a blank page.
 */
const currentUserQueryFn: QueryFunction<SessionUser | null> = async (context) => {
  try {
    return await fetchCurrentUser(context);
  } catch {
    return null;
  }
};

/** The logged-in user (`null` when anonymous), read once and kept until invalidated. */
export function useCurrentUser() {
  return useQuery({ queryKey: CURRENT_USER_QUERY_KEY, queryFn: currentUserQueryFn });
}
