/**
 * A calendar day (`YYYY-MM-DD`) in Italian words, as the dashboard and the offline line show
 * it: "domenica 22 novembre 2026", "22 novembre". A day is not an instant, so no time zone
 * and no `Intl` are involved; the names are the ones date-fns's Italian locale gives
 * (calendar-text.test.ts compares every day of several years). Written out here so that the
 * dashboard's first download carries two short lists instead of date-fns's formatter and
 * its whole Italian locale (docs/performance.md, 2026-11-26).
 */
const MONTHS = ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'] as const;
/** Index 0 = Sunday, as `Date.prototype.getUTCDay` counts. */
const DAYS = ['domenica', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato'] as const;

function parts(date: string): { y: number; m: number; d: number; weekday: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d, weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay() };
}

/** "2026-11-22" → "domenica 22 novembre 2026". `date` must be a real calendar day. */
export function italianLongDate(date: string): string {
  const { y, m, d, weekday } = parts(date);
  return `${DAYS[weekday]} ${d} ${MONTHS[m - 1]} ${y}`;
}

/** "2026-05-03" → "3 maggio", or "3 maggio 2026" with the year. `date` must be a real calendar day. */
export function italianDayMonth(date: string, withYear: boolean): string {
  const { y, m, d } = parts(date);
  return withYear ? `${d} ${MONTHS[m - 1]} ${y}` : `${d} ${MONTHS[m - 1]}`;
}
