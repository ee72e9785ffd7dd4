import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { ProfileDto } from '../../../shared/schemas/profile';
import { SectionCard } from '../../components/section-card';
import { NativeSelect } from '../../components/ui/native-select';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { t, useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { currentSession, setSessionUser } from '../../lib/session';
import { PROFILE_QUERY_KEY } from './queries';

/**
 * `Sede` (issue 47): the person's home sede, where the booking form opens (`PATCH /api/profilo
 * { sedeId }`). Shown only when the install has several open sedi: with one there is nothing to choose.
 */
export function SedeSection({ profile }: { profile: ProfileDto }) {
  const tr = useT();
  const id = useId();
  const { open, several } = useSedi();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (sedeId: number) => apiRequest<ProfileDto>('PATCH', '/api/profilo', { sedeId }),
    onSuccess: (next) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, next);
      const user = currentSession().data;
      if (user) setSessionUser({ ...user, sedeId: next.sedeId });
      toast({ title: t('sediProfile.saved') });
    },
    onError: (error) => toast({ variant: 'destructive', title: t('profile.error'), description: serverMessage(error) ?? t('profile.saveFailed') }),
  });
  if (!several) return null;
  const chosen = update.isPending ? update.variables : profile.sedeId;
  return (
    <SectionCard id="profilo-sede" title={tr('sediProfile.title')} description={tr('sediProfile.hint')}>
      <label htmlFor={`${id}-sede`} className="sr-only">
        {tr('sediProfile.title')}
      </label>
      <NativeSelect
        id={`${id}-sede`}
        value={String(chosen)}
        disabled={update.isPending}
        onChange={(event) => update.mutate(Number(event.target.value))}
      >
        {open.map((s) => (
          <option key={s.id} value={s.id}>
            {s.nome}
          </option>
        ))}
      </NativeSelect>
    </SectionCard>
  );
}
