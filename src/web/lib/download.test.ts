import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('fileNameFromDisposition', () => {
  it('reads the quoted, plain and RFC 5987 forms, preferring filename*', () => {
    expect(fileNameFromDisposition('attachment; filename="Report_BiciElis_2026-11-23.pdf"', 'x')).toBe('Report_BiciElis_2026-11-23.pdf');
    expect(fileNameFromDisposition('attachment; filename=plain.pdf', 'x')).toBe('plain.pdf');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''r%C3%A9port.pdf; filename=\"x.pdf\"", 'x')).toBe('réport.pdf');
    expect(fileNameFromDisposition('attachment; filename="prenotazioni_2026-11-15_2026-11-21.csv"', 'x.csv')).toBe(
      'prenotazioni_2026-11-15_2026-11-21.csv',
    );
  });

  it('never returns a path, and falls back when there is no name', () => {
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"', 'x')).toBe('.._.._etc_passwd');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E0%A4%A", 'fallback.pdf')).toBe('fallback.pdf');
    expect(fileNameFromDisposition('attachment', 'Report_4.pdf')).toBe('Report_4.pdf');
    expect(fileNameFromDisposition(null, 'Report_7.pdf')).toBe('Report_7.pdf');
  });
});
