import { SaveIcon } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { RulesDto } from '../../../shared/schemas/rules';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { Switch } from '../../components/ui/switch';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { serverFieldErrors } from '../../lib/api-errors';
import { formatDateTime } from './admin-model';
import { ClosuresSection } from './closures-section';
import { useStaffView } from '../../lib/staff-view';
import { SedeHoursSection } from './rules-sede-hours';
import { DayRow } from './rules-day-row';
import { CheckedField } from './rules-parts';
import { FieldError } from '../../components/field-error';
import { SectionCard } from '../../components/section-card';
import {
  firstErrorField,
  formToRules,
  generalErrors,
  LIMITS,
  rulesFieldId,
  rulesToForm,
  suspensionRuleText,
  WEEKDAYS,
  type LimitKey,
  type RulesForm,
  type RulesFormErrors,
  type SuspensionForm,
} from './rules-model';
import { useRules, useSaveRules } from './queries';
import { useTimeZone } from '../../lib/public-config';
import { LoadFailed } from '../../components/load-failed';

function LimitRow({
  limit,
  value,
  error,
  onChange,
}: {
  limit: (typeof LIMITS)[number];
  value: RulesForm['limiti'][LimitKey];
  error: string | undefined;
  onChange: (value: RulesForm['limiti'][LimitKey]) => void;
}) {
  const t = useT();
  const id = rulesFieldId(limit.key);
  const off = t(limit.off);
  const labelId = `${id}-label`;
  const switchId = `${id}-attivo`;
  const hintId = `${id}-hint`;
  return (
    <li className="grid gap-2 border-b pb-3 last:border-b-0 last:pb-0 sm:grid-cols-[minmax(0,26rem)_9rem] sm:items-center sm:gap-x-4">
      <div className="flex items-center gap-3">
        <Switch
          id={switchId}
          checked={value.attivo}
          onChange={(e) => onChange({ ...value, attivo: e.target.checked })}
          aria-describedby={hintId}
        />
        <Label htmlFor={switchId} id={labelId} className="leading-snug">
          {t(limit.label)}
        </Label>
      </div>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={limit.max}
        step={1}
        value={value.valore}
        disabled={!value.attivo}
        onChange={(e) => onChange({ ...value, valore: e.target.value })}
        aria-labelledby={labelId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? `${id}-error` : null].filter(Boolean).join(' ')}
      />
      <p id={hintId} className="text-sm text-muted-foreground sm:col-span-2">
        {value.attivo ? t('rulesTab.limitRange', { max: limit.max }) : t('rulesTab.limitOff', { what: `${off.charAt(0).toLowerCase()}${off.slice(1)}` })}
      </p>
      <div className="sm:col-span-2">
        <FieldError id={id} message={error} />
      </div>
    </li>
  );
}

const SUSPENSION_FIELDS: {
  key: keyof Omit<SuspensionForm, 'attiva'>;
  label: 'rulesTab.suspensionThreshold' | 'rulesTab.suspensionWindow' | 'rulesTab.suspensionDays';
  max: number;
}[] = [
  { key: 'soglia', label: 'rulesTab.suspensionThreshold', max: 20 },
  { key: 'finestraGiorni', label: 'rulesTab.suspensionWindow', max: 365 },
  { key: 'giorni', label: 'rulesTab.suspensionDays', max: 365 },
];

function SuspensionFields({
  value,
  errors,
  onChange,
}: {
  value: SuspensionForm;
  errors: RulesFormErrors;
  onChange: (value: SuspensionForm) => void;
}) {
  const t = useT();
  const switchId = rulesFieldId('sospensione.attiva');
  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-3">
        <Switch id={switchId} checked={value.attiva} onChange={(e) => onChange({ ...value, attiva: e.target.checked })} />
        <Label htmlFor={switchId} className="leading-snug">
          {t('rulesTab.suspensionSwitch')}
        </Label>
      </div>
      <div className={cn('grid gap-3 sm:grid-cols-3', !value.attiva && 'opacity-60')}>
        {SUSPENSION_FIELDS.map(({ key, label, max }) => {
          const field = `sospensione.${key}`;
          const id = rulesFieldId(field);
          const error = errors[field];
          return (
            <div key={key} className="grid content-start gap-1.5">
              <Label htmlFor={id}>{t(label)}</Label>
              <Input
                id={id}
                type="number"
                inputMode="numeric"
                min={1}
                max={max}
                step={1}
                value={value[key]}
                disabled={!value.attiva}
                onChange={(e) => onChange({ ...value, [key]: e.target.value })}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              <FieldError id={id} message={error} />
            </div>
          );
        })}
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {suspensionRuleText(value, t)}
      </p>
    </div>
  );
}

/**
 * The rules' form state and its saving: checked in the browser first (the first wrong field
 * focused), then by the server, whose field errors are said at their fields.
 */
function useRulesForm(rules: RulesDto) {
  const t = useT();
  const [form, setForm] = useState<RulesForm>(() => rulesToForm(rules));
  const [errors, setErrors] = useState<RulesFormErrors>({});
  const save = useSaveRules();
  const formRef = useRef<HTMLFormElement>(null);

  function clear(...keys: string[]) {
    if (keys.some((k) => errors[k] !== undefined)) {
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => !keys.includes(k))));
    }
  }

  /** Sets one part of the form (from its current value) and clears the errors said about it. */
  function change<K extends keyof RulesForm>(key: K, next: (current: RulesForm[K]) => RulesForm[K], ...cleared: string[]) {
    setForm((f) => ({ ...f, [key]: next(f[key]) }));
    clear(...cleared);
  }

  function focus(key: string) {
    formRef.current?.querySelector<HTMLElement>(`#${rulesFieldId(key)}`)?.focus();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const result = formToRules(form, t);
    if (!result.ok) {
      setErrors(result.errors);
      focus(result.first);
      return;
    }
    setErrors({});
    save.mutateAsync(result.rules).then(
      (saved) => setForm(rulesToForm(saved)),
      (error: unknown) => {
        const fields = serverFieldErrors(error);
        if (Object.keys(fields).length > 0) {
          setErrors(fields);
          focus(firstErrorField(fields));
        }
      },
    );
  }

  return { form, errors, change, submit, formRef, pending: save.isPending };
}

/** A card of the rules with one number in it (the waitlist's offer, the retention of personal data). */
function NumberCard({
  id,
  title,
  description,
  field,
  label,
  max,
  value,
  error,
  onValue,
}: {
  id: string;
  title: string;
  description: string;
  field: string;
  label: string;
  max: number;
  value: string;
  error: string | undefined;
  onValue: (value: string) => void;
}) {
  return (
    <SectionCard id={id} title={title} description={description}>
      <div className="max-w-xs">
        <CheckedField
          id={rulesFieldId(field)}
          label={label}
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          step={1}
          value={value}
          error={error}
          onValue={onValue}
        />
      </div>
    </SectionCard>
  );
}

/** Under the form: what is wrong, who changed the rules last, and `Salva regole`. */
function RulesFooter({ rules, errors, pending }: { rules: RulesDto; errors: RulesFormErrors; pending: boolean }) {
  const t = useT();
  const timeZone = useTimeZone();
  const statusId = useId();
  const general = generalErrors(errors);
  const errorCount = Object.keys(errors).length;
  return (
    <div className="grid gap-3 sm:flex sm:items-center sm:justify-between">
      <div id={statusId} aria-live="polite" className="grid gap-1 text-sm">
        {errorCount > 0 ? (
          <p className="font-medium text-destructive">
            {t('rulesTab.fixFields', { count: errorCount })}
          </p>
        ) : null}
        {general.map((message) => (
          <p key={message} className="font-medium text-destructive">
            {message}
          </p>
        ))}
        <p className="text-muted-foreground">
          {rules.updatedBy
            ? t('rulesTab.lastChange', { when: formatDateTime(rules.updatedAt, timeZone), who: rules.updatedBy })
            : t('rulesTab.initialValues')}
        </p>
      </div>
      <Button type="submit" disabled={pending} className="w-full sm:w-auto">
        <ButtonIcon pending={pending} icon={<SaveIcon aria-hidden="true" />} />
        {t('rulesTab.save')}
      </Button>
    </div>
  );
}

function RulesEditor({ rules }: { rules: RulesDto }) {
  const t = useT();
  const { form, errors, change, submit, formRef, pending } = useRulesForm(rules);

  return (
    <form ref={formRef} noValidate onSubmit={submit} aria-busy={pending} className="grid gap-4">
      <SectionCard
        id="regole-orari"
        title={t('rulesTab.hoursTitle')}
        description={t('rulesTab.hoursDescription')}
      >
        <ul className="grid gap-3">
          {form.orari.map((day, i) => (
            <DayRow
              key={WEEKDAYS[i]}
              index={i}
              day={day}
              errors={errors}
              onChange={(d) =>
                change(
                  'orari',
                  (orari) => orari.map((old, j) => (j === i ? d : old)),
                  `orari.${i}.apertura`,
                  `orari.${i}.chiusura`,
                  `orari.${i}`,
                )
              }
            />
          ))}
        </ul>
      </SectionCard>

      <SectionCard
        id="regole-limiti"
        title={t('rulesTab.limitsTitle')}
        description={t('rulesTab.limitsDescription')}
      >
        <ul className="grid gap-3">
          {LIMITS.map((limit) => (
            <LimitRow
              key={limit.key}
              limit={limit}
              value={form.limiti[limit.key]}
              error={errors[limit.key]}
              onChange={(value) => change('limiti', (limiti) => ({ ...limiti, [limit.key]: value }), limit.key)}
            />
          ))}
        </ul>
      </SectionCard>

      <NumberCard
        id="regole-lista-attesa"
        title={t('rulesTab.waitlistTitle')}
        description={t('rulesTab.waitlistDescription')}
        field="offertaMinuti"
        label={t('rulesTab.waitlistOffer')}
        max={1440}
        value={form.offertaMinuti}
        error={errors.offertaMinuti}
        onValue={(value) => change('offertaMinuti', () => value, 'offertaMinuti')}
      />

      <NumberCard
        id="regole-conservazione"
        title={t('rulesTab.retentionTitle')}
        description={t('rulesTab.retentionDescription')}
        field="conservazioneMesi"
        label={t('rulesTab.retentionMonths')}
        max={120}
        value={form.conservazioneMesi}
        error={errors.conservazioneMesi}
        onValue={(value) => change('conservazioneMesi', () => value, 'conservazioneMesi')}
      />

      <SectionCard
        id="regole-sospensione"
        title={t('rulesTab.suspensionTitle')}
        description={t('rulesTab.suspensionDescription')}
      >
        <SuspensionFields
          value={form.sospensione}
          errors={errors}
          onChange={(value) => change('sospensione', () => value, 'sospensione.soglia', 'sospensione.finestraGiorni', 'sospensione.giorni', 'sospensione')}
        />
      </SectionCard>

      <RulesFooter rules={rules} errors={errors} pending={pending} />
    </form>
  );
}

/** /admin?tab=regole (issue 20): hours, limits, the no-show suspension; then each sede's own hours (issue 47, with several) and the closures. */
export function RulesTab() {
  // Issue 48: the desk has its sede's closures only; the install's rules are the admin's.
  return useStaffView().isAdmin ? <InstallRules /> : <ClosuresSection />;
}

function InstallRules() {
  const t = useT();
  const rules = useRules();
  let editor: ReactNode;
  if (rules.isPending) editor = <Spinner label={t('rulesTab.loading')} showLabel className="py-4" />;
  else if (rules.isError || !rules.data) {
    editor = (
      <LoadFailed className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-card p-4" message={t('rulesTab.loadFailed')} onRetry={() => void rules.refetch()} />
    );
  } else editor = <RulesEditor rules={rules.data} />;

  return (
    <div className="grid gap-6">
      {editor}
      <SedeHoursSection install={rules.data?.orari} />
      <ClosuresSection />
    </div>
  );
}
