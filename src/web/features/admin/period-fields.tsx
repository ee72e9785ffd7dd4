import { useT } from '../../lib/i18n';
import type { PeriodForm } from './period-form';
import { CheckedField } from './rules-parts';

type Bounds = { dal: string; al: string; motivo: string };

/** A period form's `Dal` and `Al` (the closure's dates, the maintenance's instants): `Al` starts at `Dal`. */
export function PeriodBounds<R extends Bounds>({ form, type }: { form: PeriodForm<R>; type: 'date' | 'datetime-local' }) {
  const t = useT();
  const { values, errors, id, set } = form;
  return (['dal', 'al'] as const).map((field) => (
    <CheckedField
      key={field}
      id={id(field)}
      label={field === 'dal' ? t('periodFields.from') : t('periodFields.to')}
      type={type}
      value={values[field]}
      min={field === 'al' && values.dal ? values.dal : undefined}
      onValue={(v) => set(field, v)}
      error={errors[field]}
    />
  ));
}

/** A period's `Motivo` (what users see of a closure, what admins read of a maintenance). */
export function PeriodReason<R extends Bounds>({ form, placeholder }: { form: PeriodForm<R>; placeholder: string }) {
  const t = useT();
  const { values, errors, id, set } = form;
  return (
    <CheckedField
      id={id('motivo')}
      label={t('periodFields.reason')}
      value={values.motivo}
      maxLength={200}
      placeholder={placeholder}
      onValue={(v) => set('motivo', v)}
      error={errors.motivo}
    />
  );
}
