const euro = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });

/** 250 → "2,50 €" (with a non-breaking space, as Italian formatting wants). */
export function formatEuroCents(cents: number): string {
  return euro.format(cents / 100);
}
