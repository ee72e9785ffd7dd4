import type { Lingua } from './i18n/index.js';

/**
 * The week as the service's rules read it (issue 20): Monday first, index 0 = lunedì …
 * 6 = domenica. A module of its own, without zod: the booking form's first download needs
 * the names, not the schemas.
 */
export const WEEKDAYS = ['Lunedì', 'Martedì', 'Mercoledì', 'Giovedì', 'Venerdì', 'Sabato', 'Domenica'] as const;

const WEEKDAYS_EN = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A weekday's name as the rules show it, Monday = 0 (issue 36): `Lunedì` / `Monday`. */
export const weekdayLabel = (index: number, lingua: Lingua): string => (lingua === 'it' ? WEEKDAYS : WEEKDAYS_EN)[index]!;
