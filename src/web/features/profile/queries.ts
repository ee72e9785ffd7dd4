import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarLinkDto, ProfileDto } from '../../../shared/schemas/profile';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { currentSession, setSessionUser } from '../../lib/session';
import { serverMessage } from '../../lib/api-errors';
import { t } from '../../lib/i18n';

/** GET /api/profilo (the default query function GETs the key). */
export const PROFILE_QUERY_KEY = ['/api/profilo'] as const;

export function useProfile() {
  return useQuery<ProfileDto>({ queryKey: PROFILE_QUERY_KEY });
}

const failure = (fallback: () => string) => (error: unknown) =>
  toast({ variant: 'destructive', title: t('profile.error'), description: serverMessage(error) ?? fallback() });

/** PATCH /api/profilo: the answer is the whole profile; a new name also goes to the session (the headers show it). */
export function useUpdateProfile(success: (profile: ProfileDto) => { title: string; description?: string }, fallback: () => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: { nome?: string; cognome?: string; promemoria?: boolean }) =>
      apiRequest<ProfileDto>('PATCH', '/api/profilo', changes),
    onSuccess: (profile) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
      const user = currentSession().data;
      if (user && (user.nome !== profile.nome || user.cognome !== profile.cognome)) {
        setSessionUser({ ...user, nome: profile.nome, cognome: profile.cognome });
      }
      toast(success(profile));
    },
    onError: failure(fallback),
  });
}

/** POST /api/profilo/password: the other sessions end, this one stays. */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (request: { passwordAttuale: string; nuovaPassword: string }) => apiRequest('POST', '/api/profilo/password', request),
    onSuccess: () =>
      toast({ title: t('profile.passwordChanged'), description: t('profile.passwordChangedText') }),
    onError: failure(() => t('profile.passwordFailed')),
  });
}

/** POST /api/profilo/calendario: a new private link (the previous one stops working). */
export function useCreateCalendarLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<CalendarLinkDto>('POST', '/api/profilo/calendario'),
    onSuccess: () => {
      queryClient.setQueryData<ProfileDto>(PROFILE_QUERY_KEY, (p) => (p ? { ...p, calendarioAttivo: true } : p));
    },
    onError: failure(() => t('profile.createLinkFailed')),
  });
}

/** DELETE /api/profilo/calendario */
export function useRevokeCalendarLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/profilo/calendario'),
    onSuccess: () => {
      queryClient.setQueryData<ProfileDto>(PROFILE_QUERY_KEY, (p) => (p ? { ...p, calendarioAttivo: false } : p));
      toast({ title: t('profile.linkRevoked'), description: t('profile.linkRevokedText') });
    },
    onError: failure(() => t('profile.revokeFailed')),
  });
}
