import { LogInIcon } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { ApiErrorBody, SessionUser } from '../../../shared/api-types';
import type { LoginRequest } from '../../../shared/schemas/auth';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { useHydrated } from '../../lib/hydrated';
import { prefetchOnIntent, whenInteracted } from '../../lib/interaction';
import { returnPathAfterLogin } from '../../lib/guards';
import { useScreenRegistry } from '../../lib/screen-registry';
import { useStarted } from '../../lib/started';
import { t, useT } from '../../lib/i18n';
import { serverMessage } from '../../lib/api-errors';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { EmailInput } from './email-input';
import { PasskeyLoginSlot } from './passkey-login-slot';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { rememberPasswordChangeUser } from './pending-password-change';
import { SubmitButton } from '../../components/submit-button';
import { welcome } from './welcome';
import { CollegeLoginSlot } from './college-login-slot';

/**
 * The shared schema of POST /api/login, with zod, is not in the first download: it is
 * fetched at the first touch or key (or at the first submit) and checks the form as the
 * server will. See docs/decisions/019-first-paint.md.
 */
const loadLoginValidation = () => import('./login-validation');

/** The login's code step (its own screen, in the account screens' chunk). */
export const TWO_FACTOR_PATH = '/verifica-accesso';

type LoginField = 'email' | 'password';
type LoginErrors = Partial<Record<LoginField, string>>;

type PasswordChangeBody = ApiErrorBody & { requiresPasswordChange: true; userId: number };

/** 403 `requiresTwoFactor`: the password was right, the code step follows (decision 030). */
function twoFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && (error.body as { requiresTwoFactor?: unknown } | null)?.requiresTwoFactor === true;
}

function passwordChangeRequired(error: unknown): PasswordChangeBody | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null;
  const body = error.body as Partial<ApiErrorBody>;
  return body.requiresPasswordChange === true && typeof body.userId === 'number' ? (body as PasswordChangeBody) : null;
}

/**
 * The login form's state and its submission: checked in the browser (the validation loads at
 * the first touch), then sent, one request per submit; a refusal says why and selects the
 * password, a right one welcomes the person (welcome.ts).
 */
function useLoginForm() {
  const [location, navigate] = useLocation();
  // Shown in place of a page to go back to after the login (a bike's page, issue 34), if it is one.
  const back = returnPathAfterLogin(location);
  const screens = useScreenRegistry();
  const [errors, setErrors] = useState<LoginErrors>({});
  /** After a refused submit the fields are checked again as they change (as forms do here). */
  const [checked, setChecked] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  /** The login request: one at a time (TanStack Query is not in this screen's download). */
  const [pending, setPending] = useState(false);
  /** Set from the submit to the answer, across the validation's await too: one request per submit. */
  const submitting = useRef(false);

  // The validation (zod and the shared schema) comes as soon as the person starts using the form.
  useEffect(() => whenInteracted(() => void loadLoginValidation()), []);

  function focusPassword() {
    const input = formRef.current?.elements.namedItem('password');
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
  }

  function refused(error: unknown) {
    if (twoFactorRequired(error)) {
      navigate(back ? `${TWO_FACTOR_PATH}?next=${encodeURIComponent(back)}` : TWO_FACTOR_PATH);
      return;
    }
    const change = passwordChangeRequired(error);
    if (change) {
      rememberPasswordChangeUser(change.userId);
      toast({ title: t('loginPage.passwordChangeTitle'), description: t('loginPage.passwordChangeDescription') });
      navigate('/cambio-password');
      return;
    }
    toast({ variant: 'destructive', title: t('loginPage.errorTitle'), description: serverMessage(error) ?? t('loginPage.failed') });
    // What was typed stays; the password is selected, ready to be typed again.
    focusPassword();
  }

  async function logIn(credentials: LoginRequest) {
    setPending(true);
    try {
      const user = await apiRequest<SessionUser>('POST', '/api/login', credentials);
      setPending(false);
      welcome(user, navigate, screens, back);
    } catch (error) {
      setPending(false);
      refused(error);
    }
  }

  async function validate(form: HTMLFormElement) {
    const { checkLogin } = await loadLoginValidation();
    const data = new FormData(form);
    return checkLogin({ email: data.get('email'), password: data.get('password') });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    try {
      await submit(event.currentTarget);
    } finally {
      submitting.current = false;
    }
  }

  async function submit(form: HTMLFormElement) {
    let result: Awaited<ReturnType<typeof validate>>;
    try {
      result = await validate(form);
    } catch {
      toast({ variant: 'destructive', title: t('loginPage.errorTitle'), description: t('loginPage.connectionError') });
      return;
    }
    setChecked(true);
    setErrors(result.errors);
    if (result.ok) {
      await logIn(result.request);
      return;
    }
    const first = (['email', 'password'] as const).find((field) => result.errors[field]);
    const input = first ? form.elements.namedItem(first) : null;
    if (input instanceof HTMLInputElement) input.focus();
    if (result.missing) toast({ variant: 'destructive', title: t('loginPage.missingTitle'), description: result.missingMessage });
  }

  async function onChange(event: FormEvent<HTMLFormElement>) {
    if (!checked) return;
    const result = await validate(event.currentTarget).catch(() => null);
    if (result) setErrors(result.errors);
  }
  return { errors, pending, formRef, onSubmit, onChange };
}

/** Login (spec §2): at /, at /login, and in place of any page that needs a login. */
export function LoginPage() {
  useStarted();
  const screens = useScreenRegistry();
  /** The other account screens' chunk starts downloading when a link to them is about to be followed. */
  const prefetchAccountScreens = prefetchOnIntent(() => screens.preload('/registrazione'));
  const hydrated = useHydrated();
  const { errors, pending, formRef, onSubmit, onChange } = useLoginForm();
  const t = useT();

  return (
    <AuthShell
      title={t('loginPage.title')}
      description={t('loginPage.description')}
      footer={
        <>
          <Link href="/recupera-password" className={authLinkClass} {...prefetchAccountScreens}>
            {t('loginPage.forgotPassword')}
          </Link>
          <p className="text-muted-foreground">
            {t('loginPage.noAccount')}{' '}
            <Link href="/registrazione" className={authLinkClass} {...prefetchAccountScreens}>
              {t('loginPage.register')}
            </Link>
          </p>
        </>
      }
    >
      {/* method="post": a submit before the page is live (impossible: the button waits) never
          puts the password in an address. */}
      <form
        ref={formRef}
        method="post"
        className="grid gap-4"
        noValidate
        aria-busy={pending}
        onSubmit={(event) => void onSubmit(event)}
        onChange={(event) => void onChange(event)}
      >
        <FormField id="login-email" label={t('loginPage.email')} error={errors.email} required>
          {(control) => <EmailInput {...control} name="email" autoComplete="username webauthn" />}
        </FormField>
        <FormField id="login-password" label={t('loginPage.password')} error={errors.password} required>
          {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" />}
        </FormField>
        <SubmitButton
          pending={pending}
          disabled={!hydrated}
          pendingLabel={t('loginPage.submitting')}
          icon={<LogInIcon aria-hidden="true" />}
        >
          {t('loginPage.submit')}
        </SubmitButton>
        <PasskeyLoginSlot form={formRef} />
      </form>
      <CollegeLoginSlot />
    </AuthShell>
  );
}
