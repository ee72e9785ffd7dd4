import { ArrowLeftIcon, CircleAlertIcon } from 'lucide-react';
import type { RouteComponentProps } from 'wouter';
import type { SessionUser } from '../../../shared/api-types';
import { DAMAGE_CATEGORY_LABELS } from '../../../shared/damage';
import type { TicketDto, TicketPhotoDto } from '../../../shared/schemas/interventi';
import { ticketPageId } from '../../../shared/pages';
import { mayAt } from '../../../shared/staff';
import { LinkButton } from '../../components/link-button';
import { LoadFailed } from '../../components/load-failed';
import { SubpageHeader } from '../../components/subpage-header';
import { Badge } from '../../components/ui/badge';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useTimeZone } from '../../lib/public-config';
import { useCurrentUser } from '../../lib/session';
import { useSedeLabel } from '../../lib/sedi';
import { NoteForm } from './note-form';
import { useTicket } from './queries';
import { TicketActions } from './ticket-actions';
import { dateTimeText, durationText, isClosed, TICKET_STATE_BADGE } from './ticket-model';

/** Photos as thumbnails; a tap opens one full size. */
function Photos({ photos, label }: { photos: TicketPhotoDto[]; label: string }) {
  const t = useT();
  if (photos.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-3" aria-label={label}>
      {photos.map((photo, index) => (
        <li key={photo.id}>
          <a
            href={photo.url}
            target="_blank"
            rel="noopener"
            className="block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            aria-label={t('tickets.photoFull', { n: index + 1 })}
          >
            <img src={photo.url} alt="" width={photo.larghezza} height={photo.altezza} className="size-28 rounded-lg border object-cover" />
          </a>
        </li>
      ))}
    </ul>
  );
}

function Facts({ ticket }: { ticket: TicketDto }) {
  const t = useT();
  const timeZone = useTimeZone();
  const sedeLabel = useSedeLabel()(ticket.sedeId);
  const state = TICKET_STATE_BADGE[ticket.stato];
  return (
    <section aria-labelledby="ticket-segnalazione" className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="ticket-segnalazione" className="text-lg font-semibold">
          {t(DAMAGE_CATEGORY_LABELS[ticket.categoria])}
        </h2>
        <Badge variant={state.tone} className="px-3 py-1 text-base">
          {t(state.label)}
        </Badge>
        {ticket.nonUtilizzabile ? <Badge variant="danger">{t('tickets.unusable')}</Badge> : null}
        {sedeLabel ? <Badge variant="outline">{sedeLabel}</Badge> : null}
      </div>
      <p className="text-base break-words whitespace-pre-line">{ticket.descrizione}</p>
      <Photos photos={ticket.foto} label={t('tickets.reportPhotos')} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{t('tickets.reportedBy')}</dt>
        <dd>
          {t('tickets.byAt', { nome: ticket.segnalatoDa?.nome ?? t('tickets.deletedUser'), at: dateTimeText(ticket.createdAt, timeZone) })}
        </dd>
        <dt className="text-muted-foreground">{t('tickets.assignee')}</dt>
        <dd>{ticket.assegnatario?.nome ?? t('tickets.nobody')}</dd>
        <dt className="text-muted-foreground">{t('tickets.timeSpent')}</dt>
        <dd>{durationText(ticket.minutiTotali)}</dd>
        {ticket.chiusoAt ? (
          <>
            <dt className="text-muted-foreground">{t('tickets.closedAt')}</dt>
            <dd>{dateTimeText(ticket.chiusoAt, timeZone)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function Notes({ ticket }: { ticket: TicketDto }) {
  const t = useT();
  const timeZone = useTimeZone();
  return (
    <section aria-labelledby="ticket-note" className="grid gap-3">
      <h2 id="ticket-note" className="text-lg font-semibold">
        {t('tickets.notes')}
      </h2>
      {ticket.note.length === 0 ? (
        <p className="rounded-xl border border-dashed bg-card px-4 py-4 text-center text-muted-foreground">{t('tickets.noNotes')}</p>
      ) : (
        <ol className="grid gap-3">
          {ticket.note.map((note) => (
            <li key={note.id} className="grid gap-2 rounded-xl border bg-card p-4 shadow-sm">
              <p className="text-sm text-muted-foreground">
                {t('tickets.byAt', { nome: note.autore?.nome ?? t('tickets.deletedUser'), at: dateTimeText(note.createdAt, timeZone) })}
                {note.minuti > 0 ? ` · ${durationText(note.minuti)}` : ''}
              </p>
              <p className="break-words whitespace-pre-line">{note.testo}</p>
              <Photos photos={note.foto} label={t('tickets.notePhotos')} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function TicketBody({ id, user }: { id: number; user: SessionUser }) {
  const t = useT();
  const ticket = useTicket(id);
  if (ticket.isPending) return <Spinner label={t('tickets.loadingOne')} showLabel className="py-8" />;
  if (ticket.isError && ticket.error instanceof ApiError && (ticket.error.status === 404 || ticket.error.status === 400)) {
    return (
      <p role="alert" className="flex items-center gap-2 rounded-xl border bg-card p-4">
        <CircleAlertIcon className="size-6 text-destructive" aria-hidden="true" />
        {t('tickets.notFound')}
      </p>
    );
  }
  if (!ticket.data) {
    return (
      <LoadFailed
        className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4"
        message={t('tickets.loadFailedOne')}
        onRetry={() => void ticket.refetch()}
      />
    );
  }
  const data = ticket.data;
  const works = mayAt(user, 'riparazioni', data.sedeId);
  return (
    <>
      <Facts ticket={data} />
      {works && !isClosed(data.stato) ? <TicketActions ticket={data} user={user} /> : null}
      <Notes ticket={data} />
      {works ? <NoteForm ticketId={data.id} /> : null}
    </>
  );
}

/**
 * `/officina/{id}` (issue 48): one ticket, phone-first: the report and its photos (full size on a
 * tap), who reported it, its state and assignee, the notes in time order with their photos, the
 * time spent; for the workshop, `Prendo io`, the closings, `Non utilizzabile`, the assignee and a
 * new note.
 */
export function TicketPage({ params }: RouteComponentProps<{ id: string }>) {
  const t = useT();
  const { data: user } = useCurrentUser();
  const id = ticketPageId(params.id);
  const ticket = useTicket(id);
  if (!user) return <FullScreenSpinner label={t('tickets.loadingOne')} />;
  const numero = ticket.data?.biciNumero;
  return (
    <div className="min-h-dvh pb-12">
      <SubpageHeader title={numero ? t('tickets.bike', { numero }) : t('tickets.titleOne')} description={t('tickets.descriptionOne')} width="max-w-3xl">
        <LinkButton href="/officina" icon={ArrowLeftIcon} variant="outline" size="lg" className="mt-3 min-h-12">
          {t('tickets.backToList')}
        </LinkButton>
      </SubpageHeader>
      <main className="mx-auto grid max-w-3xl gap-4 px-4 pt-6 sm:px-6" aria-busy={ticket.isFetching}>
        <TicketBody id={id} user={user} />
      </main>
    </div>
  );
}
