import { useId } from 'react';
import type { SedeDto } from '../../../shared/schemas/sedi';
import { Label } from '../../components/ui/label';
import { useT } from '../../lib/i18n';
import { NativeSelect } from './admin-table';

/**
 * A bike's sede in the bike dialogs (issue 47): the open sedi as a native select. The dialogs
 * show it only when there are several (`useSedi().several`); with one, no word of it.
 * `hint`, when given, is said under the select and read with it.
 */
export function BikeSedeField({
  sedi,
  value,
  onChange,
  hint,
}: {
  sedi: readonly Pick<SedeDto, 'id' | 'nome'>[];
  value: number | null;
  onChange: (sedeId: number) => void;
  hint?: string | undefined;
}) {
  const t = useT();
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t('sediMovesTab.sede')}</Label>
      <NativeSelect id={id} value={value ?? ''} onChange={(e) => onChange(Number(e.target.value))} aria-describedby={hint ? `${id}-hint` : undefined}>
        {sedi.map((s) => (
          <option key={s.id} value={s.id}>
            {s.nome}
          </option>
        ))}
      </NativeSelect>
      {hint ? (
        <p id={`${id}-hint`} aria-live="polite" className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
