import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DownloadIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { AccountDeletedDto, DeletionPreviewDto } from '../../../shared/schemas/privacy';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiFetch, apiRequest } from '../../lib/api';
import { saveResponseAsFile } from '../../lib/download';
import { setSessionUser } from '../../lib/session';
import { serverFieldErrors, serverMessage } from '../../lib/api-errors';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { LoadFailed } from '../../components/load-failed';
import type { Translate } from '../../../shared/i18n';
import { t as appT, useT } from '../../lib/i18n';

/*
 * /profilo → I tuoi dati (issue 23, decision 029): `Scarica i miei dati` (one JSON file, made
 * by the server at the request) and `Elimina il mio account` (the password again, after the
 * screen said exactly what will happen). In the profile's own chunk.
 */

const itDate = (d: string) => d.split('-').reverse().join('/');

function DownloadButton() {
  const t = useT();
  const [busy, setBusy] = useState(false);
  async function download() {
    if (busy) return;
    setBusy(true);
    try {
      const res = await apiFetch('GET', '/api/profilo/dati');
      const name = await saveResponseAsFile(res, appT('privacySection.fileName'));
      toast({ title: appT('privacySection.downloaded'), description: appT('privacySection.downloadedText', { nome: name }) });
    } catch (error) {
      toast({ variant: 'destructive', title: appT('privacySection.downloadError'), description: serverMessage(error) ?? appT('privacySection.downloadFailed') });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="outline" className="sm:justify-self-start" onClick={() => void download()} disabled={busy} aria-busy={busy}>
      <ButtonIcon pending={busy} icon={<DownloadIcon aria-hidden="true" />} />
      {t('privacySection.download')}
    </Button>
  );
}

/** The sentences the confirmation shows: what will happen, in order. */
export function deletionConsequences(p: DeletionPreviewDto, t: Translate = appT): string[] {
  const lines: string[] = [];
  for (const b of p.annullate) {
    lines.push(
      t('privacySection.bookingCancelled', { data: itDate(b.dataPrenotazione), inizio: b.orarioInizio, fine: b.orarioFine, numero: b.biciNumero }) +
        (b.rimborso ? t('privacySection.refund') : '.'),
    );
  }
  if (p.attese > 0) lines.push(t('privacySection.waits', { n: p.attese }));
  lines.push(
    p.anonimizzate === 0 ? t('privacySection.nothingKept') : t('privacySection.anonymised', { n: p.anonimizzate }),
  );
  if (p.pagamenti > 0) lines.push(t('privacySection.payments'));
  lines.push(t('privacySection.identity', { email: p.email }));
  lines.push(
    p.sessioni > 1 ? t('privacySection.sessions', { n: p.sessioni }) : t('privacySection.session'),
  );
  if (p.notifichePush > 0 || p.calendario) lines.push(t('privacySection.pushCalendar'));
  lines.push(t('privacySection.lastEmail'));
  return lines;
}

function DeletePanel({ onClose }: { onClose: () => void }) {
  const t = useT();
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const preview = useQuery<DeletionPreviewDto>({ queryKey: ['/api/profilo/eliminazione'], staleTime: 0 });
  const erase = useMutation({
    mutationFn: (pw: string) => apiRequest<AccountDeletedDto>('DELETE', '/api/profilo', { password: pw }),
    onSuccess: async () => {
      // This device forgets the account too (offline data, queue, kept pages), as at logout.
      await import('../../offline/device-data').then((m) => m.forgetDevice()).catch(() => undefined);
      navigate('/login');
      queryClient.clear();
      setSessionUser(null);
      toast({ title: appT('privacySection.deleted'), description: appT('privacySection.deletedText'), duration: 15_000 });
    },
    onError: (e) => {
      const fields = serverFieldErrors(e);
      if (fields.password) {
        setError(fields.password);
        document.getElementById(`${ids}-password`)?.focus();
        return;
      }
      toast({ variant: 'destructive', title: appT('privacySection.error'), description: serverMessage(e) ?? appT('privacySection.deleteFailed') });
    },
  });

  useEffect(() => headingRef.current?.focus(), []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (erase.isPending) return;
    if (password === '') {
      setError(t('privacySection.enterPassword'));
      document.getElementById(`${ids}-password`)?.focus();
      return;
    }
    setError(undefined);
    erase.mutate(password);
  }

  let body: ReactNode;
  if (preview.isPending) {
    body = <Spinner label={t('privacySection.checking')} showLabel className="py-4" />;
  } else if (preview.isError) {
    body = (
      <LoadFailed className="flex flex-col items-start gap-3" message={serverMessage(preview.error) ?? t('privacySection.prepareFailed')} onRetry={() => void preview.refetch()} />
    );
  } else if (preview.data.corsaInCorso || preview.data.ultimoAmministratore) {
    body = (
      <p role="alert" className="text-destructive">
        {preview.data.corsaInCorso
          ? t('privacySection.rideOn', { numero: preview.data.corsaInCorso.biciNumero })
          : t('privacySection.lastAdmin')}
      </p>
    );
  } else {
    body = (
      <form noValidate onSubmit={submit} aria-busy={erase.isPending} className="grid gap-4">
        <div className="grid gap-2">
          <p className="font-medium">{t('privacySection.whatHappens')}</p>
          <ul className="grid list-disc gap-1 pl-5 text-sm">
            {deletionConsequences(preview.data, t).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="text-sm font-medium text-destructive">{t('privacySection.irreversible')}</p>
        </div>
        <FormField id={`${ids}-password`} label={t('privacySection.password')} error={error} required>
          {(control) => (
            <PasswordInput
              {...control}
              autoComplete="current-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                if (error) setError(undefined);
              }}
            />
          )}
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="destructive" disabled={erase.isPending}>
            <ButtonIcon pending={erase.isPending} icon={<Trash2Icon aria-hidden="true" />} />
            {t('privacySection.deleteForever')}
          </Button>
          <Button type="button" variant="outline" onClick={onClose} disabled={erase.isPending}>
            {t('privacySection.cancel')}
          </Button>
        </div>
      </form>
    );
  }

  return (
    <div role="region" aria-labelledby={`${ids}-titolo`} className="grid gap-3 rounded-lg border border-destructive/40 p-4">
      <h3 id={`${ids}-titolo`} ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        {t('privacySection.deleteAccount')}
      </h3>
      {body}
      {preview.data && (preview.data.corsaInCorso || preview.data.ultimoAmministratore) ? (
        <Button type="button" variant="outline" className="justify-self-start" onClick={onClose}>
          {t('privacySection.close')}
        </Button>
      ) : null}
    </div>
  );
}

export function PrivacySection() {
  const t = useT();
  const [deleting, setDeleting] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  return (
    <section aria-labelledby="profilo-tuoi-dati" className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="grid gap-1">
        <h2 id="profilo-tuoi-dati" className="text-lg font-semibold">
          {t('privacySection.title')}
        </h2>
        <p className="text-sm text-muted-foreground">
          {t('privacySection.intro')}
        </p>
      </div>
      <DownloadButton />
      {deleting ? (
        <DeletePanel
          onClose={() => {
            setDeleting(false);
            requestAnimationFrame(() => openRef.current?.focus());
          }}
        />
      ) : (
        <Button ref={openRef} variant="outline" className="text-destructive sm:justify-self-start" onClick={() => setDeleting(true)}>
          <Trash2Icon aria-hidden="true" />
          {t('privacySection.deleteAccount')}
        </Button>
      )}
    </section>
  );
}
