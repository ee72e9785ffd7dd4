/**
 * Made at the first use, not when the module loads: a currency formatter is the costliest
 * `Intl` object to build (~10 ms on a fast CPU, its ICU data included), and the pages that
 * load this module (the dashboard, /admin) mostly show no amount on their first screen.
 */
let euro: Intl.NumberFormat | undefined;

/** 250 → "2,50 €" (with a non-breaking space, as Italian formatting wants). */
export function formatEuroCents(cents: number): string {
  euro ??= new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
  return euro.format(cents / 100);
}
