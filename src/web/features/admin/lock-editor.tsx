import { KeyRoundIcon } from 'lucide-react';
import { useId, useState } from 'react';
import {
  LOCK_CODE_PATTERN,
  LOCK_DEVICE_ID_PATTERN,
  type AdminBikeWithLockDto,
  type BikeLockDto,
  type BikeLockUpdate,
  type LockKind,
} from '../../../shared/schemas/locks';
import { FieldError } from '../../components/field-error';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { t } from '../../lib/i18n';
import { NativeSelect } from './admin-table';
import { FormDialog } from './form-dialog';
import { useUpdateBikeLock } from './queries';

export const LOCK_KIND_LABELS: Record<LockKind, string> = {
  nessuno: 'Nessuno',
  combinazione: 'A combinazione',
  smart: 'Smart',
};

/** A bike's lock as the admins' list gives it (issue 34). */
const lockOf = (bike: AdminBikeWithLockDto): BikeLockDto => bike.lucchetto;

/** The lock's cell: its kind, the current code of a combination lock, and `Codice da cambiare`. */
export function LockCell({ bike }: { bike: AdminBikeWithLockDto }) {
  const lock = lockOf(bike);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span>{LOCK_KIND_LABELS[lock.tipo]}</span>
      {lock.tipo === 'combinazione' && lock.codice ? (
        <span className="font-mono tabular-nums" aria-label={`codice ${lock.codice.split('').join(' ')}`}>
          {lock.codice}
        </span>
      ) : null}
      {lock.codiceDaCambiare ? <Badge variant="danger">Codice da cambiare</Badge> : null}
    </div>
  );
}

interface Fields {
  tipo: LockKind;
  codice: string;
  idLucchetto: string;
}

/** What the form sends, or the error of the one field that is wrong (checked again by the server). */
function lockRequest(fields: Fields): { ok: true; request: BikeLockUpdate } | { ok: false; field: 'codice' | 'idLucchetto'; message: string } {
  if (fields.tipo === 'combinazione') {
    const codice = fields.codice.trim();
    if (!LOCK_CODE_PATTERN.test(codice)) return { ok: false, field: 'codice', message: t('schemas.lockCodeFormat') };
    return { ok: true, request: { tipo: 'combinazione', codice } };
  }
  if (fields.tipo === 'smart') {
    const idLucchetto = fields.idLucchetto.trim();
    if (!LOCK_DEVICE_ID_PATTERN.test(idLucchetto)) return { ok: false, field: 'idLucchetto', message: t('schemas.invalidLockDeviceId') };
    return { ok: true, request: { tipo: 'smart', idLucchetto } };
  }
  return { ok: true, request: { tipo: 'nessuno' } };
}

/**
 * `Lucchetto`: the admin sets a bike's lock (none, a combination with its 4-digit code, a smart
 * lock by its device id) or corrects the code; a new code clears `Codice da cambiare`.
 */
export function EditLock({ bike }: { bike: AdminBikeWithLockDto }) {
  const lock = lockOf(bike);
  const [fields, setFields] = useState<Fields>({ tipo: lock.tipo, codice: '', idLucchetto: '' });
  const [error, setError] = useState<{ field: 'codice' | 'idLucchetto'; message: string } | null>(null);
  const update = useUpdateBikeLock();
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;

  function change(next: Partial<Fields>) {
    setFields((current) => ({ ...current, ...next }));
    setError(null);
  }

  function submit() {
    const result = lockRequest(fields);
    if (!result.ok) {
      setError({ field: result.field, message: result.message });
      document.getElementById(id(result.field))?.focus();
      return undefined;
    }
    return update.mutateAsync({ id: bike.id, numero: bike.numero, request: result.request });
  }

  return (
    <FormDialog
      onOpen={() => {
        setFields({ tipo: lock.tipo, codice: lock.codice ?? '', idLucchetto: lock.idLucchetto ?? '' });
        setError(null);
      }}
      pending={update.isPending}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Lucchetto della bici ${bike.numero}`}>
          <KeyRoundIcon aria-hidden="true" />
          Lucchetto
        </Button>
      }
      title={`Lucchetto della bici ${bike.numero}`}
      description={
        lock.codiceDaCambiare
          ? 'Il codice attuale è stato mostrato a chi non ha poi ritirato la bici: imposta un codice nuovo sul lucchetto e qui.'
          : 'Il codice viene mostrato a chi ha prenotato solo dal momento del ritiro, e cambia a ogni riconsegna.'
      }
      onSubmit={submit}
      canSubmit
      submitLabel="Salva"
    >
      <div className="grid gap-2">
        <Label htmlFor={id('tipo')}>Tipo di lucchetto</Label>
        <NativeSelect id={id('tipo')} value={fields.tipo} onChange={(e) => change({ tipo: e.target.value as LockKind })}>
          {(Object.keys(LOCK_KIND_LABELS) as LockKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {LOCK_KIND_LABELS[kind]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {fields.tipo === 'combinazione' ? (
        <div className="grid gap-2">
          <Label htmlFor={id('codice')}>Codice attuale (4 cifre)</Label>
          <Input
            id={id('codice')}
            value={fields.codice}
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            className="font-mono tabular-nums"
            onChange={(e) => change({ codice: e.target.value })}
            aria-invalid={error?.field === 'codice' || undefined}
            aria-describedby={error?.field === 'codice' ? `${id('codice')}-error` : undefined}
          />
          <FieldError id={id('codice')} message={error?.field === 'codice' ? error.message : undefined} />
        </div>
      ) : null}
      {fields.tipo === 'smart' ? (
        <div className="grid gap-2">
          <Label htmlFor={id('idLucchetto')}>Identificativo del lucchetto smart</Label>
          <Input
            id={id('idLucchetto')}
            value={fields.idLucchetto}
            autoComplete="off"
            maxLength={64}
            onChange={(e) => change({ idLucchetto: e.target.value })}
            aria-invalid={error?.field === 'idLucchetto' || undefined}
            aria-describedby={error?.field === 'idLucchetto' ? `${id('idLucchetto')}-error` : undefined}
          />
          <FieldError id={id('idLucchetto')} message={error?.field === 'idLucchetto' ? error.message : undefined} />
        </div>
      ) : null}
    </FormDialog>
  );
}
