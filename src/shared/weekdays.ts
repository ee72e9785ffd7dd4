/**
 * The week as the service's rules read it (issue 20): Monday first, index 0 = lunedì …
 * 6 = domenica. A module of its own, without zod: the booking form's first download needs
 * the names, not the schemas.
 */
export const WEEKDAYS = ['Lunedì', 'Martedì', 'Mercoledì', 'Giovedì', 'Venerdì', 'Sabato', 'Domenica'] as const;
