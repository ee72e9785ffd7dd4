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
import { recoveryErrorMessage } from './api-errors';
import { AuthShell, authLinkClass } from './auth-shell';
import { EmailInput } from './email-input';
import { FormField } from './form-field';
import { SubmitButton } from './submit-button';

export const RECOVERY_SENT_MESSAGE = "Se l'email esiste nel nostro sistema, riceverai una nuova password temporanea";

const backToLogin = (
  <Link href="/login" className={authLinkClass}>
    <ArrowLeftIcon className="mr-1 size-4" aria-hidden="true" />
    Torna al login
  </Link>
);

/** Password recovery (spec §2): asks for the email, then says a temporary password is on its way. */
export function RecoveryPage() {
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
      <AuthShell title="Email Inviata" focusKey="sent" footer={backToLogin}>
        <div className="grid gap-4">
          <div className="flex items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
            <MailCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <div className="grid gap-2 text-sm">
              <p className="font-medium">{RECOVERY_SENT_MESSAGE}</p>
              <p>
                Usa la password temporanea per accedere: al primo accesso ti chiederemo di sceglierne una nuova. Se non
                trovi l&apos;email, controlla anche la cartella spam.
              </p>
            </div>
          </div>
          <Button variant="outline" className="w-full" onClick={() => reset.reset()}>
            Invia di nuovo
          </Button>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Recupera password"
      description="Inserisci l'email del tuo account: ti invieremo una password temporanea."
      focusKey="form"
      footer={backToLogin}
    >
      <form
        className="grid gap-4"
        noValidate
        aria-busy={reset.isPending}
        onSubmit={form.handleSubmit((request) => reset.mutate(request))}
      >
        <div className="flex items-start gap-3 rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900">
          <InfoIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p>
            Riceverai via email una password temporanea: usala per accedere e, al primo accesso, scegli una nuova
            password.
          </p>
        </div>
        <FormField id="recovery-email" label="Email" error={errors.email?.message} required>
          {(control) => <EmailInput {...control} {...form.register('email')} />}
        </FormField>
        {reset.isError ? (
          <div
            role="alert"
            className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
          >
            <CircleAlertIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <p>{recoveryErrorMessage(reset.error)}</p>
          </div>
        ) : null}
        <SubmitButton pending={reset.isPending} pendingLabel="Invio in corso..." icon={<SendIcon aria-hidden="true" />}>
          Invia password temporanea
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
