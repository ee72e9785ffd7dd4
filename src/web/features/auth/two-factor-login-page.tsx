import { ArrowLeftIcon, ShieldCheckIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { SessionUser } from '../../../shared/api-types';
import { twoFactorCodeSchema } from '../../../shared/schemas/two-factor';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useScreenRegistry } from '../../lib/screen-registry';
import { serverMessage } from '../../lib/api-errors';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { FormField } from '../../components/form-field';
import { SubmitButton } from '../../components/submit-button';
import { PasskeySecondFactor } from './passkey-second-factor';
import { welcome } from './welcome';

/**
 * The login's second step (issue 23, decision 030): after a right password, an admin with a
 * second factor types the code of their authenticator app, or one of their recovery codes.
 * The server holds the pending state in its own cookie; without it (expired, or another
 * browser) the answer sends the person back to the login.
 */
export function TwoFactorLoginPage() {
  const t = useT();
  const [, navigate] = useLocation();
  // The page the login was shown in place of (`?next=`, set by the login form): checked by welcome().
  const next = new URLSearchParams(useSearch()).get('next');
  const screens = useScreenRegistry();
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  function expired(message: string) {
    toast({ variant: 'destructive', title: t('twoFactorLoginPage.refusedTitle'), description: message });
    navigate('/login');
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const parsed = twoFactorCodeSchema.safeParse({ codice: new FormData(form).get('codice') });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      (form.elements.namedItem('codice') as HTMLInputElement | null)?.focus();
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      const user = await apiRequest<SessionUser>('POST', '/api/login/codice', parsed.data);
      welcome(user, navigate, screens, next);
    } catch (err) {
      setPending(false);
      const message = serverMessage(err) ?? t('loginPage.connectionError');
      if (err instanceof ApiError && err.status === 403) {
        expired(message);
        return;
      }
      setError(message);
      const input = form.elements.namedItem('codice');
      if (input instanceof HTMLInputElement) {
        input.focus();
        input.select();
      }
    }
  }

  return (
    <AuthShell
      title={t('twoFactorLoginPage.title')}
      description={t('twoFactorLoginPage.description')}
      footer={
        <Link href="/login" className={authLinkClass}>
          <ArrowLeftIcon className="mr-1 size-4" aria-hidden="true" />
          {t('accountScreens.backToLogin')}
        </Link>
      }
    >
      <form className="grid gap-4" noValidate aria-busy={pending} onSubmit={(event) => void submit(event)}>
        <FormField id="login-codice" label={t('twoFactorLoginPage.code')} error={error} required>
          {(control) => (
            <Input
              {...control}
              name="codice"
              inputMode="text"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={32}
              placeholder="123456"
            />
          )}
        </FormField>
        <p className="text-sm text-muted-foreground">{t('twoFactorLoginPage.recoveryCodes')}</p>
        <SubmitButton pending={pending} pendingLabel={t('twoFactorLoginPage.submitting')} icon={<ShieldCheckIcon aria-hidden="true" />}>
          {t('twoFactorLoginPage.submit')}
        </SubmitButton>
      </form>
      <PasskeySecondFactor onUser={(user) => welcome(user, navigate, screens, next)} onExpired={expired} />
    </AuthShell>
  );
}
