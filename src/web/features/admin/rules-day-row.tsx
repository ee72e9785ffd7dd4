import { weekdayName } from '../../../shared/i18n/format';
import { FieldError } from '../../components/field-error';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { useLingua, useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { rulesFieldId, type DayForm, type RulesFormErrors } from './rules-model';

/** One weekday's hours; `fieldId` names its fields (a sede's week has ids of its own, issue 47). */
export function DayRow({
  index,
  day,
  errors,
  onChange,
  fieldId = rulesFieldId,
}: {
  index: number;
  day: DayForm;
  errors: RulesFormErrors;
  onChange: (day: DayForm) => void;
  fieldId?: (key: string) => string;
}) {
  const t = useT();
  // `orari` counts from Monday (0); weekdayName from Sunday (0). "lunedì" / "Monday".
  const lower = weekdayName((index + 1) % 7, useLingua());
  const name = `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`;
  const closedId = fieldId(`orari.${index}.chiuso`);
  const time = (which: 'apertura' | 'chiusura') => {
    const key = `orari.${index}.${which}`;
    const id = fieldId(key);
    const error = errors[key];
    return (
      <div className="grid content-start gap-1.5">
        <Label htmlFor={id}>
          {which === 'apertura' ? t('rulesTab.opening') : t('rulesTab.closing')}
          <span className="sr-only"> {lower}</span>
        </Label>
        <Input
          id={id}
          type="time"
          value={day[which]}
          disabled={day.chiuso}
          onChange={(e) => onChange({ ...day, [which]: e.target.value })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <FieldError id={id} message={error} />
      </div>
    );
  };
  return (
    <li className="grid gap-2 border-b pb-3 last:border-b-0 last:pb-0 sm:grid-cols-[14rem_1fr] sm:items-start sm:gap-4">
      <div className="flex items-center justify-between gap-3 sm:justify-start sm:pt-7">
        <p className="font-medium sm:w-24">{name}</p>
        <div className="flex items-center gap-3">
          <Switch id={closedId} checked={day.chiuso} onChange={(e) => onChange({ ...day, chiuso: e.target.checked })} />
          <Label htmlFor={closedId}>
            {t('rulesTab.closed')}
            <span className="sr-only"> {lower}</span>
          </Label>
        </div>
      </div>
      <div className={cn('grid grid-cols-2 gap-3 sm:max-w-md', day.chiuso && 'opacity-60')}>
        {time('apertura')}
        {time('chiusura')}
      </div>
    </li>
  );
}
