import { TriangleAlertIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { DAMAGE_CATEGORIES, DAMAGE_CATEGORY_LABELS, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../../../shared/damage';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { NativeSelect } from '../../components/ui/native-select';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { useT } from '../../lib/i18n';
import { isPopoverOpen } from '../../lib/popover';

/** What the early fields held when the form takes their place. */
export interface EarlyReport {
  categoria: DamageCategory | '';
  descrizione: string;
  /** The field that had the focus (else the first). */
  focused: 'categoria' | 'descrizione';
}

/** The early fields' own value of a select: a category, or none chosen. */
const asCategory = (value: string): DamageCategory | '' => ((DAMAGE_CATEGORIES as readonly string[]).includes(value) ? (value as DamageCategory) : '');

/**
 * The field to focus once the form has taken the early fields' place (set it, then open the
 * form): the form's own field of the same name.
 */
export function useFocusOnOpen(open: boolean, id: (field: string) => string) {
  const focusOnOpen = useRef<EarlyReport['focused'] | null>(null);
  useEffect(() => {
    if (!open || !focusOnOpen.current) return;
    const field = document.getElementById(id(focusOnOpen.current));
    field?.focus();
    // Typing goes on where it was: after what the early field held.
    if (field instanceof HTMLTextAreaElement) field.setSelectionRange(field.value.length, field.value.length);
    focusOnOpen.current = null;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  return focusOnOpen;
}

/** The choices of `Che cosa non va`, in the early fields and in the form. */
export function CategoryOptions() {
  const t = useT();
  return (
    <>
      <option value="">{t('reportProblem.choose')}</option>
      {DAMAGE_CATEGORIES.map((categoria) => (
        <option key={categoria} value={categoria}>
          {t(DAMAGE_CATEGORY_LABELS[categoria])}
        </option>
      ))}
    </>
  );
}

/**
 * `Segnala un problema` and the report's first fields, in the HTML the server sends for a bike's
 * page (decision 068, as decision 039's `Nuova prenotazione`). The button opens the fields
 * natively, before the app's code has come: it is the invoker (`popovertarget`) of an empty manual
 * popover that only holds the state "opened", and styles.css shows the fields in the button's place
 * while that is open; boot/early-controls.ts moves the focus to `Che cosa non va`. Once the page has
 * hydrated, fields opened before are handed to the form (`onAdopt`) with what was chosen and typed;
 * a tap from then on opens the form itself (`onOpen`). Ids are the form's: the two are never
 * on the page together.
 */
export function EarlyReportFields({ id, onOpen, onAdopt }: { id: (field: string) => string; onOpen: () => void; onAdopt: (early: EarlyReport) => void }) {
  const t = useT();
  const switchRef = useRef<HTMLDivElement>(null);
  const fieldsRef = useRef<HTMLDivElement>(null);

  const adopt = () => {
    const field = <T extends HTMLElement>(name: string) => fieldsRef.current?.querySelector<T>(`[data-early-field="${name}"]`) ?? null;
    const categoria = field<HTMLSelectElement>('categoria');
    const descrizione = field<HTMLTextAreaElement>('descrizione');
    onAdopt({
      categoria: asCategory(categoria?.value ?? ''),
      descrizione: descrizione?.value ?? '',
      focused: descrizione !== null && descrizione === document.activeElement ? 'descrizione' : 'categoria',
    });
  };
  useEffect(() => {
    if (isPopoverOpen(switchRef.current)) adopt();
    // Once, as the page hydrates (a mount after the form's `Annulla` finds the switch closed).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <Button
        type="button"
        size="lg"
        variant="outline"
        className="min-h-12 w-full sm:w-auto sm:justify-self-start"
        popoverTarget={id('aperto')}
        popoverTargetAction="show"
        data-early-open=""
        onClick={onOpen}
      >
        <TriangleAlertIcon aria-hidden="true" />
        {t('reportProblem.open')}
      </Button>
      <div ref={switchRef} id={id('aperto')} popover="manual" data-early-switch="" />
      {/* What is chosen or typed between the hydration and the form's taking their place is handed over too. */}
      <div ref={fieldsRef} data-early-booking="" onInput={adopt}>
        <div className="grid gap-4">
          <FormField id={id('categoria')} label={t('reportProblem.category')} required>
            {(control) => (
              <NativeSelect {...control} defaultValue="" data-early-field="categoria">
                <CategoryOptions />
              </NativeSelect>
            )}
          </FormField>
          <FormField id={id('descrizione')} label={t('reportProblem.details')} required>
            {(control) => <Textarea {...control} rows={4} maxLength={DAMAGE_DESCRIPTION_MAX} defaultValue="" data-early-field="descrizione" />}
          </FormField>
          <Spinner label={t('reportProblem.loadingForm')} showLabel className="justify-start py-1" />
          <Button type="button" size="lg" variant="outline" className="min-h-12 sm:justify-self-start" popoverTarget={id('aperto')} popoverTargetAction="hide">
            {t('reportProblem.cancel')}
          </Button>
        </div>
      </div>
    </>
  );
}
