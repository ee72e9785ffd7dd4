import { AlertCircleIcon, BikeIcon, SparklesIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { groupBikesByHint, suggestedModels } from '../../../shared/bike-hints';
import type { BikeDto } from '../../../shared/schemas/booking';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import type { BookingWindow } from './use-booking-window';

export const BIKE_RADIO_NAME = 'biciId';

interface BikePickerProps {
  /** Whether the window (date and both times) is complete, so bikes can be asked for. */
  windowReady: boolean;
  /** What to say while it is not (default: choose the date and the times). */
  notReadyText?: string | undefined;
  bikes: BikeDto[] | undefined;
  loading: boolean;
  /** The message of a failed availability call, e.g. 'Non puoi prenotare per una data passata'. */
  loadError: string | null;
  destinazione: string;
  selectedId: number | null;
  onSelect: (id: number) => void;
  error: string | undefined;
  errorId: string;
}

function BikeOption({
  bike,
  checked,
  invalid,
  describedBy,
  onSelect,
}: {
  bike: BikeDto;
  checked: boolean;
  invalid: boolean;
  describedBy: string | undefined;
  onSelect: (id: number) => void;
}) {
  const t = useT();
  return (
    <label
      className={cn(
        'flex min-h-14 cursor-pointer items-center gap-2.5 rounded-lg border bg-card px-2.5 py-2 transition-colors hover:bg-accent sm:gap-3 sm:px-3',
        'has-[:checked]:border-primary has-[:checked]:bg-brand-50 has-[:checked]:ring-1 has-[:checked]:ring-primary',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
      )}
    >
      <input
        type="radio"
        name={BIKE_RADIO_NAME}
        value={bike.id}
        checked={checked}
        onChange={() => onSelect(bike.id)}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className="size-5 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
      />
      <span className="grid min-w-0">
        <span className="font-semibold wrap-anywhere">{t('bikePicker.bike', { numero: bike.numero })}</span>
        <span className="text-sm leading-snug break-words text-muted-foreground">{bike.modello}</span>
      </span>
    </label>
  );
}

function BikeGroup({ legend, icon, children }: { legend: string; icon: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 flex items-center gap-2 text-sm font-semibold">
        {icon}
        {legend}
      </legend>
      {children}
    </fieldset>
  );
}

const optionsGrid = 'grid grid-cols-2 gap-2 lg:grid-cols-3';

/**
 * The bicycle choice: native radio buttons (one name, so the arrow keys move between every
 * bike), grouped as 'Consigliate' and 'Altre disponibili' when the destination suggests
 * some models (spec §5), as one list otherwise.
 */
export function BikePicker({
  windowReady,
  notReadyText,
  bikes,
  loading,
  loadError,
  destinazione,
  selectedId,
  onSelect,
  error,
  errorId,
}: BikePickerProps) {
  const t = useT();
  const describedBy = error ? errorId : undefined;

  function options(list: BikeDto[]) {
    return (
      <div className={optionsGrid}>
        {list.map((bike) => (
          <BikeOption
            key={bike.id}
            bike={bike}
            checked={bike.id === selectedId}
            invalid={Boolean(error)}
            describedBy={describedBy}
            onSelect={onSelect}
          />
        ))}
      </div>
    );
  }

  let body: ReactNode;
  if (!windowReady) {
    body = <p className="text-sm text-muted-foreground">{notReadyText ?? t('bikePicker.notReady')}</p>;
  } else if (loading) {
    body = <Spinner label={t('bikePicker.searching')} showLabel className="py-2 text-sm" />;
  } else if (loadError) {
    body = (
      <p role="alert" className="flex items-start gap-2 text-sm font-medium text-destructive">
        <AlertCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {loadError}
      </p>
    );
  } else if (!bikes || bikes.length === 0) {
    body = (
      <p className="rounded-lg border border-dashed px-3 py-4 text-center text-sm text-muted-foreground">
        {t('bikePicker.none')}
      </p>
    );
  } else if (suggestedModels(destinazione) === null) {
    body = options(bikes);
  } else {
    const { recommended, others } = groupBikesByHint(bikes, destinazione);
    body = (
      <div className="grid gap-4">
        <BikeGroup legend={t('bikePicker.recommended')} icon={<SparklesIcon className="size-4 text-primary" aria-hidden="true" />}>
          {recommended.length > 0 ? (
            options(recommended)
          ) : (
            <p className="text-sm text-muted-foreground">{t('bikePicker.noRecommended')}</p>
          )}
        </BikeGroup>
        {others.length > 0 ? (
          <BikeGroup legend={t('bikePicker.others')} icon={<BikeIcon className="size-4 text-muted-foreground" aria-hidden="true" />}>
            {options(others)}
          </BikeGroup>
        ) : null}
      </div>
    );
  }

  return (
    <fieldset className="grid gap-3" aria-describedby={describedBy}>
      <legend className="mb-1 text-sm font-medium">{t('bikePicker.legend')}</legend>
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {body}
    </fieldset>
  );
}

/** The picker of a booking form's window (use-booking-window.ts): the user's form and the desk's. */
export function WindowBikePicker({
  window: w,
  destinazione,
  onSelect,
  error,
  errorId,
}: {
  window: BookingWindow;
  destinazione: string;
  onSelect: (id: number) => void;
  error: string | undefined;
  errorId: string;
}) {
  const t = useT();
  return (
    <BikePicker
      windowReady={w.slot !== null}
      notReadyText={w.windowAllowed ? undefined : t('bikePicker.windowNotAllowed')}
      bikes={w.available.data}
      loading={w.available.isFetching}
      loadError={w.loadError}
      destinazione={destinazione}
      selectedId={w.selectedId}
      onSelect={onSelect}
      error={error}
      errorId={errorId}
    />
  );
}
