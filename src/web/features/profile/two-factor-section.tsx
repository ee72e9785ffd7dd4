import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheckIcon, ShieldOffIcon, ShieldPlusIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  totpCodeSchema,
  twoFactorCodeSchema,
  type TwoFactorConfirmedDto,
  type TwoFactorEnrolmentDto,
  type TwoFactorStatusDto,
} from '../../../shared/schemas/two-factor';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api';
import { refreshSession } from '../../lib/session';
import { serverMessage } from '../../lib/api-errors';
import { FormField } from '../../components/form-field';
import { t as appT, useT } from '../../lib/i18n';

/** GET /api/due-fattori (the default query function GETs the key). */
const STATUS_KEY = ['/api/due-fattori'] as const;

/** One code field with its own validation and the server's refusal. */
function CodeForm({
  id,
  label,
  submitLabel,
  icon,
  recovery,
  pending,
  serverError,
  onCode,
}: {
  id: string;
  label: string;
  submitLabel: string;
  icon: React.ReactNode;
  recovery: boolean;
  pending: boolean;
  serverError?: string | undefined;
  onCode: (codice: string) => void;
}) {
  const [error, setError] = useState<string | undefined>();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const schema = recovery ? twoFactorCodeSchema : totpCodeSchema;
    const parsed = schema.safeParse({ codice: new FormData(event.currentTarget).get('codice') });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onCode(parsed.data.codice);
  }
  return (
    <form className="grid gap-3 sm:max-w-sm" noValidate aria-busy={pending} onSubmit={submit}>
      <FormField id={id} label={label} error={error ?? serverError} required>
        {(control) => <Input {...control} name="codice" autoComplete="one-time-code" spellCheck={false} maxLength={32} />}
      </FormField>
      <Button type="submit" disabled={pending} className="justify-self-start">
        {icon}
        {submitLabel}
      </Button>
    </form>
  );
}

/** The ten recovery codes, shown once, right after the second factor is turned on. */
function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const t = useT();
  return (
    <div className="grid gap-3">
      <p role="status" className="font-medium">
        {t('twoFactorSection.active')}
      </p>
      <p className="text-sm text-muted-foreground">
        {t('twoFactorSection.onceEach')}
      </p>
      <ul aria-label={t('twoFactorSection.codes')} className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded-md border bg-muted px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <Button
        className="justify-self-start"
        onClick={onSaved}
      >
        {t('twoFactorSection.saved')}
      </Button>
    </div>
  );
}

/**
 * The profile's `Verifica in due passaggi` (issue 23, decision 030), for admins, in a chunk
 * of its own: enrolment with a QR code and the key as text, the ten recovery codes shown
 * once, and turning it off with a code.
 */
export function TwoFactorSection() {
  const t = useT();
  const queryClient = useQueryClient();
  const status = useQuery<TwoFactorStatusDto>({ queryKey: STATUS_KEY });
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolmentDto | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    // Whether the admin pages open (ADMIN_2FA_REQUIRED) is the session's to say.
    await refreshSession();
  };
  const failure = (fallback: () => string) => (error: unknown) =>
    toast({ variant: 'destructive', title: appT('twoFactorSection.error'), description: serverMessage(error) ?? fallback() });

  const start = useMutation({
    mutationFn: () => apiRequest<TwoFactorEnrolmentDto>('POST', '/api/due-fattori/attivazione'),
    onSuccess: setEnrolment,
    onError: failure(() => appT('twoFactorSection.startFailed')),
  });
  const confirm = useMutation({
    mutationFn: (codice: string) => apiRequest<TwoFactorConfirmedDto>('POST', '/api/due-fattori/conferma', { codice }),
    onSuccess: (result) => {
      setEnrolment(null);
      setCodes(result.codiciRecupero);
      toast({ title: appT('twoFactorSection.turnedOn') });
    },
  });
  const disable = useMutation({
    mutationFn: (codice: string) => apiRequest('POST', '/api/due-fattori/disattivazione', { codice }),
    onSuccess: async () => {
      toast({ title: appT('twoFactorSection.turnedOff') });
      await done();
    },
  });

  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        onSaved={() => {
          setCodes(null);
          void done();
        }}
      />
    );
  }
  if (status.isPending) return <Spinner label={t('twoFactorSection.loading')} showLabel className="py-4" />;
  if (status.isError) return <p role="alert">{serverMessage(status.error) ?? t('twoFactorSection.statusFailed')}</p>;

  if (status.data.attiva) {
    return (
      <div className="grid gap-3">
        <p className="flex items-center gap-2 font-medium">
          <ShieldCheckIcon className="size-5 text-primary" aria-hidden="true" />
          {t('twoFactorSection.on')}
        </p>
        <p className="text-sm text-muted-foreground">{t('twoFactorSection.codesLeft', { n: status.data.codiciRecuperoRimasti })}</p>
        <CodeForm
          id="due-fattori-disattiva"
          label={t('twoFactorSection.disableCode')}
          submitLabel={t('twoFactorSection.disable')}
          icon={<ShieldOffIcon aria-hidden="true" />}
          recovery
          pending={disable.isPending}
          serverError={disable.isError ? serverMessage(disable.error) : undefined}
          onCode={(codice) => disable.mutate(codice)}
        />
      </div>
    );
  }

  return (
    <div className="grid gap-3">
      {status.data.obbligatoria ? (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {t('twoFactorSection.required')}
        </p>
      ) : null}
      {enrolment ? (
        <>
          <p className="text-sm">
            {t('twoFactorSection.scan')}
          </p>
          <img src={enrolment.qrCode} alt={t('twoFactorSection.qrAlt')} width={192} height={192} className="rounded-md border bg-white" />
          <p className="text-sm">
            {t('twoFactorSection.key')} <code className="break-all rounded bg-muted px-1 font-mono" data-testid="chiave-totp">{enrolment.segreto}</code>
          </p>
          <CodeForm
            id="due-fattori-conferma"
            label={t('twoFactorSection.code')}
            submitLabel={t('twoFactorSection.confirm')}
            icon={<ShieldCheckIcon aria-hidden="true" />}
            recovery={false}
            pending={confirm.isPending}
            serverError={confirm.isError ? serverMessage(confirm.error) : undefined}
            onCode={(codice) => confirm.mutate(codice)}
          />
        </>
      ) : (
        <Button className="justify-self-start" disabled={start.isPending} onClick={() => start.mutate()}>
          <ShieldPlusIcon aria-hidden="true" />
          {t('twoFactorSection.enable')}
        </Button>
      )}
    </div>
  );
}
