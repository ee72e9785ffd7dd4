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
import { serverFieldErrors, serverMessage } from '../auth/api-errors';
import { FormField } from '../auth/form-field';
import { PasswordInput } from '../auth/password-input';
import { LoadFailed } from '../../components/load-failed';

/*
 * /profilo → I tuoi dati (issue 23, decision 029): `Scarica i miei dati` (one JSON file, made
 * by the server at the request) and `Elimina il mio account` (the password again, after the
 * screen said exactly what will happen). In the profile's own chunk.
 */

const itDate = (d: string) => d.split('-').reverse().join('/');

function DownloadButton() {
  const [busy, setBusy] = useState(false);
  async function download() {
    if (busy) return;
    setBusy(true);
    try {
      const res = await apiFetch('GET', '/api/profilo/dati');
      const name = await saveResponseAsFile(res, 'bicielis-dati.json');
      toast({ title: 'Dati scaricati', description: `Il file ${name} contiene tutti i dati del tuo account.` });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Errore download', description: serverMessage(error) ?? 'Impossibile scaricare i tuoi dati. Riprova.' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="outline" className="sm:justify-self-start" onClick={() => void download()} disabled={busy} aria-busy={busy}>
      <ButtonIcon pending={busy} icon={<DownloadIcon aria-hidden="true" />} />
      Scarica i miei dati
    </Button>
  );
}

/** The sentences the confirmation shows: what will happen, in order. */
export function deletionConsequences(p: DeletionPreviewDto): string[] {
  const lines: string[] = [];
  for (const b of p.annullate) {
    lines.push(
      `La prenotazione del ${itDate(b.dataPrenotazione)} dalle ${b.orarioInizio} alle ${b.orarioFine} (bici ${b.biciNumero}) sarà annullata` +
        (b.rimborso ? ' e i 2,50 € pagati ti saranno rimborsati.' : '.'),
    );
  }
  if (p.attese > 0) lines.push(p.attese === 1 ? 'Uscirai dalla lista d’attesa in cui sei.' : `Uscirai dalle ${p.attese} liste d’attesa in cui sei.`);
  lines.push(
    p.anonimizzate === 0
      ? 'Non hai prenotazioni da conservare.'
      : `${p.anonimizzate === 1 ? 'La tua prenotazione resterà' : `Le tue ${p.anonimizzate} prenotazioni resteranno`} solo come dato anonimo per le statistiche, senza il tuo nome.`,
  );
  if (p.pagamenti > 0) lines.push('I pagamenti restano nella contabilità del servizio, senza alcun legame con te.');
  lines.push(
    `Il tuo nome, la tua email (${p.email}) e la tua sigla saranno cancellati ovunque, anche dal registro delle modifiche degli amministratori.`,
  );
  lines.push(
    p.sessioni > 1 ? `Verrai disconnesso da tutti i ${p.sessioni} dispositivi collegati, compreso questo.` : 'Verrai disconnesso da questo dispositivo.',
  );
  if (p.notifichePush > 0 || p.calendario) lines.push('Le notifiche e il link del calendario smetteranno di funzionare.');
  lines.push('Riceverai un’ultima email di conferma. Potrai registrarti di nuovo con la stessa email e la stessa sigla.');
  return lines;
}

function DeletePanel({ onClose }: { onClose: () => void }) {
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
      toast({ title: 'Account eliminato', description: 'I tuoi dati sono stati cancellati. Ti abbiamo inviato un’ultima email di conferma.', duration: 15_000 });
    },
    onError: (e) => {
      const fields = serverFieldErrors(e);
      if (fields.password) {
        setError(fields.password);
        document.getElementById(`${ids}-password`)?.focus();
        return;
      }
      toast({ variant: 'destructive', title: 'Errore', description: serverMessage(e) ?? 'Impossibile eliminare l’account' });
    },
  });

  useEffect(() => headingRef.current?.focus(), []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (erase.isPending) return;
    if (password === '') {
      setError('Inserisci la tua password per confermare');
      document.getElementById(`${ids}-password`)?.focus();
      return;
    }
    setError(undefined);
    erase.mutate(password);
  }

  let body: ReactNode;
  if (preview.isPending) {
    body = <Spinner label="Controllo di cosa verrà eliminato..." showLabel className="py-4" />;
  } else if (preview.isError) {
    body = (
      <LoadFailed className="flex flex-col items-start gap-3" message={serverMessage(preview.error) ?? 'Impossibile preparare l’eliminazione.'} onRetry={() => void preview.refetch()} />
    );
  } else if (preview.data.corsaInCorso || preview.data.ultimoAmministratore) {
    body = (
      <p role="alert" className="text-destructive">
        {preview.data.corsaInCorso
          ? `Hai ritirato la bici ${preview.data.corsaInCorso.biciNumero}: riconsegnala prima di eliminare l’account.`
          : 'Sei l’ultimo amministratore attivo: nomina un altro amministratore prima di eliminare il tuo account.'}
      </p>
    );
  } else {
    body = (
      <form noValidate onSubmit={submit} aria-busy={erase.isPending} className="grid gap-4">
        <div className="grid gap-2">
          <p className="font-medium">Ecco cosa succederà:</p>
          <ul className="grid list-disc gap-1 pl-5 text-sm">
            {deletionConsequences(preview.data).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="text-sm font-medium text-destructive">Non si può annullare.</p>
        </div>
        <FormField id={`${ids}-password`} label="Password" error={error} required>
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
            Elimina definitivamente
          </Button>
          <Button type="button" variant="outline" onClick={onClose} disabled={erase.isPending}>
            Annulla
          </Button>
        </div>
      </form>
    );
  }

  return (
    <div role="region" aria-labelledby={`${ids}-titolo`} className="grid gap-3 rounded-lg border border-destructive/40 p-4">
      <h3 id={`${ids}-titolo`} ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        Elimina il mio account
      </h3>
      {body}
      {preview.data && (preview.data.corsaInCorso || preview.data.ultimoAmministratore) ? (
        <Button type="button" variant="outline" className="justify-self-start" onClick={onClose}>
          Chiudi
        </Button>
      ) : null}
    </div>
  );
}

export function PrivacySection() {
  const [deleting, setDeleting] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  return (
    <section aria-labelledby="profilo-tuoi-dati" className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="grid gap-1">
        <h2 id="profilo-tuoi-dati" className="text-lg font-semibold">
          I tuoi dati
        </h2>
        <p className="text-sm text-muted-foreground">
          Scarica in un file tutto ciò che BiciElis conserva di te: account, prenotazioni, pagamenti, segnalazioni, avvisi, dispositivi collegati.
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
          Elimina il mio account
        </Button>
      )}
    </section>
  );
}
