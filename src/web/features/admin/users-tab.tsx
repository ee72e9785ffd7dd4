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
import { formatDateTime, formatDay } from './admin-model';
import { FormDialog } from './form-dialog';
import { ColumnHeads, NativeSelect, Pager, ScrollTable, SearchBox, StatusRow } from './admin-table';
import { PAGE_SIZE, useAdminUsers, useDeleteUser, useListSearch, useImportResidents, useLiftSuspension, useUpdateUser, useTimeZone } from './queries';

function ImportResidents() {
  const importer = useImportResidents();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button size="sm">
          <UploadIcon aria-hidden="true" />
          Importa Residenti
        </Button>
      }
      title="Importa Residenti"
      description={
        <div className="grid gap-2">
          <p>Tutti i residenti della tabella dei codici residenti diventano utenti di BiciElis:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>l&apos;email è il codice del residente seguito dal dominio del collegio (es. elis002@elis.org);</li>
            <li>la password iniziale è quella fissa configurata sul server, da cambiare al primo accesso;</li>
            <li>il ruolo è Residente (prenotazioni gratuite) e l&apos;account è già attivo;</li>
            <li>i residenti che hanno già un account vengono saltati.</li>
          </ul>
        </div>
      }
      confirmLabel="Importa"
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
}

function EditUser({ user }: { user: AdminUserDto }) {
  const initial = (): EditValues => ({
    nome: user.nome,
    cognome: user.cognome,
    email: user.email,
    ruolo: user.ruolo,
    isResidente: user.isResidente,
    attiva: user.attiva,
  });
  const [values, setValues] = useState<EditValues>(initial);
  const update = useUpdateUser();
  const id = useId();
  const set = <K extends keyof EditValues>(key: K, value: EditValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const canSave = values.nome.trim() !== '' && values.email.trim() !== '' && !update.isPending;

  function submit() {
    if (!canSave) return undefined;
    return update.mutateAsync({
      id: user.id,
      user: { ...values, nome: values.nome.trim(), cognome: values.cognome.trim(), email: values.email.trim() },
    });
  }

  return (
    <FormDialog
      onOpen={() => setValues(initial())}
      pending={update.isPending}
      trigger={
        <Button variant="outline" size="icon" aria-label={`Modifica ${user.nome} ${user.cognome}`.trim()}>
          <PencilIcon aria-hidden="true" />
        </Button>
      }
      title="Modifica utente"
      description={`Utente #${user.id}. Disattivando l'account le sue sessioni terminano subito.`}
      onSubmit={submit}
      canSubmit={canSave}
      submitLabel="Salva"
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-nome`}>Nome</Label>
        <Input id={`${id}-nome`} value={values.nome} onChange={(e) => set('nome', e.target.value)} maxLength={100} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-cognome`}>Cognome</Label>
        <Input id={`${id}-cognome`} value={values.cognome} onChange={(e) => set('cognome', e.target.value)} maxLength={100} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input id={`${id}-email`} type="email" value={values.email} onChange={(e) => set('email', e.target.value)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-ruolo`}>Ruolo</Label>
        <NativeSelect id={`${id}-ruolo`} value={values.ruolo} onChange={(e) => set('ruolo', e.target.value as Ruolo)}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </NativeSelect>
      </div>
      <div className="flex items-center gap-3">
        <Checkbox id={`${id}-residente`} checked={values.isResidente} onCheckedChange={(c) => set('isResidente', c === true)} />
        <Label htmlFor={`${id}-residente`}>Residente</Label>
      </div>
      <div className="flex items-center gap-3">
        <Checkbox id={`${id}-attiva`} checked={values.attiva} onCheckedChange={(c) => set('attiva', c === true)} />
        <Label htmlFor={`${id}-attiva`}>Account Attivo</Label>
      </div>
    </FormDialog>
  );
}

function DeleteUser({ user }: { user: AdminUserDto }) {
  const remove = useDeleteUser();
  const name = `${user.nome} ${user.cognome}`.trim();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="icon" className="text-destructive hover:text-destructive" aria-label={`Elimina ${name}`}>
          <Trash2Icon aria-hidden="true" />
        </Button>
      }
      title={`Eliminare ${name}?`}
      description={`Verranno eliminati l'utente ${user.email} e tutte le sue prenotazioni. Questa azione è irreversibile.`}
      onConfirm={() => remove.mutateAsync(user.id)}
    />
  );
}

/** `Revoca sospensione`: a user suspended after repeated no-shows may book again (issue 20; audited). */
function LiftSuspension({ user }: { user: AdminUserDto }) {
  const timeZone = useTimeZone();
  const lift = useLiftSuspension();
  const name = `${user.nome} ${user.cognome}`.trim();
  return (
    <ConfirmDeleteDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Revoca sospensione di ${name}`}>
          <UndoDotIcon aria-hidden="true" />
          Revoca sospensione
        </Button>
      }
      title={`Revocare la sospensione di ${name}?`}
      description={`L'account di ${name} è sospeso fino al ${formatDateTime(user.sospesoFino ?? '', timeZone)} per i mancati ritiri. Revocando la sospensione può prenotare subito, e i mancati ritiri di prima non contano più.`}
      confirmLabel="Revoca"
      onConfirm={() => lift.mutateAsync(user.id)}
    />
  );
}

/** Utenti tab (spec §2): import residents, search, server paging, edit and delete. */
export function UsersTab() {
  const timeZone = useTimeZone();
  const { q, page, setPage, searchBox } = useListSearch();
  const users = useAdminUsers({ q, page });
  const rows = users.isError ? [] : (users.data?.items ?? []);
  const total = users.isError ? 0 : (users.data?.total ?? 0);

  return (
    <div className="grid gap-4">
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox label="Cerca utenti" placeholder="Cerca per nome, email o sigla..." {...searchBox} />
        <ImportResidents />
      </div>
      <ScrollTable label="Utenti" aria-busy={users.isFetching}>
        <ColumnHeads columns={['ID', 'Nome completo', 'Email', 'Ruolo', 'Residente', 'Sigla', 'Registrato il', 'Azioni']} />
        <TableBody>
          {rows.length === 0 ? (
            <StatusRow
              colSpan={8}
              isPending={users.isPending}
              isError={users.isError}
              empty={q !== '' ? 'Nessun utente trovato' : 'Nessun utente'}
              onRetry={() => void users.refetch()}
            />
          ) : (
            rows.map((u) => (
              <TableRow key={u.id}>
                <TableCell className="tabular-nums">{u.id}</TableCell>
                <TableCell>
                  {u.nome} {u.cognome}
                  {u.attiva ? null : (
                    <Badge variant="muted" className="ml-2">
                      Disattivato
                    </Badge>
                  )}
                  {u.sospesoFino ? (
                    <Badge variant="warning" className="mt-1 flex">
                      Sospeso fino al {formatDateTime(u.sospesoFino, timeZone)}
                    </Badge>
                  ) : null}
                </TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>
                  <Badge variant={u.ruolo === 'admin' ? 'default' : 'secondary'}>{u.ruolo === 'admin' ? 'Admin' : 'User'}</Badge>
                </TableCell>
                <TableCell>{u.isResidente ? 'Sì' : 'No'}</TableCell>
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
      <Pager label="Pagine degli utenti" page={page} total={total} pageSize={PAGE_SIZE} onPage={setPage} />
    </div>
  );
}
