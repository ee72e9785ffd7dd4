import { ArrowLeftIcon, BikeIcon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '../../../shared/api-types';
import { useT } from '../../lib/i18n';
import { useStarted } from '../../lib/started';
import { PRIVACY_DATA_ID, PRIVACY_PLACEHOLDERS, PRIVACY_RETENTION_TEXT, type PrivacyInfo } from '../../../shared/privacy';

/** The served page's data block; the placeholders while pre-rendering (no document); null otherwise. */
function initialInfo(): PrivacyInfo | null {
  if (typeof document === 'undefined') return PRIVACY_PLACEHOLDERS;
  const block = document.getElementById(PRIVACY_DATA_ID);
  if (!block?.textContent) return null;
  try {
    const info = JSON.parse(block.textContent) as Partial<PrivacyInfo>;
    return typeof info.titolare === 'string' && typeof info.contatto === 'string' ? { titolare: info.titolare, contatto: info.contatto } : null;
  } catch {
    return null;
  }
}

/** The page opened without the server's data block (the installed app's copy): the same data from GET /api/config. */
function usePrivacyInfo(): PrivacyInfo | null {
  const [info, setInfo] = useState(initialInfo);
  useEffect(() => {
    if (info) return;
    let live = true;
    void fetch('/api/config', { credentials: 'same-origin' })
      .then((res) => (res.ok ? (res.json() as Promise<PublicConfig>) : null))
      .then((config) => {
        if (live && config?.privacy) setInfo(config.privacy);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [info]);
  return info;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * /privacy (issue 23): the privacy notice (GDPR art. 13), public, pre-rendered like /login.
 * BiciElis sets only technical cookies: no consent banner is needed.
 */
export function PrivacyPage() {
  useStarted();
  const t = useT();
  const info = usePrivacyInfo();
  const titolare = info?.titolare ?? 'il titolare indicato dal collegio';
  const contatto = info?.contatto ?? 'i contatti del collegio';
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 pt-8 pb-8 leading-relaxed sm:px-6">
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-xl bg-primary text-primary-foreground">
          <BikeIcon className="size-6" aria-hidden="true" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight">Informativa sulla privacy</h1>
      </div>
      <p>
        Questa informativa spiega come BiciElis, il servizio di prenotazione delle biciclette del collegio, tratta i tuoi
        dati personali, ai sensi degli articoli 13 e 14 del Regolamento (UE) 2016/679 (GDPR).
      </p>
      <Section title="Titolare del trattamento">
        <p>
          Il titolare del trattamento è <strong>{titolare}</strong>. Per qualsiasi domanda sui tuoi dati puoi scrivere a{' '}
          <strong>{contatto}</strong>.
        </p>
      </Section>
      <Section title="Quali dati raccogliamo e perché">
        <ul className="list-disc grid gap-1 pl-6">
          <li>
            <strong>Dati dell&apos;account</strong>: nome, cognome, email, password (conservata solo in forma cifrata
            irreversibile) e, per i residenti, la sigla del collegio. Servono a riconoscerti e a gestire il tuo account.
          </li>
          <li>
            <strong>Prenotazioni e uso delle biciclette</strong>: data, orari, bicicletta, destinazione (facoltativa),
            ritiro, riconsegna ed eventuali segnalazioni di danni. Servono a erogare il servizio, a evitare
            sovrapposizioni e a tenere in ordine il parco biciclette.
          </li>
          <li>
            <strong>Pagamenti</strong> degli utenti esterni: importo, stato e identificativi del pagamento. I dati della
            carta sono trattati direttamente dal fornitore dei pagamenti e non arrivano mai a BiciElis.
          </li>
          <li>
            <strong>Dati tecnici</strong>: la sessione di accesso, i tentativi di accesso (per proteggere gli account),
            le preferenze di promemoria e, se le attivi, le iscrizioni alle notifiche del dispositivo.
          </li>
        </ul>
      </Section>
      <Section title="Base giuridica">
        <p>
          Trattiamo i dati per eseguire il servizio che richiedi (art. 6.1.b GDPR: prenotazioni, pagamenti, promemoria),
          per adempiere a obblighi di legge, ad esempio contabili (art. 6.1.c), e per il legittimo interesse del collegio
          alla sicurezza del servizio e alla cura delle biciclette (art. 6.1.f).
        </p>
      </Section>
      <Section title="Responsabili del trattamento">
        <p>
          I dati sono trattati su server gestiti dal collegio. Alcuni fornitori li trattano per nostro conto, come
          responsabili del trattamento: <strong>Stripe</strong> per i pagamenti con carta e il{' '}
          <strong>fornitore del servizio email</strong> con cui inviamo conferme, promemoria e report. Non vendiamo né
          cediamo i tuoi dati a terzi per altri scopi.
        </p>
      </Section>
      <Section title="Per quanto tempo li conserviamo">
        <p>
          Conserviamo prenotazioni e dati di utilizzo per {t(PRIVACY_RETENTION_TEXT)}; i dati dell&apos;account finché
          l&apos;account esiste. I dati dei pagamenti si conservano per il tempo richiesto dalla legge.
        </p>
      </Section>
      <Section title="Cookie">
        <p>
          BiciElis usa solo <strong>cookie tecnici</strong>, necessari all&apos;accesso e al funzionamento del servizio
          (la sessione). Non usa cookie di profilazione né di terze parti per statistiche o pubblicità: per questo non
          ti chiediamo un consenso.
        </p>
      </Section>
      <Section title="I tuoi diritti">
        <p>
          Puoi chiedere l&apos;accesso ai tuoi dati, la rettifica, la cancellazione, la limitazione del trattamento, la
          portabilità e opporti al trattamento. Dal tuo profilo puoi farlo da solo: <strong>Scarica i miei dati</strong>{' '}
          ti dà una copia dei tuoi dati, <strong>Elimina il mio account</strong> li cancella. Per tutto il resto scrivi a{' '}
          <strong>{contatto}</strong>. Hai anche il diritto di proporre reclamo al Garante per la protezione dei dati
          personali (www.garanteprivacy.it).
        </p>
      </Section>
      <p>
        <a href="/login" className="inline-flex min-h-11 items-center font-medium text-primary underline underline-offset-4">
          <ArrowLeftIcon className="mr-1 size-4" aria-hidden="true" />
          Torna a BiciElis
        </a>
      </p>
    </main>
  );
}
