import { useMemo } from 'react';
import { useT } from '../../lib/i18n';
import { serverMessage } from '../../lib/api-errors';
import { dayStatus, ruleErrors, type FormRules } from './booking-rules';
import { availabilityWindow } from './booking-validation';
import type { BookingFormValues } from './dashboard-model';
import { useAvailableBikes } from './queries';

type WindowValues = Pick<BookingFormValues, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine' | 'biciId'>;

/**
 * What a booking's window decides, for the user's form and the desk's (issue 20): what the
 * rules refuse in it (said by its fields as they are typed), the day's hours, and the bikes
 * free in it, asked for only when the rules allow it. Only the date and the two times decide
 * which bikes are free; the destination does not. `limits: false`: the desk, which the
 * fair-use limits do not bind. `sedeId`: the sede whose bikes are asked for (issue 47).
 */
export function useBookingWindow(
  values: WindowValues,
  rules: FormRules | undefined,
  {
    openedAt,
    timeZone,
    limits = true,
    sedeId = null,
  }: {
    openedAt: Date;
    timeZone: string;
    limits?: boolean;
    /** The sede asked for (issue 47); null: the person's home sede, as the server defaults. */
    sedeId?: number | null;
  },
) {
  const t = useT();
  const { dataPrenotazione, orarioInizio, orarioFine } = values;
  const broken = useMemo(
    () => (rules ? ruleErrors(rules, { dataPrenotazione, orarioInizio, orarioFine }, { now: openedAt, timeZone, limits }, t) : {}),
    [rules, dataPrenotazione, orarioInizio, orarioFine, openedAt, timeZone, limits, t],
  );
  const windowAllowed = Object.keys(broken).length === 0;
  const slot = useMemo(() => {
    const window = windowAllowed ? availabilityWindow({ dataPrenotazione, orarioInizio, orarioFine }) : null;
    return window && sedeId !== null ? { ...window, sedeId } : window;
  }, [windowAllowed, dataPrenotazione, orarioInizio, orarioFine, sedeId]);
  const day = rules ? dayStatus(rules, dataPrenotazione) : null;
  const available = useAvailableBikes(slot);
  const availableIds = useMemo(() => (available.data ? new Set(available.data.map((b) => b.id)) : undefined), [available.data]);
  // A bike chosen for another window, or taken meanwhile, is no longer a choice.
  const selectedId = values.biciId !== null && availableIds?.has(values.biciId) ? values.biciId : null;
  const loadError = available.error ? (serverMessage(available.error) ?? t('bookingForm.bikesLoadFailed')) : null;
  return { broken, windowAllowed, slot, day, available, availableIds, selectedId, loadError };
}

export type BookingWindow = ReturnType<typeof useBookingWindow>;
