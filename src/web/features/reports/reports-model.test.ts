import { describe, expect, it } from 'vitest';
import { formatFileSize, formatReportDate } from './reports-model';

describe('formatFileSize (base 1024)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1,5 KB'],
    [122_667, '119,79 KB'],
    [1024 * 1024, '1 MB'],
    [5.25 * 1024 * 1024, '5,25 MB'],
    [3 * 1024 ** 3, '3072 MB'],
    [-5, '0 Bytes'],
  ])('%d → %s', (bytes, text) => {
    expect(formatFileSize(bytes, 'it').replace(/\u202f|\u00a0/g, ' ')).toBe(text);
  });
});

describe('formatReportDate', () => {
  it('writes the day in Italian', () => {
    expect(formatReportDate('2026-11-23', 'it')).toBe('23 novembre 2026');
    expect(formatReportDate('2026-03-01', 'it')).toBe('01 marzo 2026');
  });
});

describe('in English (issue 36)', () => {
  it('writes sizes and days the English way', () => {
    expect(formatFileSize(1536, 'en')).toBe('1.5 KB');
    expect(formatFileSize(122_667, 'en')).toBe('119.79 KB');
    expect(formatReportDate('2026-03-01', 'en')).toBe('1 March 2026');
  });
});
