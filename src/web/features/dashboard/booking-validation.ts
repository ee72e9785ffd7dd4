import {
  availabilityRequestSchema,
  bookingRequestSchema,
  type AvailabilityRequest,
  type BookingRequest,
} from '../../../shared/schemas/booking';
import { t } from '../../lib/i18n';
import type { BookingFormErrors, BookingFormField, BookingFormValues } from './dashboard-model';

/*
 * The booking form's checks, with the schemas the server uses. Apart from dashboard-model.ts
 * so that zod comes with the form (loaded when it opens), not with the dashboard.
 */

/** The window to ask available bikes for, or null while date and both times are not set and coherent. */
export function availabilityWindow(
  values: Pick<BookingFormValues, 'dataPrenotazione' | 'orarioInizio' | 'orarioFine'>,
): AvailabilityRequest | null {
  const parsed = availabilityRequestSchema.safeParse({
    dataPrenotazione: values.dataPrenotazione,
    orarioInizio: values.orarioInizio,
    orarioFine: values.orarioFine,
  });
  return parsed.success ? parsed.data : null;
}

const FIELD_ORDER: BookingFormField[] = ['dataPrenotazione', 'orarioInizio', 'orarioFine', 'destinazione', 'biciId'];

export type BookingFormResult = { ok: true; request: BookingRequest } | { ok: false; errors: BookingFormErrors; first: BookingFormField };

/**
 * Checks the form with the schema the server uses (spec §5 messages). `availableIds`, when
 * known, are the bikes free for the window: a chosen bike that is no longer among them
 * counts as no choice.
 */
export function validateBookingForm(values: BookingFormValues, availableIds?: ReadonlySet<number>): BookingFormResult {
  const biciId = values.biciId !== null && (!availableIds || availableIds.has(values.biciId)) ? values.biciId : null;
  const request = { ...values, biciId };
  const parsed = bookingRequestSchema.safeParse(request);
  if (parsed.success) return { ok: true, request: parsed.data };

  const errors: BookingFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (FIELD_ORDER as string[]).includes(field)) {
      errors[field as BookingFormField] ??= issue.message;
    }
  }
  const first = FIELD_ORDER.find((f) => errors[f] !== undefined) ?? 'biciId';
  errors[first] ??= t('bookingForm.checkData');
  return { ok: false, errors, first };
}
