import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogInIcon } from 'lucide-react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import type { ApiErrorBody, SessionUser } from '../../../shared/api-types';
import { LOGIN_REDIRECT_DELAY_MS } from '../../../shared/constants';
import {
  loginSchema,
  REQUIRED_LOGIN_MESSAGE,
  type LoginInput,
  type LoginRequest,
} from '../../../shared/schemas/auth';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { homePathFor } from '../../lib/guards';
import { CURRENT_USER_QUERY_KEY } from '../../lib/session';
import { preloadScreenFor } from '../../screens';
import { serverMessage } from './api-errors';
import { AuthShell, authLinkClass } from './auth-shell';
import { EmailInput } from './email-input';
import { FormField } from './form-field';
import { PasswordInput } from './password-input';
import { rememberPasswordChangeUser } from './pending-password-change';
import { SubmitButton } from './submit-button';

type PasswordChangeBody = ApiErrorBody & { requiresPasswordChange: true; userId: number };

function passwordChangeRequired(error: unknown): PasswordChangeBody | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as Partial<ApiErrorBody>;
  return body.requiresPasswordChange === true && typeof body.userId === 'number' ? (body as PasswordChangeBody) : null;
}

/** Login (spec §2): at /, at /login, and in place of any page that needs a login. */
export function LoginPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const form = useForm<LoginInput, unknown, LoginRequest>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const login = useMutation({
    mutationFn: (credentials: LoginRequest) => apiRequest<SessionUser>('POST', '/api/login', credentials),
    onSuccess: (user) => {
      toast({ title: 'Benvenuto!', description: `Ciao ${user.nome}, ti diamo il bentornato su BiciElis.` });
      // The next screen's chunk downloads during the spec's 100 ms pause.
      preloadScreenFor(homePathFor(user));
      setTimeout(() => {
        // Address first, then the session: the guard never sees the old address with the
        // new user (which would send an admin through /dashboard on the way to /admin).
        navigate(homePathFor(user));
        queryClient.setQueryData(CURRENT_USER_QUERY_KEY, user);
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
      }, LOGIN_REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      const change = passwordChangeRequired(error);
      if (change) {
        rememberPasswordChangeUser(change.userId);
        toast({ title: 'Cambio password richiesto', description: 'Devi impostare una nuova password.' });
        navigate('/cambio-password');
        return;
      }
      toast({ variant: 'destructive', title: 'Errore di accesso', description: serverMessage(error) ?? 'Login failed' });
      // What was typed stays; the password is selected, ready to be typed again.
      form.setFocus('password', { shouldSelect: true });
    },
  });

  function onInvalid(invalid: FieldErrors<LoginInput>) {
    const missing = Object.values(invalid).some((e) => e?.message === REQUIRED_LOGIN_MESSAGE);
    if (missing) toast({ variant: 'destructive', title: 'Campi obbligatori', description: REQUIRED_LOGIN_MESSAGE });
  }

  return (
    <AuthShell
      title="Accedi"
      description="Inserisci l'email e la password del tuo account."
      footer={
        <>
          <Link href="/recupera-password" className={authLinkClass}>
            Password dimenticata?
          </Link>
          <p className="text-muted-foreground">
            Non hai un account?{' '}
            <Link href="/registrazione" className={authLinkClass}>
              Registrati
            </Link>
          </p>
        </>
      }
    >
      <form
        className="grid gap-4"
        noValidate
        aria-busy={login.isPending}
        onSubmit={form.handleSubmit((credentials) => login.mutate(credentials), onInvalid)}
      >
        <FormField id="login-email" label="Email" error={errors.email?.message} required>
          {(control) => <EmailInput {...control} {...form.register('email')} />}
        </FormField>
        <FormField id="login-password" label="Password" error={errors.password?.message} required>
          {(control) => <PasswordInput {...control} {...form.register('password')} autoComplete="current-password" />}
        </FormField>
        <SubmitButton pending={login.isPending} pendingLabel="Accesso in corso..." icon={<LogInIcon aria-hidden="true" />}>
          Accedi
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
