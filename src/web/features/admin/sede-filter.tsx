import { useId, useState, type ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';
import { Label } from '../../components/ui/label';
import { useT } from '../../lib/i18n';
import { useSedi } from '../../lib/sedi';
import { useStaffView } from '../../lib/staff-view';
import { NativeSelect } from './admin-table';

/** A list's sede (issue 47): undefined is every sede. */
export function useSedeFilter() {
  return useState<number | undefined>(undefined);
}

/**
 * Whether to show a sede at all: several open sedi. The server renders /admin with the same list
 * (GET /api/config's), so its HTML already holds the filter and the badges: nothing moves when the
 * page is adopted (decision 039).
 */
function useShowSedi() {
  const sedi = useSedi();
  return { sedi, show: sedi.several };
}

/**
 * The sedi a list's filter offers: every open one to an admin, a staff member's own (issue 48;
 * the server answers only theirs anyway).
 */
function useFilterSedi() {
  const { sedi } = useShowSedi();
  const { sedi: theirs } = useStaffView();
  return theirs === 'all' ? sedi.open : sedi.open.filter((s) => theirs.includes(s.id));
}

/**
 * `Sede` above an admin list, only when there are several open sedi to choose from (a staff
 * member's own, issue 48): with one, nothing shows (no picker, no word). `onChange` gets
 * undefined for `Tutte le sedi`.
 */
export function SedeFilter({ value, onChange }: { value: number | undefined; onChange: (sedeId: number | undefined) => void }) {
  const t = useT();
  const id = useId();
  const choices = useFilterSedi();
  if (choices.length < 2) return null;
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="shrink-0">
        {t('sedeFilter.label')}
      </Label>
      <NativeSelect id={id} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}>
        <option value="">{t('sedeFilter.all')}</option>
        {choices.map((s) => (
          <option key={s.id} value={s.id}>
            {s.nome}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/**
 * A list's sede badges: the public config read once for all its rows, each row then drawn by the
 * function (a `SedeBadge` per row reads it per row: a query observer each, on the server's render
 * and in hydration).
 */
export function useSedeBadge(): (sedeId: number | null | undefined, className?: string) => ReactNode {
  const { sedi, show } = useShowSedi();
  return (sedeId, className) =>
    !show || sedeId === null || sedeId === undefined ? null : (
      <Badge variant="outline" className={className}>
        {sedi.nameOf(sedeId)}
      </Badge>
    );
}

/** A row's sede as a small badge, only when there are several. */
export function SedeBadge({ sedeId, className }: { sedeId: number | null | undefined; className?: string }) {
  return useSedeBadge()(sedeId, className);
}
