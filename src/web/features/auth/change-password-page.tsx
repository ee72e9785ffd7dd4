import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearch } from 'wouter';
import type { ChangePasswordRequest } from '../../../shared/schemas/auth';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { setSessionUser } from '../../lib/session';
import { serverMessage } from '../../lib/api-errors';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { FormField } from '../../components/form-field';
import {
  changePasswordFormSchema,
  passwordChangeUserId,
  type ChangePasswordFormInput,
  type ChangePasswordFormOutput,
} from './form-schemas';
import { PasswordInput } from '../../components/password-input';
import { forgetPasswordChangeUser, pendingPasswordChangeUser } from './pending-password-change';
import { SubmitButton } from '../../components/submit-button';

/** Forced change of a temporary password (spec §2, §5), reached from the login. */
export function ChangePasswordPage() {
  const t = useT();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [storedUserId] = useState(pendingPasswordChangeUser);
  const userId = passwordChangeUserId(search, storedUserId);

  const form = useForm<ChangePasswordFormInput, unknown, ChangePasswordFormOutput>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { newPassword: '', confermaPassword: '' },
  });
  const { errors } = form.formState;

  // Without a user id there is nothing to change: back to the login, once.
  const sentAway = useRef(false);
  useEffect(() => {
    if (userId !== null || sentAway.current) return;
    sentAway.current = true;
    toast({ variant: 'destructive', title: t('changePasswordPage.errorTitle'), description: t('changePasswordPage.sessionExpired') });
    navigate('/login', { replace: true });
  }, [userId, navigate, t]);

  const change = useMutation({
    mutationFn: (request: ChangePasswordRequest) => apiRequest('POST', '/api/change-password', request),
    onSuccess: () => {
      forgetPasswordChangeUser();
      toast({ title: t('changePasswordPage.successTitle'), description: t('changePasswordPage.successDescription') });
      // The change ends every session of the user: whoever was logged in is not any more.
      setSessionUser(null);
      navigate('/login');
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: t('changePasswordPage.errorTitle'),
        description: serverMessage(error) ?? t('changePasswordPage.failed'),
      });
      form.setFocus('newPassword');
    },
  });

  if (userId === null) return <FullScreenSpinner label={t('changePasswordPage.sessionExpired')} />;

  return (
    <AuthShell
      title={t('changePasswordPage.title')}
      description={t('changePasswordPage.description')}
      footer={
        <Link href="/login" className={authLinkClass}>
          {t('accountScreens.backToLogin')}
        </Link>
      }
    >
      <form
        className="grid gap-4"
        noValidate
        aria-busy={change.isPending}
        onSubmit={form.handleSubmit(({ newPassword }) => change.mutate({ userId, newPassword }))}
      >
        <FormField
          id="change-new"
          label={t('changePasswordPage.newPassword')}
          hint={t('changePasswordPage.hint')}
          error={errors.newPassword?.message}
          required
        >
          {(control) => <PasswordInput {...control} {...form.register('newPassword')} autoComplete="new-password" />}
        </FormField>
        <FormField id="change-confirm" label={t('changePasswordPage.confirm')} error={errors.confermaPassword?.message} required>
          {(control) => (
            <PasswordInput {...control} {...form.register('confermaPassword')} autoComplete="new-password" />
          )}
        </FormField>
        <SubmitButton
          pending={change.isPending}
          pendingLabel={t('changePasswordPage.submitting')}
          icon={<KeyRoundIcon aria-hidden="true" />}
        >
          {t('changePasswordPage.submit')}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
