import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BikeIcon, LoaderCircleIcon, LogInIcon } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { ApiErrorBody, SessionUser } from '../../../shared/api-types';
import { LOGIN_REDIRECT_DELAY_MS } from '../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { homePathFor } from '../../lib/guards';
import { CURRENT_USER_QUERY_KEY } from '../../lib/session';
import { rememberPasswordChangeUser } from './pending-password-change';

interface Credentials {
  email: string;
  password: string;
}

type PasswordChangeBody = ApiErrorBody & { requiresPasswordChange: true; userId: number };

function passwordChangeRequired(error: unknown): PasswordChangeBody | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as Partial<ApiErrorBody>;
  return body.requiresPasswordChange === true && typeof body.userId === 'number' ? (body as PasswordChangeBody) : null;
}

const linkClass =
  'inline-flex min-h-11 items-center font-medium text-primary underline underline-offset-4 hover:text-primary-hover';

export function LoginPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();

  const login = useMutation({
    mutationFn: (credentials: Credentials) => apiRequest<SessionUser>('POST', '/api/login', credentials),
    onSuccess: (user) => {
      toast({ title: 'Benvenuto!', description: `Ciao ${user.nome}, bentornato su BiciElis.` });
      setTimeout(() => {
        navigate(homePathFor(user));
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
      toast({
        variant: 'destructive',
        title: 'Errore di accesso',
        description: error instanceof ApiError ? error.message : 'Login failed',
      });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    login.mutate({ email: String(data.get('email') ?? '').trim(), password: String(data.get('password') ?? '') });
  }

  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-8">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="flex size-16 items-center justify-center rounded-2xl bg-primary text-primary-foreground shadow-md">
            <BikeIcon className="size-9" aria-hidden="true" />
          </span>
          <h1 className="text-3xl font-bold tracking-tight">BiciElis</h1>
          <p className="text-muted-foreground">Prenota una bicicletta del collegio</p>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Accedi</CardTitle>
            <CardDescription>Inserisci l&apos;email e la password del tuo account.</CardDescription>
          </CardHeader>
          <CardContent>
            <form className="grid gap-4" onSubmit={onSubmit} aria-busy={login.isPending}>
              <div className="grid gap-2">
                <Label htmlFor="login-email">Email</Label>
                <Input
                  id="login-email"
                  name="email"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  autoCapitalize="none"
                  spellCheck={false}
                  required
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="login-password">Password</Label>
                <Input id="login-password" name="password" type="password" autoComplete="current-password" required />
              </div>
              <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
                {login.isPending ? (
                  <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
                ) : (
                  <LogInIcon aria-hidden="true" />
                )}
                Accedi
              </Button>
            </form>
          </CardContent>
          <CardFooter className="flex-col gap-1 text-sm">
            <Link href="/recupera-password" className={linkClass}>
              Password dimenticata?
            </Link>
            <p className="text-muted-foreground">
              Non hai un account?{' '}
              <Link href="/registrazione" className={linkClass}>
                Registrati
              </Link>
            </p>
          </CardFooter>
        </Card>
      </div>
    </main>
  );
}
