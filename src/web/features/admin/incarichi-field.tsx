import { PlusIcon, XIcon } from 'lucide-react';
import { useId } from 'react';
import { STAFF_ROLES, type Incarico, type StaffRole } from '../../../shared/staff';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { NativeSelect } from './admin-table';

/** The (sede, role) pairs not yet in the list, in the order the open sedi and the roles come. */
function freePairs(list: readonly Incarico[], sedi: readonly { id: number }[]): Incarico[] {
  const taken = new Set(list.map((i) => `${i.sedeId}:${i.ruolo}`));
  return sedi.flatMap((s) => STAFF_ROLES.map((ruolo) => ({ sedeId: s.id, ruolo }))).filter((i) => !taken.has(`${i.sedeId}:${i.ruolo}`));
}

/** The list saved: each (sede, role) once. */
export function distinctIncarichi(list: readonly Incarico[]): Incarico[] {
  const seen = new Set<string>();
  return list.filter((i) => {
    const key = `${i.sedeId}:${i.ruolo}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `Incarichi` in a user's edit dialog (issue 48): rows of a sede and a role (`Portineria`,
 * `Officina`), added and removed, saved with the user. With one open sede a row has the role
 * only: no sede, no word for it.
 */
export function IncarichiField({ value, onChange }: { value: readonly Incarico[]; onChange: (next: Incarico[]) => void }) {
  const t = useT();
  const id = useId();
  const sedi = useSedi();
  const free = freePairs(value, sedi.open);
  const set = (index: number, next: Incarico) => onChange(value.map((i, n) => (n === index ? next : i)));

  return (
    <fieldset className="grid gap-2" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-medium">{t('staffIncarichi.legend')}</legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {t('staffIncarichi.hint')}
      </p>
      {value.length === 0 ? <p className="text-sm">{t('staffIncarichi.none')}</p> : null}
      <ul className="grid gap-2">
        {value.map((incarico, index) => {
          const n = index + 1;
          return (
            <li key={`${incarico.sedeId}:${incarico.ruolo}:${index}`} className="flex flex-wrap items-center gap-2 rounded-lg border p-2" data-incarico="">
              {sedi.several ? (
                <NativeSelect
                  className="min-w-[10rem] flex-1"
                  aria-label={t('staffIncarichi.sedeAria', { n })}
                  value={String(incarico.sedeId)}
                  onChange={(e) => set(index, { ...incarico, sedeId: Number(e.target.value) })}
                >
                  {sedi.open.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.nome}
                    </option>
                  ))}
                </NativeSelect>
              ) : null}
              <NativeSelect
                className="min-w-[8rem] flex-1"
                aria-label={t('staffIncarichi.roleAria', { n })}
                value={incarico.ruolo}
                onChange={(e) => set(index, { ...incarico, ruolo: e.target.value as StaffRole })}
              >
                {STAFF_ROLES.map((ruolo) => (
                  <option key={ruolo} value={ruolo}>
                    {t(`staffIncarichi.${ruolo}`)}
                  </option>
                ))}
              </NativeSelect>
              <Button type="button" variant="outline" size="icon" aria-label={t('staffIncarichi.remove', { n })} onClick={() => onChange(value.filter((_, k) => k !== index))}>
                <XIcon aria-hidden="true" />
              </Button>
            </li>
          );
        })}
      </ul>
      <div>
        <Button type="button" variant="outline" size="sm" disabled={free.length === 0} onClick={() => onChange([...value, free[0]!])}>
          <PlusIcon aria-hidden="true" />
          {t('staffIncarichi.add')}
        </Button>
      </div>
    </fieldset>
  );
}

/** A person's roles in the users' list: a small badge each, with the sede's name when there are several. */
export function IncarichiBadges({ incarichi }: { incarichi: readonly Incarico[] | undefined }) {
  const t = useT();
  const sedi = useSedi();
  if (!incarichi || incarichi.length === 0) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {incarichi.map((i) => (
        <Badge key={`${i.sedeId}:${i.ruolo}`} variant="outline">
          {sedi.several ? `${t(`staffIncarichi.${i.ruolo}`)} · ${sedi.nameOf(i.sedeId)}` : t(`staffIncarichi.${i.ruolo}`)}
        </Badge>
      ))}
    </span>
  );
}
