import type { Lingua, Translate } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { toWinAnsi } from './winansi.js';

/** One booking row of the day, as the report shows it (already worded in the report's language). */
export interface DayReportRow {
  orario: string;
  utente: string;
  residente: boolean;
  bici: string;
  destinazione: string;
  stato: string;
  pagamento: string;
}

/** Everything the PDF of a day shows; made by modules/reports/data.ts, drawn here. */
export interface DayReportData {
  /** The report's language (issue 36): its headings are drawn in it, its data worded in it. */
  lingua: Lingua;
  organisation: string;
  appName: string;
  /** "lunedì 23 novembre 2026" */
  longDate: string;
  /** "23/11/2026 23:00" */
  generatedAt: string;
  timeZone: string;
  totals: { label: string; value: string }[];
  people: { label: string; value: string }[];
  revenue: { label: string; value: string }[];
  revenueNote: string;
  bikes: { label: string; value: string }[];
  /** The ride's events of the day (decision 022): picked up, returned, no-shows, late, damage. */
  rides: { label: string; value: string }[];
  /** The waitlist's line (issue 21): the day's waits served and not served. */
  waitlist: string;
  /** The damage reports made that day, in order. */
  damages: { ora: string; bici: string; categoria: string; descrizione: string; utente: string }[];
  /** 24 counts: bookings in use during each hour (wall clock of the time zone). */
  hourly: number[];
  rows: DayReportRow[];
  /** With several sedi (issue 47): a line per sede, then the total; null with one (nothing drawn). */
  sedi?: string[] | null;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const CONTENT_W = A4[0] - 2 * MARGIN;
const FOOTER_Y = A4[1] - 28;
const BOTTOM = A4[1] - MARGIN - 14;
const GREEN = '#0f5132';
const GREY = '#6b7280';
const LINE = '#d1d5db';
const TEXT = '#1f2933';

const COLUMNS = [
  { key: 'orario', title: 'reportPdf.column.time', width: 62 },
  { key: 'utente', title: 'reportPdf.column.user', width: 112 },
  { key: 'bici', title: 'reportPdf.column.bike', width: 96 },
  { key: 'destinazione', title: 'reportPdf.column.destination', width: 128 },
  { key: 'stato', title: 'reportPdf.column.status', width: 56 },
  { key: 'pagamento', title: 'reportPdf.column.payment', width: 61 },
] as const;
const CELL_PAD = 3;
const FONT_SIZE = 8;
const LINE_H = 10;

type Doc = PDFKit.PDFDocument;

/** Draws the report of one day in its language: A4, Helvetica, "Pagina N di M" at the foot of each page. */
export async function renderDayReport(data: DayReportData, creationDate: Date): Promise<Buffer> {
  const t = tFor(data.lingua);
  // pdfkit (with its font tables, about 6 MB of heap) is loaded by the first report, not at
  // start: most processes never draw one (issue 33).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: toWinAnsi(t('reportPdf.docTitle', { app: data.appName, data: data.longDate })),
      Author: toWinAnsi(data.organisation),
      Creator: data.appName,
      CreationDate: creationDate,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  header(doc, data, t);
  summary(doc, data, t);
  rideSummary(doc, data, t);
  if (data.sedi) sediSummary(doc, data.sedi, t);
  chart(doc, data.hourly, t);
  table(doc, data.rows, t);
  damageList(doc, data.damages, t);
  pageNumbers(doc, t);
  doc.end();
  return done;
}

function header(doc: Doc, data: DayReportData, t: Translate) {
  doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(18).text(toWinAnsi(`${data.organisation} - ${data.appName}`), MARGIN, MARGIN);
  doc.fillColor(TEXT).font('Helvetica').fontSize(13).text(toWinAnsi(t('reportPdf.heading', { data: data.longDate })));
  doc
    .fillColor(GREY)
    .fontSize(8)
    .text(toWinAnsi(t('reportPdf.generated', { at: data.generatedAt, tz: data.timeZone })));
  const y = doc.y + 6;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + CONTENT_W, y).lineWidth(1).strokeColor(GREEN).stroke();
  doc.y = y + 10;
}

/** Four boxes side by side: bookings by status, people, revenue, bikes. */
function summary(doc: Doc, data: DayReportData, t: Translate) {
  const groups = [
    { title: t('reportPdf.group.bookings'), items: data.totals },
    { title: t('reportPdf.group.people'), items: data.people },
    { title: t('reportPdf.group.revenue'), items: data.revenue },
    { title: t('reportPdf.group.bikes'), items: data.bikes },
  ];
  const gap = 8;
  const w = (CONTENT_W - gap * (groups.length - 1)) / groups.length;
  const top = doc.y;
  const rows = Math.max(...groups.map((g) => g.items.length));
  const h = 22 + rows * 12 + 6;
  groups.forEach((g, i) => {
    const x = MARGIN + i * (w + gap);
    doc.roundedRect(x, top, w, h, 4).lineWidth(0.7).strokeColor(LINE).stroke();
    doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(9).text(toWinAnsi(g.title), x + 6, top + 7, { width: w - 12, lineBreak: false });
    g.items.forEach((item, j) => {
      const yy = top + 22 + j * 12;
      doc.fillColor(TEXT).font('Helvetica').fontSize(8).text(toWinAnsi(item.label), x + 6, yy, { width: w - 50, lineBreak: false, ellipsis: true });
      doc.font('Helvetica-Bold').text(toWinAnsi(item.value), x + 6, yy, { width: w - 12, align: 'right', lineBreak: false });
    });
  });
  doc.fillColor(GREY).font('Helvetica').fontSize(7).text(toWinAnsi(data.revenueNote), MARGIN, top + h + 4, { width: CONTENT_W });
  doc.y += 10;
}

/** One line of the ride's figures of the day. */
function rideSummary(doc: Doc, data: DayReportData, t: Translate) {
  doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(10).text(toWinAnsi(t('reportPdf.rides.title')), MARGIN, doc.y);
  const line = data.rides.map((r) => `${r.label}: ${r.value}`).join('   ');
  doc.fillColor(TEXT).font('Helvetica').fontSize(9).text(toWinAnsi(line), MARGIN, doc.y + 3, { width: CONTENT_W });
  doc.fillColor(TEXT).font('Helvetica').fontSize(9).text(toWinAnsi(data.waitlist), MARGIN, doc.y + 3, { width: CONTENT_W });
  doc.y += 10;
}

/** Each sede's line and the total's (issue 47), drawn only when the install has several. */
function sediSummary(doc: Doc, lines: string[], t: Translate) {
  doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(10).text(toWinAnsi(t('sediReport.title')), MARGIN, doc.y);
  for (const line of lines) doc.fillColor(TEXT).font('Helvetica').fontSize(9).text(toWinAnsi(line), MARGIN, doc.y + 3, { width: CONTENT_W });
  doc.y += 10;
}

/** The damage reports of the day, each with its text (wrapped), after the bookings' table. */
function damageList(doc: Doc, damages: DayReportData['damages'], t: Translate) {
  if (doc.y + 40 > BOTTOM) doc.addPage();
  doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(10).text(toWinAnsi(t('reportPdf.damages.title', { count: String(damages.length) })), MARGIN, doc.y + 12);
  if (damages.length === 0) {
    doc.fillColor(GREY).font('Helvetica').fontSize(9).text(toWinAnsi(t('reportPdf.damages.none')), MARGIN, doc.y + 4);
    return;
  }
  for (const d of damages) {
    const text = toWinAnsi(t('reportPdf.damages.line', { ora: d.ora, bici: d.bici, categoria: d.categoria, utente: d.utente, descrizione: d.descrizione }));
    const h = doc.font('Helvetica').fontSize(FONT_SIZE).heightOfString(text, { width: CONTENT_W });
    if (doc.y + h + 4 > BOTTOM) doc.addPage();
    doc.fillColor(TEXT).text(text, MARGIN, doc.y + 4, { width: CONTENT_W });
  }
}

/** Bars per hour of bookings in use (vector drawing), with a light grid and a y scale. */
function chart(doc: Doc, hourly: number[], t: Translate) {
  doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(10).text(toWinAnsi(t('reportPdf.chart.title')), MARGIN, doc.y);
  const top = doc.y + 6;
  const height = 110;
  const left = MARGIN + 24;
  const width = CONTENT_W - 24;
  const max = Math.max(1, ...hourly);
  const step = niceStep(max);
  const scaleMax = Math.ceil(max / step) * step;
  doc.font('Helvetica').fontSize(6.5).fillColor(GREY);
  for (let v = 0; v <= scaleMax; v += step) {
    const y = top + height - (v / scaleMax) * height;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.4).strokeColor(v === 0 ? GREY : LINE).stroke();
    doc.text(String(v), MARGIN, y - 3, { width: 20, align: 'right', lineBreak: false });
  }
  const slot = width / 24;
  const barW = slot * 0.7;
  hourly.forEach((n, h) => {
    const x = left + h * slot + (slot - barW) / 2;
    if (n > 0) {
      const bh = (n / scaleMax) * height;
      doc.rect(x, top + height - bh, barW, bh).fillColor(GREEN).fill();
    }
    doc.fillColor(GREY).text(String(h).padStart(2, '0'), left + h * slot, top + height + 3, { width: slot, align: 'center', lineBreak: false });
  });
  doc.y = top + height + 18;
}

function niceStep(max: number): number {
  const raw = max / 4;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * pow) return Math.max(1, m * pow);
  return Math.max(1, 10 * pow);
}

function tableHeader(doc: Doc, y: number, t: Translate): number {
  doc.rect(MARGIN, y, CONTENT_W, LINE_H + 6).fillColor('#e8f3ee').fill();
  let x = MARGIN;
  doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(FONT_SIZE);
  for (const col of COLUMNS) {
    doc.text(toWinAnsi(t(col.title)), x + CELL_PAD, y + 4, { width: col.width - 2 * CELL_PAD, lineBreak: false });
    x += col.width;
  }
  return y + LINE_H + 8;
}

function table(doc: Doc, rows: DayReportRow[], t: Translate) {
  doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(10).text(toWinAnsi(t('reportPdf.table.title', { count: String(rows.length) })), MARGIN, doc.y);
  let y = doc.y + 4;
  if (rows.length === 0) {
    doc.fillColor(GREY).font('Helvetica').fontSize(9).text(toWinAnsi(t('reportPdf.table.none')), MARGIN, y + 4);
    return;
  }
  y = tableHeader(doc, y, t);
  doc.font('Helvetica').fontSize(FONT_SIZE);
  const destCol = COLUMNS.find((c) => c.key === 'destinazione')!;
  const destW = destCol.width - 2 * CELL_PAD;
  rows.forEach((row, i) => {
    const dest = toWinAnsi(row.destinazione);
    // A long destination takes a second line (then an ellipsis); every other cell one line.
    const lines = doc.widthOfString(dest) > destW ? 2 : 1;
    const rowH = lines * LINE_H + 4;
    if (y + rowH > BOTTOM) {
      doc.addPage();
      y = tableHeader(doc, MARGIN, t);
      doc.font('Helvetica').fontSize(FONT_SIZE);
    }
    if (i % 2 === 1) doc.rect(MARGIN, y, CONTENT_W, rowH).fillColor('#f7f7f8').fill();
    doc.fillColor(TEXT);
    let x = MARGIN;
    for (const col of COLUMNS) {
      const w = col.width - 2 * CELL_PAD;
      if (col.key === 'destinazione' && lines === 2) {
        // pdfkit's wrapper: two lines, then an ellipsis.
        doc.text(dest, x + CELL_PAD, y + 2, { width: w, height: 2 * LINE_H + 1, lineGap: LINE_H - doc.currentLineHeight(true), ellipsis: true });
      } else {
        // One line, cut to fit by measuring (much faster than the line wrapper, 2,000 rows × 6).
        const value = col.key === 'destinazione' ? dest : toWinAnsi(row[col.key]);
        doc.text(fit(doc, value, w), x + CELL_PAD, y + 2, { lineBreak: false });
      }
      x += col.width;
    }
    y += rowH;
  });
  doc.moveTo(MARGIN, y).lineTo(MARGIN + CONTENT_W, y).lineWidth(0.5).strokeColor(LINE).stroke();
}

/** `text` cut with an ellipsis so that it fits in `width` at the current font. */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${text.slice(0, mid).trimEnd()}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

function pageNumbers(doc: Doc, t: Translate) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing in the margin must not open a new page
    doc
      .fillColor(GREY)
      .font('Helvetica')
      .fontSize(7.5)
      .text(toWinAnsi(t('reportPdf.page', { page: String(i + 1), pages: String(range.count) })), MARGIN, FOOTER_Y, { width: CONTENT_W, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}
