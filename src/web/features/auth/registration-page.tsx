import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { BadgeCheckIcon, EuroIcon, LoaderCircleIcon, UserPlusIcon } from 'lucide-react';
import { useEffect, useEffectEvent, useMemo } from 'react';
import { useForm, useWatch, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import type { SessionUser } from '../../../shared/api-types';
import type { RegisterRequest } from '../../../shared/schemas/auth';
import { Badge } from '../../components/ui/badge';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiRequest } from '../../lib/api';
import { homePathAfterRegistration } from '../../lib/guards';
import { t, useT } from '../../lib/i18n';
import { refreshSession, setSessionUser } from '../../lib/session';
import { serverFieldErrors, serverMessage } from '../../lib/api-errors';
import { AuthShell, authLinkClass } from '../../components/auth-shell';
import { EmailInput } from './email-input';
import { FormField } from '../../components/form-field';
import {
  registrationFormSchemaFor,
  type RegistrationFormInput,
  type RegistrationFormOutput,
} from './form-schemas';
import { PasswordInput } from '../../components/password-input';
import { autofillDescription, namesToFill, type SiglaStatus } from './sigla-check';
import { SubmitButton } from '../../components/submit-button';
import { useSiglaCheck } from './use-sigla-check';
import { NativeSelect } from '../../components/ui/native-select';
import { usePublicConfig } from '../../lib/public-config';

type FieldName = FieldPath<RegistrationFormInput>;

/** Server error codes that belong to one field of the form. */
const FIELD_OF_CODE: Record<string, FieldName> = {
  EMAIL_TAKEN: 'email',
  SIGLA_TAKEN: 'siglaResidente',
  INVALID_SIGLA: 'siglaResidente',
  SEDE_NOT_FOUND: 'sedeId',
};
const FORM_FIELDS: readonly FieldName[] = ['nome', 'cognome', 'email', 'siglaResidente', 'sedeId', 'password', 'confermaPassword'];

/** The field errors a refused registration carries: its `fields`, or the field of its code. */
function fieldErrorsOf(error: unknown): [FieldName, string][] {
  const fields = serverFieldErrors(error);
  const out = FORM_FIELDS.flatMap((name): [FieldName, string][] => (fields[name] ? [[name, fields[name]]] : []));
  if (out.length > 0 || !(error instanceof ApiError)) return out;
  const { code } = (error.body ?? {}) as { code?: unknown };
  const field = typeof code === 'string' ? FIELD_OF_CODE[code] : undefined;
  return field ? [[field, error.message]] : [];
}

function toRequest({ confermaPassword: _confirm, ...request }: RegistrationFormOutput): RegisterRequest {
  return request;
}

function AccountTypeBadge({ status }: { status: SiglaStatus }) {
  const t = useT();
  if (status.kind === 'checking') {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircleIcon className="size-4 animate-spin text-primary" aria-hidden="true" />
        {t('registrationPage.checkingSigla')}
      </span>
    );
  }
  if (status.kind === 'valid') {
    return (
      <Badge variant="success" className="rounded-md py-1 text-sm whitespace-normal">
        <BadgeCheckIcon aria-hidden="true" />
        {t('registrationPage.residentBadge')}
      </Badge>
    );
  }
  return (
    <Badge variant="warning" className="rounded-md py-1 text-sm whitespace-normal">
      <EuroIcon aria-hidden="true" />
      {t('registrationPage.externalBadge')}
    </Badge>
  );
}

type RegistrationForm = UseFormReturn<RegistrationFormInput, unknown, RegistrationFormOutput>;

/**
 * The resident code as it is typed: checked with the server; a valid one fills the names still
 * empty, with a toast saying so.
 */
function useSiglaAutofill(form: RegistrationForm) {
  const sigla = useWatch({ control: form.control, name: 'siglaResidente' });
  const siglaStatus = useSiglaCheck(sigla);
  const validCode = siglaStatus.kind === 'valid' ? siglaStatus.code : null;

  const fillNamesFromSigla = useEffectEvent(() => {
    if (siglaStatus.kind !== 'valid') return;
    const fill = namesToFill({ nome: form.getValues('nome'), cognome: form.getValues('cognome') }, siglaStatus.data);
    const description = autofillDescription(fill, t);
    if (description === null) return;
    if (fill.nome !== undefined) form.setValue('nome', fill.nome, { shouldValidate: form.formState.isSubmitted });
    if (fill.cognome !== undefined) {
      form.setValue('cognome', fill.cognome, { shouldValidate: form.formState.isSubmitted });
    }
    toast({ title: t('registrationPage.siglaRecognised'), description });
  });
  useEffect(() => {
    if (validCode) fillNamesFromSigla();
  }, [validCode]);
  return siglaStatus;
}

/** The registration request: the person welcomed and sent on, or the server's refusal said at its fields. */
function useRegister(form: RegistrationForm) {
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (request: RegisterRequest) => apiRequest<SessionUser>('POST', '/api/register', request),
    onSuccess: (user) => {
      toast({
        title: t('registrationPage.successTitle'),
        description: t('registrationPage.successDescription'),
      });
      navigate(homePathAfterRegistration(user));
      setSessionUser(user);
      void refreshSession();
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: t('registrationPage.errorTitle'),
        description: serverMessage(error) ?? t('registrationPage.failed'),
      });
      const fieldErrors = fieldErrorsOf(error);
      fieldErrors.forEach(([name, message], i) => form.setError(name, { message }, { shouldFocus: i === 0 }));
    },
  });
}

/**
 * The home sede (issue 47), only when there are several open sedi: required then. The list is
 * GET /api/config's (the page is public).
 */
function SedeField({ form, sedi }: { form: RegistrationForm; sedi: { id: number; nome: string }[] }) {
  const t = useT();
  return (
    <FormField
      id="register-sede"
      label={t('sediRegistration.label')}
      hint={t('sediRegistration.hint')}
      error={form.formState.errors.sedeId?.message}
      required
    >
      {(control) => (
        <NativeSelect {...control} {...form.register('sedeId', { setValueAs: (v: string) => (v === '' ? undefined : Number(v)) })}>
          {sedi.map((s) => (
            <option key={s.id} value={s.id}>
              {s.nome}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
}

/** Registration (spec §2, §5): a resident code makes bookings free. */
export function RegistrationPage() {
  const sedi = usePublicConfig().data?.sedi ?? [];
  const severalSedi = sedi.length > 1;
  const schema = useMemo(() => registrationFormSchemaFor(severalSedi), [severalSedi]);
  const form = useForm<RegistrationFormInput, unknown, RegistrationFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { nome: '', cognome: '', email: '', siglaResidente: '', password: '', confermaPassword: '' },
  });
  // The picker starts on the first sede (the install's own), as an account without a choice would.
  const firstSede = severalSedi ? sedi[0]!.id : undefined;
  useEffect(() => {
    if (firstSede !== undefined && form.getValues('sedeId') === undefined) form.setValue('sedeId', firstSede);
  }, [firstSede, form]);
  const { errors } = form.formState;
  const siglaStatus = useSiglaAutofill(form);
  const register = useRegister(form);
  const t = useT();

  const siglaError =
    errors.siglaResidente?.message ?? (siglaStatus.kind === 'invalid' ? t('registrationPage.invalidSigla') : undefined);

  return (
    <AuthShell
      wide
      title={t('registrationPage.title')}
      description={t('registrationPage.description')}
      footer={
        <p className="text-muted-foreground">
          {t('registrationPage.haveAccount')}{' '}
          <Link href="/login" className={authLinkClass}>
            {t('registrationPage.logIn')}
          </Link>
        </p>
      }
    >
      <form
        className="grid gap-4"
        noValidate
        aria-busy={register.isPending}
        onSubmit={form.handleSubmit((values) => register.mutate(toRequest(values)))}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="register-nome" label={t('registrationPage.nome')} error={errors.nome?.message} required>
            {(control) => <Input {...control} {...form.register('nome')} autoComplete="given-name" />}
          </FormField>
          <FormField id="register-cognome" label={t('registrationPage.cognome')} error={errors.cognome?.message} required>
            {(control) => <Input {...control} {...form.register('cognome')} autoComplete="family-name" />}
          </FormField>
        </div>
        <FormField id="register-email" label={t('loginPage.email')} error={errors.email?.message} required>
          {(control) => <EmailInput {...control} {...form.register('email')} />}
        </FormField>
        <FormField
          id="register-sigla"
          label={t('registrationPage.sigla')}
          hint={t('registrationPage.siglaHint')}
          error={siglaError}
          after={
            <div role="status" className="min-h-7">
              <AccountTypeBadge status={siglaStatus} />
            </div>
          }
        >
          {(control) => (
            <Input
              {...control}
              {...form.register('siglaResidente')}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="uppercase placeholder:normal-case"
              placeholder={t('registrationPage.siglaPlaceholder')}
            />
          )}
        </FormField>
        {severalSedi ? <SedeField form={form} sedi={sedi} /> : null}
        <FormField
          id="register-password"
          label={t('loginPage.password')}
          hint={t('registrationPage.passwordHint')}
          error={errors.password?.message}
          required
        >
          {(control) => <PasswordInput {...control} {...form.register('password')} autoComplete="new-password" />}
        </FormField>
        <FormField
          id="register-conferma"
          label={t('registrationPage.confirmPassword')}
          error={errors.confermaPassword?.message}
          required
        >
          {(control) => (
            <PasswordInput {...control} {...form.register('confermaPassword')} autoComplete="new-password" />
          )}
        </FormField>
        <SubmitButton
          pending={register.isPending}
          pendingLabel={t('registrationPage.submitting')}
          icon={<UserPlusIcon aria-hidden="true" />}
        >
          {t('registrationPage.submit')}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
