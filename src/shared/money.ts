/**
 * 250 → "2,50 €": Italian formatting, a comma before the cents, a full stop between thousands
 * from five digits up ("1000,00 €", "12.345,67 €"), a non-breaking space before the sign.
 * Written out rather than through `Intl.NumberFormat`: a page's first `Intl` object loads
 * ICU's data (~25 ms on the 2-core machine, about four times that on a slow phone), and the
 * dashboard and /admin open with no other use of `Intl` (shared/time.ts, docs/performance.md).
 * money.test.ts compares it with `Intl.NumberFormat('it-IT', EUR)` over a wide range.
 */
export function formatEuroCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.round(Math.abs(cents));
  const euros = String(Math.floor(whole / 100));
  const rest = String(whole % 100).padStart(2, '0');
  const grouped = euros.length < 5 ? euros : euros.replace(/\B(?=(\d{3})+$)/g, '.');
  return `${sign}${grouped},${rest}\u00a0€`;
}
