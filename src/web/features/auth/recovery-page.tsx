import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeftIcon, CircleAlertIcon, InfoIcon, MailCheckIcon, SendIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import {
  resetPasswordSchema,
  type ResetPasswordInput,
  type ResetPasswordRequest,
} from '../../../shared/schemas/auth';
import { Button } from '../../components/ui/button';
import { apiRequest } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { recoveryErrorMessage } from '../../lib/api-errors';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { EmailInput } from './email-input';
import { FormField } from '../../components/form-field';
import { SubmitButton } from '../../components/submit-button';

function BackToLogin() {
  const t = useT();
  return (
    <Link href="/login" className={authLinkClass}>
      <ArrowLeftIcon className="mr-1 size-4" aria-hidden="true" />
      {t('accountScreens.backToLogin')}
    </Link>
  );
}

/** Password recovery (spec §2): asks for the email, then says a temporary password is on its way. */
export function RecoveryPage() {
  const t = useT();
  const form = useForm<ResetPasswordInput, unknown, ResetPasswordRequest>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors } = form.formState;

  const reset = useMutation({
    mutationFn: (request: ResetPasswordRequest) => apiRequest('POST', '/api/reset-password', request),
  });

  if (reset.isSuccess) {
    return (
      <AuthShell title={t('recoveryPage.sentTitle')} focusKey="sent" footer={<BackToLogin />}>
        <div className="grid gap-4">
          <div className="flex items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
            <MailCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <div className="grid gap-2 text-sm">
              <p className="font-medium">{t('recoveryPage.sentMessage')}</p>
              <p>{t('recoveryPage.sentHint')}</p>
            </div>
          </div>
          <Button variant="outline" className="w-full" onClick={() => reset.reset()}>
            {t('recoveryPage.sendAgain')}
          </Button>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={t('recoveryPage.title')}
      description={t('recoveryPage.description')}
      focusKey="form"
      footer={<BackToLogin />}
    >
      <form
        className="grid gap-4"
        noValidate
        aria-busy={reset.isPending}
        onSubmit={form.handleSubmit((request) => reset.mutate(request))}
      >
        <div className="flex items-start gap-3 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900">
          <InfoIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p>{t('recoveryPage.info')}</p>
        </div>
        <FormField id="recovery-email" label={t('loginPage.email')} error={errors.email?.message} required>
          {(control) => <EmailInput {...control} {...form.register('email')} />}
        </FormField>
        {reset.isError ? (
          <div
            role="alert"
            className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
          >
            <CircleAlertIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <p>{recoveryErrorMessage(reset.error, t)}</p>
          </div>
        ) : null}
        <SubmitButton pending={reset.isPending} pendingLabel={t('recoveryPage.submitting')} icon={<SendIcon aria-hidden="true" />}>
          {t('recoveryPage.submit')}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
