import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderBikeLabelsApart, renderDayReportApart } from './apart.js';
import type { DayReportData } from './day-report.js';

/**
 * fontkit's CommonJS modules this process has loaded: pdfkit and fontkit are ES modules, which
 * Node lists nowhere, but the CommonJS they import (its state machines, its Unicode tables)
 * lands in the require cache.
 */
const fontkitLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((file) => /\/node_modules\/(dfa|unicode-trie|tiny-inflate)\//.test(file));

const DAY: DayReportData = {
  lingua: 'it',
  organisation: 'Collegio ELIS',
  appName: 'BiciElis',
  longDate: 'lunedì 23 novembre 2026',
  generatedAt: '24/11/2026 01:00',
  timeZone: 'Europe/Rome',
  totals: [{ label: 'Prenotazioni', value: '1' }],
  people: [],
  revenue: [],
  revenueNote: '',
  bikes: [],
  rides: [],
  waitlist: '',
  damages: [],
  hourly: Array.from({ length: 24 }, () => 0),
  rows: [{ orario: '09:00-10:00', utente: 'Marco Rossi', residente: true, bici: '07', destinazione: 'Centro', stato: 'Completata', pagamento: '—' }],
};

// Issue 51 (decision 063): a process that drew a PDF kept pdfkit and fontkit, ~16 MB of RSS, for the rest of its life.
describe('the PDFs are drawn in a worker that ends with them', () => {
  it('draws the day report and the labels without loading pdfkit into this process', async () => {
    expect(fontkitLoaded()).toEqual([]);
    const report = await renderDayReportApart(DAY, new Date('2026-11-24T00:00:00Z'));
    const labels = await renderBikeLabelsApart([{ numero: '07', url: 'http://localhost:3000/bici/07' }], {
      title: 'Etichette',
      author: 'BiciElis',
      creationDate: new Date('2026-11-24T00:00:00Z'),
    });
    for (const pdf of [report, labels]) {
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    }
    expect(fontkitLoaded()).toEqual([]);
  });

  it('the check sees pdfkit when this process loads it (the test above can fail)', async () => {
    await import('pdfkit');
    expect(fontkitLoaded().length).toBeGreaterThan(0);
  });
});
