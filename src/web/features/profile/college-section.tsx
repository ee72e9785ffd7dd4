import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon, Trash2Icon } from 'lucide-react';
import { Link } from 'wouter';
import type { CollegeAccountDto } from '../../../shared/schemas/oidc';
import { dayMonth } from '../../../shared/i18n/format';
import { zonedToday } from '../../../shared/time';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { LoadFailed } from '../../components/load-failed';
import { SectionCard } from '../../components/section-card';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { t as appT, Trans, useLingua, useT } from '../../lib/i18n';
import { usePublicConfig, useTimeZone } from '../../lib/public-config';

/*
 * /profilo → Account del collegio (issue 49): the college account linked to this one, and
 * `Scollega` (asked twice) when the account has a password; without one the college account
 * is the way in, and the section says to set a password first (the recovery flow).
 */

const URL = '/api/profilo/account-collegio';

function useDay() {
  const lingua = useLingua();
  const timeZone = useTimeZone();
  return (iso: string) => dayMonth(zonedToday(new Date(iso), timeZone), true, lingua);
}

function Linked({ account }: { account: CollegeAccountDto & { collegato: NonNullable<CollegeAccountDto['collegato']> } }) {
  const t = useT();
  const day = useDay();
  const queryClient = useQueryClient();
  const unlink = useMutation({
    mutationFn: () => apiRequest<{ message: string }>('DELETE', URL),
    onSuccess: (answer) => {
      toast({ title: appT('collegeProfile.unlinked'), description: answer?.message });
      void queryClient.invalidateQueries({ queryKey: [URL] });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: appT('profile.error'), description: serverMessage(error) ?? appT('collegeProfile.unlinkFailed') }),
  });
  const { collegato } = account;
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        <Trans
          id="collegeProfile.linked"
          values={{ email: collegato.email, data: day(collegato.collegatoIl) }}
          components={{ 0: <strong className="break-all" /> }}
        />
        {collegato.ultimoAccesso ? ` ${t('collegeProfile.lastUse', { data: day(collegato.ultimoAccesso) })}` : null}
      </p>
      {account.password ? (
        <ConfirmDeleteDialog
          trigger={
            <Button variant="outline" className="justify-self-start text-destructive hover:text-destructive" disabled={unlink.isPending}>
              <Trash2Icon aria-hidden="true" />
              {t('collegeProfile.unlink')}
            </Button>
          }
          title={t('collegeProfile.unlinkTitle')}
          description={t('collegeProfile.unlinkText')}
          confirmLabel={t('collegeProfile.unlink')}
          onConfirm={() => unlink.mutateAsync().catch(() => undefined)}
        />
      ) : (
        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground">{t('collegeProfile.needsPassword')}</p>
          <Button asChild variant="outline" className="justify-self-start">
            <Link href="/recupera-password">
              <KeyRoundIcon aria-hidden="true" />
              {t('collegeProfile.setPassword')}
            </Link>
          </Button>
        </div>
      )}
    </div>
  );
}

/** The section: shown when the college login is configured, or an account is linked all the same. */
export function CollegeSection() {
  const t = useT();
  const configured = Boolean(usePublicConfig().data?.accessoCollegio);
  const account = useQuery<CollegeAccountDto>({ queryKey: [URL] });
  // Not configured: only an account linked all the same is shown (and nothing while it is read).
  if (!configured && !account.data?.collegato) return null;

  let body;
  if (account.isPending) body = <Spinner label={t('collegeProfile.loading')} showLabel className="py-4" />;
  else if (account.isError) {
    body = (
      <LoadFailed
        className="flex flex-col items-start gap-3"
        message={serverMessage(account.error) ?? t('collegeProfile.loadFailed')}
        onRetry={() => void account.refetch()}
      />
    );
  } else if (account.data.collegato) body = <Linked account={{ ...account.data, collegato: account.data.collegato }} />;
  else {
    body = (
      <p className="text-sm text-muted-foreground">
        {t('collegeProfile.notLinked', { etichetta: account.data.etichetta ?? t('collegeProfile.defaultLabel') })}
      </p>
    );
  }
  return (
    <SectionCard id="profilo-account-collegio" title={t('collegeProfile.title')} description={t('collegeProfile.description')}>
      {body}
    </SectionCard>
  );
}
