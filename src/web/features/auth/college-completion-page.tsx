import { useMutation, useQuery } from '@tanstack/react-query';
import { BadgeCheckIcon, LoaderCircleIcon, UserPlusIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { SessionUser } from '../../../shared/api-types';
import type { OidcCompletionDto as CompletionDto } from '../../../shared/schemas/oidc';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { FormField } from '../../components/form-field';
import { LoadFailed } from '../../components/load-failed';
import { SubmitButton } from '../../components/submit-button';
import { Checkbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { serverMessage } from '../../lib/api-errors';
import { homePathAfterRegistration } from '../../lib/guards';
import { t, Trans, useT } from '../../lib/i18n';
import { refreshSession, setSessionUser } from '../../lib/session';
import { checkCompletion, type CompletionErrors, type CompletionRequest, type CompletionValues, type Path } from './college-completion-model';
import { useSiglaCheck } from './use-sigla-check';

/*
 * /accesso/completa (issue 49): a first login with the college account whose email has no
 * account yet. The provider's email (read-only) and names, then the resident path (the sigla,
 * checked as it is typed, as /registrazione does) or the external one, and the privacy notice.
 * The pending login lives in a cookie (30 min): without it, the screen says so and links /login.
 */

const COMPLETION_URL = '/api/auth/oidc/completamento';

const isExpired = (error: unknown) => error instanceof ApiError && error.status === 404;
const SIGLA_CODES = new Set(['INVALID_SIGLA', 'SIGLA_TAKEN']);

function Expired() {
  const t = useT();
  return (
    <div role="alert" className="grid gap-3">
      <p className="font-medium text-destructive">{t('collegeCompletion.expiredTitle')}</p>
      <p>{t('collegeCompletion.expired')}</p>
      <Link href="/login" className={authLinkClass}>
        {t('collegeCompletion.backToLogin')}
      </Link>
    </div>
  );
}

/** The two paths, as a radio group; the one the email suggests comes first. */
function PathChoice({ path, residentFirst, onChange }: { path: Path; residentFirst: boolean; onChange: (p: Path) => void }) {
  const t = useT();
  const ids = useId();
  const options: { value: Path; label: string; hint: string }[] = [
    { value: 'residente', label: t('collegeCompletion.resident'), hint: t('collegeCompletion.residentHint') },
    { value: 'esterno', label: t('collegeCompletion.external'), hint: t('collegeCompletion.externalHint') },
  ];
  if (!residentFirst) options.reverse();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{t('collegeCompletion.kind')}</legend>
      {options.map((option) => (
        <div
          key={option.value}
          className="relative flex min-h-11 items-start gap-3 rounded-md border border-input p-3 has-[:checked]:border-primary has-[:checked]:bg-primary/5"
        >
          <input
            id={`${ids}-${option.value}`}
            type="radio"
            name="percorso"
            value={option.value}
            checked={path === option.value}
            onChange={() => onChange(option.value)}
            aria-describedby={`${ids}-${option.value}-hint`}
            className="mt-1 size-4 accent-primary"
          />
          <div className="grid gap-0.5">
            {/* The whole box takes the tap: the label's ::after covers it. */}
            <label htmlFor={`${ids}-${option.value}`} className="cursor-pointer font-medium after:absolute after:inset-0 after:content-['']">
              {option.label}
            </label>
            <p id={`${ids}-${option.value}-hint`} className="text-sm text-muted-foreground">
              {option.hint}
            </p>
          </div>
        </div>
      ))}
    </fieldset>
  );
}

function SiglaStatusLine({ kind }: { kind: ReturnType<typeof useSiglaCheck>['kind'] }) {
  const t = useT();
  if (kind === 'checking') {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircleIcon className="size-4 animate-spin text-primary" aria-hidden="true" />
        {t('registrationPage.checkingSigla')}
      </span>
    );
  }
  if (kind === 'valid') {
    return (
      <span className="inline-flex items-center gap-2 text-sm font-medium text-success">
        <BadgeCheckIcon className="size-4" aria-hidden="true" />
        {t('registrationPage.residentBadge')}
      </span>
    );
  }
  return null;
}

function useComplete(onExpired: () => void, onSiglaRefused: (message: string) => void) {
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (body: CompletionRequest) =>
      apiRequest<SessionUser>('POST', COMPLETION_URL, body),
    onSuccess: (user) => {
      toast({ title: t('collegeCompletion.successTitle'), description: t('collegeCompletion.successDescription', { nome: user.nome }) });
      navigate(homePathAfterRegistration(user));
      setSessionUser(user);
      void refreshSession();
    },
    onError: (error) => {
      if (isExpired(error)) return onExpired();
      const code = error instanceof ApiError ? (error.body as { code?: unknown } | null)?.code : undefined;
      if (typeof code === 'string' && SIGLA_CODES.has(code)) onSiglaRefused(error.message);
      toast({ variant: 'destructive', title: t('collegeCompletion.errorTitle'), description: serverMessage(error) ?? t('collegeCompletion.failed') });
    },
  });
}

function CompletionForm({ data, onExpired }: { data: CompletionDto; onExpired: () => void }) {
  const t = useT();
  const [values, setValues] = useState<CompletionValues>({
    nome: data.nome ?? '',
    cognome: data.cognome ?? '',
    path: data.residente ? 'residente' : 'esterno',
    sigla: '',
    privacy: false,
  });
  const [errors, setErrors] = useState<CompletionErrors>({});
  const sigla = useSiglaCheck(values.path === 'residente' ? values.sigla : '');
  const complete = useComplete(onExpired, (message) => setErrors((e) => ({ ...e, sigla: message })));
  const set = <K extends keyof CompletionValues>(key: K, value: CompletionValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    // A field's error goes as it changes; changing the path takes the sigla's with it.
    const field: keyof CompletionErrors = key === 'path' ? 'sigla' : (key as keyof CompletionErrors);
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (complete.isPending) return;
    const found = checkCompletion(values, sigla.kind, t);
    setErrors(found.errors);
    if (!found.request) {
      // The first wrong field, in the form's order (its error is not on the page yet).
      const first = (['nome', 'cognome', 'sigla', 'privacy'] as const).find((field) => found.errors[field]);
      if (first) document.getElementById(`completa-${first}`)?.focus();
      return;
    }
    complete.mutate(found.request);
  }

  const siglaError =
    errors.sigla ?? (values.path === 'residente' && sigla.kind === 'invalid' ? t('registrationPage.invalidSigla') : undefined);

  return (
    <form className="grid gap-4" noValidate aria-busy={complete.isPending} onSubmit={submit}>
      <FormField id="completa-email" label={t('collegeCompletion.email')}>
        {(control) => <Input {...control} type="email" value={data.email} readOnly className="bg-muted" />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="completa-nome" label={t('registrationPage.nome')} error={errors.nome} required>
          {(control) => <Input {...control} autoComplete="given-name" maxLength={100} value={values.nome} onChange={(e) => set('nome', e.target.value)} />}
        </FormField>
        <FormField id="completa-cognome" label={t('registrationPage.cognome')} error={errors.cognome} required>
          {(control) => (
            <Input {...control} autoComplete="family-name" maxLength={100} value={values.cognome} onChange={(e) => set('cognome', e.target.value)} />
          )}
        </FormField>
      </div>
      <PathChoice path={values.path} residentFirst={data.residente} onChange={(p) => set('path', p)} />
      {values.path === 'residente' ? (
        <FormField
          id="completa-sigla"
          label={t('collegeCompletion.sigla')}
          hint={t('collegeCompletion.siglaHint')}
          error={siglaError}
          required
          after={
            <div role="status" className="min-h-6">
              <SiglaStatusLine kind={sigla.kind} />
            </div>
          }
        >
          {(control) => (
            <Input
              {...control}
              value={values.sigla}
              onChange={(e) => set('sigla', e.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="uppercase placeholder:normal-case"
              placeholder={t('registrationPage.siglaPlaceholder')}
            />
          )}
        </FormField>
      ) : null}
      <div className="grid gap-2">
        <div className="flex items-start gap-3">
          <Checkbox
            id="completa-privacy"
            className="mt-0.5"
            checked={values.privacy}
            onCheckedChange={(checked) => set('privacy', checked === true)}
            aria-invalid={Boolean(errors.privacy)}
            aria-describedby={errors.privacy ? 'completa-privacy-error' : undefined}
            aria-required="true"
          />
          <label htmlFor="completa-privacy" className="text-sm leading-6">
            <Trans
              id="collegeCompletion.privacy"
              components={{ 0: <a href="/privacy" target="_blank" rel="noopener" className="font-medium text-primary underline underline-offset-4" /> }}
            />
          </label>
        </div>
        {errors.privacy ? (
          <p id="completa-privacy-error" className="text-sm font-medium text-destructive">
            {errors.privacy}
          </p>
        ) : null}
      </div>
      <SubmitButton pending={complete.isPending} pendingLabel={t('collegeCompletion.submitting')} icon={<UserPlusIcon aria-hidden="true" />}>
        {t('collegeCompletion.submit')}
      </SubmitButton>
    </form>
  );
}

/** The completion form's screen: loading, expired, failed, or the form. */
export function CollegeCompletionPage() {
  const t = useT();
  const query = useQuery<CompletionDto>({ queryKey: [COMPLETION_URL], retry: false, staleTime: Infinity });
  const [expired, setExpired] = useState(false);

  let body;
  if (expired || (query.isError && isExpired(query.error))) body = <Expired />;
  else if (query.isPending) body = <Spinner label={t('collegeCompletion.loading')} showLabel className="py-6" />;
  else if (query.isError) {
    body = (
      <LoadFailed
        className="flex flex-col items-start gap-3"
        message={serverMessage(query.error) ?? t('collegeCompletion.loadFailed')}
        onRetry={() => void query.refetch()}
      />
    );
  } else body = <CompletionForm data={query.data} onExpired={() => setExpired(true)} />;

  return (
    <AuthShell wide title={t('collegeCompletion.title')} description={t('collegeCompletion.description')} focusKey={expired ? 'expired' : 'form'}>
      {body}
    </AuthShell>
  );
}
