import { describe, expect, it } from 'vitest';
import { formatEuroCents } from './money';

const intl = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });

describe('formatEuroCents', () => {
  it('writes the fee as Italian formatting does', () => {
    expect(formatEuroCents(250)).toBe('2,50\u00a0€');
    expect(formatEuroCents(0)).toBe('0,00\u00a0€');
    expect(formatEuroCents(100_000)).toBe('1000,00\u00a0€');
    expect(formatEuroCents(1_234_567)).toBe('12.345,67\u00a0€');
  });

  it('gives what Intl.NumberFormat it-IT gives, cent by cent up to 2,000 € and sampled up to 100 million', () => {
    const values: number[] = [];
    for (let c = 0; c <= 200_000; c++) values.push(c);
    for (let c = 200_000; c < 10_000_000_000; c = Math.floor(c * 1.37) + 7) values.push(c, c + 99, c + 1);
    for (const c of [-1, -250, -123_456]) values.push(c);
    const differing = values.filter((c) => formatEuroCents(c) !== intl.format(c / 100));
    expect(differing.slice(0, 5).map((c) => [c, formatEuroCents(c), intl.format(c / 100)])).toEqual([]);
    expect(values.length).toBeGreaterThan(200_000);
  });
});
