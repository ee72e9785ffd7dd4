import { PencilIcon, Trash2Icon, UndoDotIcon, UploadIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { Ruolo } from '../../../shared/api-types';
import type { AdminUserDto } from '../../../shared/schemas/admin';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { TableBody, TableCell, TableRow } from '../../components/ui/table';
import { useT } from '../../lib/i18n';
import { formatDateTime, formatDay } from './admin-model';
import { FormDialog } from './form-dialog';
import { ColumnHeads, NativeSelect, Pager, ScrollTable, SearchBox, StatusRow } from './admin-table';
import { PAGE_SIZE, useAdminUsers, useDeleteUser, useListSearch, useImportResidents, useLiftSuspension, useUpdateUser } from './queries';
import { useTimeZone } from '../../lib/public-config';
import { useSedi } from '../../lib/sedi';
import { SedeBadge, SedeFilter, useSedeFilter } from './sede-filter';
import type { Incarico } from '../../../shared/staff';
import { distinctIncarichi, IncarichiBadges, IncarichiField } from './incarichi-field';

function ImportResidents() {
  const t = useT();
  const importer = useImportResidents();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button size="sm">
          <UploadIcon aria-hidden="true" />
          {t('usersTab.importResidents')}
        </Button>
      }
      title={t('usersTab.importResidents')}
      description={
        <div className="grid gap-2">
          <p>{t('usersTab.importIntro')}</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>{t('usersTab.importEmail')}</li>
            <li>{t('usersTab.importPassword')}</li>
            <li>{t('usersTab.importRole')}</li>
            <li>{t('usersTab.importSkipped')}</li>
          </ul>
        </div>
      }
      confirmLabel={t('usersTab.import')}
      confirmVariant="default"
      onConfirm={() => importer.mutateAsync()}
    />
  );
}

interface EditValues {
  nome: string;
  cognome: string;
  email: string;
  ruolo: Ruolo;
  isResidente: boolean;
  attiva: boolean;
  sedeId: number;
  /** The staff's roles (issue 48): the whole list, saved with the user. */
  incarichi: Incarico[];
}

function EditUser({ user }: { user: AdminUserDto }) {
  const t = useT();
  const initial = (): EditValues => ({
    nome: user.nome,
    cognome: user.cognome,
    email: user.email,
    ruolo: user.ruolo,
    isResidente: user.isResidente,
    attiva: user.attiva,
    sedeId: user.sedeId,
    incarichi: [...(user.incarichi ?? [])],
  });
  const [values, setValues] = useState<EditValues>(initial);
  const update = useUpdateUser();
  const sedi = useSedi();
  const id = useId();
  const set = <K extends keyof EditValues>(key: K, value: EditValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const canSave = values.nome.trim() !== '' && values.email.trim() !== '' && !update.isPending;

  function submit() {
    if (!canSave) return undefined;
    return update.mutateAsync({
      id: user.id,
      user: {
        ...values,
        nome: values.nome.trim(),
        cognome: values.cognome.trim(),
        email: values.email.trim(),
        incarichi: distinctIncarichi(values.incarichi),
      },
    });
  }

  return (
    <FormDialog
      onOpen={() => setValues(initial())}
      pending={update.isPending}
      trigger={
        <Button variant="outline" size="icon" aria-label={t('usersTab.editAria', { name: `${user.nome} ${user.cognome}`.trim() })}>
          <PencilIcon aria-hidden="true" />
        </Button>
      }
      title={t('usersTab.editTitle')}
      description={t('usersTab.editDescription', { id: user.id })}
      onSubmit={submit}
      canSubmit={canSave}
      submitLabel={t('usersTab.save')}
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-nome`}>{t('usersTab.firstName')}</Label>
        <Input id={`${id}-nome`} value={values.nome} onChange={(e) => set('nome', e.target.value)} maxLength={100} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-cognome`}>{t('usersTab.lastName')}</Label>
        <Input id={`${id}-cognome`} value={values.cognome} onChange={(e) => set('cognome', e.target.value)} maxLength={100} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-email`}>{t('usersTab.email')}</Label>
        <Input id={`${id}-email`} type="email" value={values.email} onChange={(e) => set('email', e.target.value)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-ruolo`}>{t('usersTab.role')}</Label>
        <NativeSelect id={`${id}-ruolo`} value={values.ruolo} onChange={(e) => set('ruolo', e.target.value as Ruolo)}>
          <option value="user">{t('usersTab.roleUser')}</option>
          <option value="admin">{t('usersTab.roleAdmin')}</option>
        </NativeSelect>
      </div>
      {/* The home sede (issue 47): only when there are several to choose from. */}
      {sedi.several ? (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-sede`}>{t('sedeFilter.homeSede')}</Label>
          <NativeSelect id={`${id}-sede`} value={String(values.sedeId)} onChange={(e) => set('sedeId', Number(e.target.value))}>
            {sedi.open.map((s) => (
              <option key={s.id} value={s.id}>
                {s.nome}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      <div className="flex items-center gap-3">
        <Checkbox id={`${id}-residente`} checked={values.isResidente} onCheckedChange={(c) => set('isResidente', c === true)} />
        <Label htmlFor={`${id}-residente`}>{t('usersTab.resident')}</Label>
      </div>
      <div className="flex items-center gap-3">
        <Checkbox id={`${id}-attiva`} checked={values.attiva} onCheckedChange={(c) => set('attiva', c === true)} />
        <Label htmlFor={`${id}-attiva`}>{t('usersTab.accountActive')}</Label>
      </div>
      <IncarichiField value={values.incarichi} onChange={(next) => set('incarichi', next)} />
    </FormDialog>
  );
}

function DeleteUser({ user }: { user: AdminUserDto }) {
  const t = useT();
  const remove = useDeleteUser();
  const name = `${user.nome} ${user.cognome}`.trim();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="icon" className="text-destructive hover:text-destructive" aria-label={t('usersTab.deleteAria', { name })}>
          <Trash2Icon aria-hidden="true" />
        </Button>
      }
      title={t('usersTab.deleteTitle', { name })}
      description={t('usersTab.deleteDescription', { email: user.email })}
      onConfirm={() => remove.mutateAsync(user.id)}
    />
  );
}

/** `Revoca sospensione`: a user suspended after repeated no-shows may book again (issue 20; audited). */
function LiftSuspension({ user }: { user: AdminUserDto }) {
  const t = useT();
  const timeZone = useTimeZone();
  const lift = useLiftSuspension();
  const name = `${user.nome} ${user.cognome}`.trim();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={t('usersTab.liftAria', { name })}>
          <UndoDotIcon aria-hidden="true" />
          {t('usersTab.lift')}
        </Button>
      }
      title={t('usersTab.liftTitle', { name })}
      description={t('usersTab.liftDescription', { name, until: formatDateTime(user.sospesoFino ?? '', timeZone) })}
      confirmLabel={t('usersTab.liftConfirm')}
      onConfirm={() => lift.mutateAsync(user.id)}
    />
  );
}

/** Utenti tab (spec §2): import residents, search, server paging, edit and delete. */
export function UsersTab() {
  const t = useT();
  const timeZone = useTimeZone();
  const { q, page, setPage, searchBox } = useListSearch();
  const [sedeId, setSedeId] = useSedeFilter();
  const users = useAdminUsers({ q, page }, sedeId);
  const rows = users.isError ? [] : (users.data?.items ?? []);
  const total = users.isError ? 0 : (users.data?.total ?? 0);

  return (
    <div className="grid gap-4">
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <SearchBox label={t('usersTab.search')} placeholder={t('usersTab.searchPlaceholder')} {...searchBox} />
          <SedeFilter
            value={sedeId}
            onChange={(next) => {
              setSedeId(next);
              setPage(1);
            }}
          />
        </div>
        <ImportResidents />
      </div>
      <ScrollTable label={t('usersTab.users')} aria-busy={users.isFetching}>
        <ColumnHeads
          columns={[
            t('usersTab.colId'),
            t('usersTab.colFullName'),
            t('usersTab.colEmail'),
            t('usersTab.colRole'),
            t('usersTab.colResident'),
            t('usersTab.colCode'),
            t('usersTab.colRegistered'),
            t('usersTab.colActions'),
          ]}
        />
        <TableBody>
          {rows.length === 0 ? (
            <StatusRow
              colSpan={8}
              isPending={users.isPending}
              isError={users.isError}
              empty={q !== '' || sedeId !== undefined ? t('usersTab.noneFound') : t('usersTab.none')}
              onRetry={() => void users.refetch()}
            />
          ) : (
            rows.map((u) => (
              <TableRow key={u.id}>
                <TableCell className="tabular-nums">{u.id}</TableCell>
                <TableCell>
                  {u.nome} {u.cognome}
                  <SedeBadge sedeId={u.sedeId} className="ml-2" />
                  {u.attiva ? null : (
                    <Badge variant="muted" className="ml-2">
                      {t('usersTab.deactivated')}
                    </Badge>
                  )}
                  {u.sospesoFino ? (
                    <Badge variant="warning" className="mt-1 flex">
                      {t('usersTab.suspendedUntil', { until: formatDateTime(u.sospesoFino, timeZone) })}
                    </Badge>
                  ) : null}
                </TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>
                  <Badge variant={u.ruolo === 'admin' ? 'default' : 'secondary'}>{u.ruolo === 'admin' ? t('usersTab.roleAdmin') : t('usersTab.roleUser')}</Badge>
                  <IncarichiBadges incarichi={u.incarichi} />
                </TableCell>
                <TableCell>{u.isResidente ? t('usersTab.yes') : t('usersTab.no')}</TableCell>
                <TableCell>{u.sigla ?? '-'}</TableCell>
                <TableCell className="tabular-nums">{formatDay(u.createdAt, timeZone)}</TableCell>
                <TableCell>
                  <div className="flex gap-2">
                    {u.sospesoFino ? <LiftSuspension user={u} /> : null}
                    <EditUser user={u} />
                    <DeleteUser user={u} />
                  </div>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </ScrollTable>
      <Pager label={t('usersTab.pages')} page={page} total={total} pageSize={PAGE_SIZE} onPage={setPage} />
    </div>
  );
}
