import { useMutation } from '@tanstack/react-query';
import { CircleCheckIcon, SendIcon, TriangleAlertIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { CategoryOptions, EarlyReportFields, useFocusOnOpen } from './early-report-fields';
import { DAMAGE_CATEGORIES, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../../../shared/damage';
import type { TicketDto } from '../../../shared/schemas/interventi';
import { FormField } from '../../components/form-field';
import { PhotoPicker, photosProblem } from '../../components/photo-picker';
import { Button, ButtonIcon } from '../../components/ui/button';
import { NativeSelect } from '../../components/ui/native-select';
import { Textarea } from '../../components/ui/textarea';
import { apiSendForm } from '../../lib/api';
import { isNetworkFailure, serverMessage } from '../../lib/api-errors';
import { useT, type Translate } from '../../lib/i18n';

interface Values {
  categoria: DamageCategory | '';
  descrizione: string;
  foto: File[];
}
type Errors = Partial<Record<'categoria' | 'descrizione' | 'foto', string>>;

const EMPTY: Values = { categoria: '', descrizione: '', foto: [] };

/** Each field's first mistake, or none (the server checks the same, in the person's language). */
export function reportErrors(values: Values, t: Translate): Errors {
  const errors: Errors = {};
  if (!(DAMAGE_CATEGORIES as readonly string[]).includes(values.categoria)) errors.categoria = t('reportProblem.chooseCategory');
  const length = values.descrizione.trim().length;
  if (length === 0 || length > DAMAGE_DESCRIPTION_MAX) errors.descrizione = t('reportProblem.describe', { max: DAMAGE_DESCRIPTION_MAX });
  const photos = photosProblem(values.foto, t);
  if (photos) errors.foto = photos;
  return errors;
}

/** POST /api/interventi, multipart: the bike, what is wrong, up to 3 photos. */
function useReportProblem() {
  return useMutation({
    mutationFn: ({ biciId, values }: { biciId: number; values: Values }) => {
      const form = new FormData();
      form.append('biciId', String(biciId));
      form.append('categoria', values.categoria);
      form.append('descrizione', values.descrizione.trim());
      for (const file of values.foto) form.append('foto', file, file.name);
      return apiSendForm<TicketDto>('POST', '/api/interventi', form);
    },
  });
}

/**
 * `Segnala un problema` on a bike's page (issue 48), for anyone logged in: what is wrong, and
 * up to 3 photos from the phone's camera. It opens a repair ticket; a refusal is told under the
 * form in the person's language and what was typed and chosen stays.
 */
export function ReportProblem({ biciId, numero }: { biciId: number; numero: string }) {
  const t = useT();
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState(false);
  const report = useReportProblem();
  const pending = report.isPending;
  const focusOnOpenRef = useFocusOnOpen(open, id);

  function update(next: Partial<Values>) {
    setValues((current) => ({ ...current, ...next }));
    setErrors((current) => {
      const rest = { ...current };
      for (const key of Object.keys(next)) delete rest[key as keyof Errors];
      return rest;
    });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const found = reportErrors(values, t);
    setErrors(found);
    const first = (['categoria', 'descrizione', 'foto'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(id(first === 'foto' ? 'foto-add' : first))?.focus();
      return;
    }
    report.mutate(
      { biciId, values },
      {
        onSuccess: () => {
          setValues(EMPTY);
          setOpen(false);
          setSent(true);
        },
      },
    );
  }

  const failure = report.isError ? (isNetworkFailure(report.error) ? t('reportProblem.offline') : (serverMessage(report.error) ?? t('reportProblem.failed'))) : null;

  return (
    <section aria-labelledby={id('title')} className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <h2 id={id('title')} className="flex items-center gap-2 text-xl font-semibold">
        <TriangleAlertIcon className="size-6 text-orange-600" aria-hidden="true" />
        {t('reportProblem.title')}
      </h2>
      {sent ? (
        <p role="status" className="flex items-start gap-2 rounded-lg border border-green-200 bg-green-50 p-3 text-green-900">
          <CircleCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          {t('reportProblem.sent', { numero })}
        </p>
      ) : null}
      {open ? (
        <form noValidate onSubmit={submit} aria-busy={pending} className="grid gap-4">
          <FormField id={id('categoria')} label={t('reportProblem.category')} error={errors.categoria} required>
            {(control) => (
              <NativeSelect {...control} value={values.categoria} disabled={pending} onChange={(e) => update({ categoria: e.target.value as DamageCategory | '' })}>
                <CategoryOptions />
              </NativeSelect>
            )}
          </FormField>
          <FormField id={id('descrizione')} label={t('reportProblem.details')} error={errors.descrizione} required>
            {(control) => (
              <Textarea
                {...control}
                rows={4}
                maxLength={DAMAGE_DESCRIPTION_MAX}
                value={values.descrizione}
                disabled={pending}
                onChange={(e) => update({ descrizione: e.target.value })}
              />
            )}
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('reportProblem.photos')}</legend>
            <PhotoPicker id={id('foto')} files={values.foto} disabled={pending} onChange={(foto) => update({ foto })} />
          </fieldset>
          {failure ? (
            <p role="alert" className="rounded-lg border border-destructive/40 p-3 font-medium text-destructive">
              {failure}
            </p>
          ) : null}
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button type="submit" size="lg" className="min-h-12" disabled={pending}>
              <ButtonIcon pending={pending} icon={<SendIcon aria-hidden="true" />} />
              {t('reportProblem.send')}
            </Button>
            <Button type="button" size="lg" variant="outline" className="min-h-12" disabled={pending} onClick={() => setOpen(false)}>
              {t('reportProblem.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <EarlyReportFields
          id={id}
          onOpen={() => {
            setSent(false);
            report.reset();
            setOpen(true);
          }}
          onAdopt={(early) => {
            setValues({ categoria: early.categoria, descrizione: early.descrizione, foto: [] });
            focusOnOpenRef.current = early.focused;
            setOpen(true);
          }}
        />
      )}
    </section>
  );
}
