import { ArchiveIcon, ArrowLeftIcon, MapPinIcon, PencilIcon, PlusIcon, RefreshCwIcon, RotateCcwIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { AdminSedeDto } from '../../../shared/schemas/sedi';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { LinkButton } from '../../components/link-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { FormDialog } from './form-dialog';
import { useAdminSedi, useArchiveSede, useCreateSede, useReactivateSede, useUpdateSede } from './sedi-queries';

interface Fields {
  nome: string;
  indirizzo: string;
  notaRastrelliera: string;
}

const EMPTY: Fields = { nome: '', indirizzo: '', notaRastrelliera: '' };
const fieldsOf = (s: AdminSedeDto): Fields => ({ nome: s.nome, indirizzo: s.indirizzo, notaRastrelliera: s.notaRastrelliera ?? '' });
/** The body of POST and PUT: the lengths are the table's (shared/schemas/sedi.ts). */
const body = (f: Fields) => ({ nome: f.nome.trim(), indirizzo: f.indirizzo.trim(), notaRastrelliera: f.notaRastrelliera.trim() || null });

function SedeFields({ fields, onChange }: { fields: Fields; onChange: (next: Fields) => void }) {
  const t = useT();
  const id = useId();
  return (
    <>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-nome`}>{t('sediPage.name')}</Label>
        <Input id={`${id}-nome`} value={fields.nome} onChange={(e) => onChange({ ...fields, nome: e.target.value })} maxLength={80} required />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-indirizzo`}>{t('sediPage.address')}</Label>
        <Input id={`${id}-indirizzo`} value={fields.indirizzo} onChange={(e) => onChange({ ...fields, indirizzo: e.target.value })} maxLength={200} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-nota`}>{t('sediPage.rackNote')}</Label>
        <Input
          id={`${id}-nota`}
          value={fields.notaRastrelliera}
          onChange={(e) => onChange({ ...fields, notaRastrelliera: e.target.value })}
          placeholder={t('sediPage.rackNotePlaceholder')}
          maxLength={200}
        />
      </div>
    </>
  );
}

function AddSede() {
  const t = useT();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const create = useCreateSede();
  return (
    <FormDialog
      onOpen={() => setFields(EMPTY)}
      pending={create.isPending}
      trigger={
        <Button size="sm">
          <PlusIcon aria-hidden="true" />
          {t('sediPage.add')}
        </Button>
      }
      title={t('sediPage.add')}
      description={t('sediPage.addDescription')}
      onSubmit={() => create.mutateAsync(body(fields))}
      canSubmit={fields.nome.trim() !== ''}
      submitLabel={t('sediPage.create')}
    >
      <SedeFields fields={fields} onChange={setFields} />
    </FormDialog>
  );
}

function EditSede({ sede }: { sede: AdminSedeDto }) {
  const t = useT();
  const [fields, setFields] = useState<Fields>(() => fieldsOf(sede));
  const update = useUpdateSede();
  return (
    <FormDialog
      onOpen={() => setFields(fieldsOf(sede))}
      pending={update.isPending}
      trigger={
        <Button variant="outline" size="sm" aria-label={t('sediPage.editAria', { nome: sede.nome })}>
          <PencilIcon aria-hidden="true" />
          {t('sediPage.edit')}
        </Button>
      }
      title={t('sediPage.editTitle', { nome: sede.nome })}
      description={t('sediPage.editDescription')}
      onSubmit={() => update.mutateAsync({ id: sede.id, sede: body(fields) })}
      canSubmit={fields.nome.trim() !== ''}
      submitLabel={t('sediPage.save')}
    >
      <SedeFields fields={fields} onChange={setFields} />
    </FormDialog>
  );
}

function SedeActions({ sede }: { sede: AdminSedeDto }) {
  const t = useT();
  const archive = useArchiveSede();
  const reactivate = useReactivateSede();
  if (sede.archiviata) {
    return (
      <Button variant="outline" size="sm" aria-label={t('sediPage.reactivateAria', { nome: sede.nome })} disabled={reactivate.isPending} onClick={() => reactivate.mutate(sede.id)}>
        <RotateCcwIcon aria-hidden="true" />
        {t('sediPage.reactivate')}
      </Button>
    );
  }
  return (
    <>
      <EditSede sede={sede} />
      <ConfirmDeleteDialog
        trigger={
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={t('sediPage.archiveAria', { nome: sede.nome })}>
            <ArchiveIcon aria-hidden="true" />
            {t('sediPage.archive')}
          </Button>
        }
        title={t('sediPage.archiveTitle', { nome: sede.nome })}
        description={t('sediPage.archiveDescription')}
        confirmLabel={t('sediPage.archive')}
        // A refusal is told by the mutation's toast; the dialog closes either way.
        onConfirm={() => archive.mutateAsync(sede.id).catch(() => undefined)}
      />
    </>
  );
}

function SedeCard({ sede }: { sede: AdminSedeDto }) {
  const t = useT();
  const titleId = useId();
  return (
    <li aria-labelledby={titleId} className="grid gap-3 rounded-xl border bg-card p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={titleId} className="text-lg font-semibold">
          {sede.nome}
        </h2>
        {sede.archiviata ? <Badge variant="muted">{t('sediPage.archived')}</Badge> : null}
      </div>
      <div className="grid gap-1 text-sm text-muted-foreground">
        <p>{sede.indirizzo || t('sediPage.noAddress')}</p>
        {sede.notaRastrelliera ? (
          <p className="flex items-center gap-1">
            <MapPinIcon aria-hidden="true" className="size-4 shrink-0" />
            {sede.notaRastrelliera}
          </p>
        ) : null}
      </div>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <li>{t('sediPage.bikes', { n: sede.bici })}</li>
        <li>{t('sediPage.futureBookings', { n: sede.prenotazioniFuture })}</li>
        <li>{t('sediPage.people', { n: sede.persone })}</li>
      </ul>
      <div className="flex flex-wrap gap-2">
        <SedeActions sede={sede} />
      </div>
    </li>
  );
}

/**
 * `/admin/sedi` (issue 47): the install's sedi, archived ones too, each with what stands there;
 * create, edit, archive (refused by the server while bikes or future bookings remain), reactivate.
 * Reached from /admin's other sections, by admins only.
 */
export function SediPage() {
  const t = useT();
  const sedi = useAdminSedi();
  return (
    <div className="min-h-dvh bg-background pb-12">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-2 sm:px-6">
          <LinkButton href="/admin" icon={ArrowLeftIcon} variant="ghost" size="sm">
            {t('sediPage.back')}
          </LinkButton>
        </div>
        <div className="mx-auto max-w-3xl px-4 pt-3 pb-5 sm:px-6">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('sediPage.title')}</h1>
          <p className="text-muted-foreground">{t('sediPage.description')}</p>
          <div className="mt-3">
            <AddSede />
          </div>
        </div>
      </header>
      <main className="mx-auto grid max-w-3xl gap-4 px-4 pt-6 sm:px-6">
        {sedi.isPending ? (
          <Spinner label={t('sediPage.loading')} showLabel className="py-6" />
        ) : sedi.isError ? (
          <div role="alert" className="rounded-xl border border-destructive/40 bg-card p-6 text-center">
            <p className="font-medium">{t('sediPage.loadFailed')}</p>
            <Button className="mt-3" variant="outline" onClick={() => void sedi.refetch()}>
              <RefreshCwIcon aria-hidden="true" />
              {t('sediPage.retry')}
            </Button>
          </div>
        ) : (
          <ul aria-label={t('sediPage.listLabel')} className="grid gap-4">
            {sedi.data.map((s) => (
              <SedeCard key={s.id} sede={s} />
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
