import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LINGUE, type Lingua } from '../../../shared/i18n';
import type { ProfileDto } from '../../../shared/schemas/profile';
import { SectionCard } from '../../components/section-card';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { currentSession, setSessionUser } from '../../lib/session';
import { switchLingua, t, useT } from '../../lib/i18n';
import { serverMessage } from '../../lib/api-errors';
import { PROFILE_QUERY_KEY } from './queries';

/** Each language by its own name: a person finds theirs whatever the page is in. */
const NAMES: Record<Lingua, string> = { it: 'Italiano', en: 'English' };

/**
 * `Lingua` (issue 36): the account's language, on every device (`PATCH /api/profilo { lingua }`).
 * The app follows at once, without a reload; the server's answers, emails, notices and the
 * pages it renders follow the account.
 */
export function LanguageSection({ profile }: { profile: ProfileDto }) {
  const tr = useT();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (lingua: Lingua) => apiRequest<ProfileDto>('PATCH', '/api/profilo', { lingua }),
    onSuccess: async (next) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, next);
      const user = currentSession().data;
      if (user) setSessionUser({ ...user, lingua: next.lingua });
      // The server wrote the cookie from the account: the app follows without writing it again.
      await switchLingua(next.lingua, { remember: false });
      toast({ title: t('languageSection.saved') });
    },
    onError: (error) => toast({ variant: 'destructive', title: t('languageSection.errorTitle'), description: serverMessage(error) ?? t('languageSection.failed') }),
  });
  const chosen = update.isPending ? update.variables : profile.lingua;
  return (
    <SectionCard id="profilo-lingua" title={tr('languageSection.title')} description={tr('languageSection.description')}>
      <fieldset className="grid gap-2 sm:grid-cols-2" disabled={update.isPending}>
        <legend className="sr-only">{tr('languageSection.title')}</legend>
        {LINGUE.map((code) => (
          <label
            key={code}
            lang={code}
            className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border bg-card px-3 py-2 hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-brand-50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring"
          >
            <input
              type="radio"
              name="lingua"
              value={code}
              checked={chosen === code}
              onChange={() => update.mutate(code)}
              className="size-5 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
            />
            <span className="font-medium">{NAMES[code]}</span>
          </label>
        ))}
      </fieldset>
    </SectionCard>
  );
}
