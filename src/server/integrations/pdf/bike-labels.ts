import { toWinAnsi } from './winansi.js';

/** One bike's label: its number and the address its QR code opens (`{PUBLIC_URL}/bici/{numero}`). */
export interface BikeLabel {
  numero: string;
  url: string;
}

/** The sentence under each QR code (issue 34), in Italian. */
export const LABEL_SENTENCE = 'Scansiona per ritirare, riconsegnare o segnalare un problema';

/** The labels' words, in the language of the admin who prints them (issue 36); Italian by default. */
export interface BikeLabelTexts {
  /** Above the number: "Bici". */
  bike: string;
  /** Under the number: LABEL_SENTENCE. */
  sentence: string;
  /** The one line of a fleet without bikes. */
  empty: string;
}

const ITALIAN_TEXTS: BikeLabelTexts = {
  bike: 'Bici',
  sentence: LABEL_SENTENCE,
  empty: "Nessuna bicicletta: aggiungine una per stamparne l'etichetta.",
};

/** A QR code's modules, row by row: `dark[y][x]`. */
export interface QrMatrix {
  size: number;
  dark: boolean[][];
}

/**
 * The QR code of `text` (error correction M: a label scratched or in the sun still reads).
 * `qrcode` is loaded by the first call, not at start: most processes never print a label.
 */
export async function qrMatrix(text: string): Promise<QrMatrix> {
  const { default: QRCode } = await import('qrcode');
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const dark = Array.from({ length: modules.size }, (_, y) => Array.from({ length: modules.size }, (_, x) => modules.get(y, x) === 1));
  return { size: modules.size, dark };
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 28;
export const LABEL_COLUMNS = 2;
export const LABEL_ROWS = 4;
export const LABELS_PER_PAGE = LABEL_COLUMNS * LABEL_ROWS;
const LABEL_W = (A4[0] - 2 * MARGIN) / LABEL_COLUMNS;
const LABEL_H = (A4[1] - 2 * MARGIN) / LABEL_ROWS;
const PAD = 14;
/** The QR code's side with its quiet zone (4 modules each side, as the standard asks). */
const QR_SIDE = 132;
const QUIET_MODULES = 4;
const GREEN = '#0f5132';
const GREY = '#6b7280';
const CUT = '#9ca3af';

type Doc = PDFKit.PDFDocument;

/**
 * The labels to stick on the bikes: A4, 2 × 4 labels a page, as many pages as needed, each with
 * the bike's number large, the QR code of its page and the sentence; dashed lines to cut along.
 * The QR code is drawn as vector squares (sharp at any printer's resolution).
 */
export async function renderBikeLabels(
  labels: BikeLabel[],
  meta: { title: string; author: string; creationDate: Date },
  texts: BikeLabelTexts = ITALIAN_TEXTS,
): Promise<Buffer> {
  // pdfkit is loaded by the first document, not at start (issue 33), as the day's report does.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: toWinAnsi(meta.title), Author: toWinAnsi(meta.author), Creator: toWinAnsi(meta.author), CreationDate: meta.creationDate },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const matrices = await Promise.all(labels.map((label) => qrMatrix(label.url)));
  if (labels.length === 0) {
    doc.addPage();
    doc.fillColor(GREY).font('Helvetica').fontSize(12).text(toWinAnsi(texts.empty));
  }
  labels.forEach((label, i) => {
    const slot = i % LABELS_PER_PAGE;
    if (slot === 0) doc.addPage();
    const x = MARGIN + (slot % LABEL_COLUMNS) * LABEL_W;
    const y = MARGIN + Math.floor(slot / LABEL_COLUMNS) * LABEL_H;
    drawLabel(doc, label, matrices[i]!, x, y, texts);
  });
  doc.end();
  return done;
}

function drawLabel(doc: Doc, label: BikeLabel, qr: QrMatrix, x: number, y: number, texts: BikeLabelTexts) {
  // The cut line around the label.
  doc.save().rect(x, y, LABEL_W, LABEL_H).lineWidth(0.5).dash(4, { space: 3 }).strokeColor(CUT).stroke().restore();

  const qrX = x + PAD;
  const qrY = y + PAD;
  drawQr(doc, qr, qrX, qrY, QR_SIDE);
  // The address under the code, small: a phone without a camera app can still type it.
  doc
    .fillColor(GREY)
    .font('Helvetica')
    .fontSize(6.5)
    .text(toWinAnsi(label.url), qrX, qrY + QR_SIDE + 4, { width: QR_SIDE, align: 'center', lineBreak: true, height: LABEL_H - QR_SIDE - 2 * PAD - 4 });

  const colX = qrX + QR_SIDE + 10;
  const colW = x + LABEL_W - PAD - colX;
  doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(12).text(toWinAnsi(texts.bike), colX, y + PAD + 4, { width: colW });
  const numero = toWinAnsi(label.numero);
  // As large as fits the column on one line: two digits at 60 pt, a long name smaller.
  let size = 60;
  doc.font('Helvetica-Bold');
  while (size > 8 && doc.fontSize(size).widthOfString(numero) > colW) size -= 1;
  doc.fillColor('#111827').fontSize(size).text(numero, colX, y + PAD + 20, { lineBreak: false });
  doc
    .fillColor('#1f2933')
    .font('Helvetica')
    .fontSize(10)
    .text(toWinAnsi(texts.sentence), colX, y + PAD + 20 + size + 8, { width: colW, lineGap: 1 });
}

/** Dark modules as filled squares, each row's runs merged (no hairline between two squares). */
function drawQr(doc: Doc, qr: QrMatrix, x: number, y: number, side: number) {
  const module = side / (qr.size + 2 * QUIET_MODULES);
  const ox = x + QUIET_MODULES * module;
  const oy = y + QUIET_MODULES * module;
  doc.save();
  doc.rect(x, y, side, side).fill('#ffffff');
  for (let row = 0; row < qr.size; row++) {
    let col = 0;
    while (col < qr.size) {
      if (!qr.dark[row]![col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < qr.size && qr.dark[row]![col]) col++;
      doc.rect(ox + start * module, oy + row * module, (col - start) * module, module);
    }
  }
  doc.fill('#000000');
  doc.restore();
}
