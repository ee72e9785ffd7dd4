import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { renderBikeLabels, type BikeLabel, type BikeLabelTexts } from './bike-labels.js';
import { renderDayReport, type DayReportData } from './day-report.js';

/**
 * The PDFs are drawn in a worker thread of their own, which ends with the document (issue 51,
 * decision 063). pdfkit with fontkit and its font tables cost a process ~16 MB of RSS for as
 * long as it lives once imported (an ES module is never unloaded): in the four-process test the
 * process that drew a missed day's report at start sat at 136–152 MB idle against the
 * others' 120–136. A worker's isolate, its heap and its modules are freed when it exits.
 * A PDF is a few a day (the nightly report, an admin's labels): the worker's ~40 ms start is
 * nothing beside them.
 */
export type PdfJob =
  | { kind: 'day-report'; data: DayReportData; creationDate: number }
  | { kind: 'bike-labels'; labels: BikeLabel[]; meta: { title: string; author: string; creationDate: number }; texts?: BikeLabelTexts };

/**
 * The worker's file: beside the bundle (dist/server/pdf-worker.js, scripts/build-server.mjs),
 * or the TypeScript source run by tsx (tests, `npm run dev:server`). Null in a bundle without
 * it (the benches' own): the PDF is then drawn on this thread.
 */
function workerFile(): { code: string; eval: boolean } | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // A worker's execArgv takes no `--import tsx`: its first module registers tsx, then imports the source.
    const source = new URL('./pdf-worker.ts', here).href;
    return { code: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, eval: true };
  }
  const built = fileURLToPath(new URL('./pdf-worker.js', here));
  return existsSync(built) ? { code: built, eval: false } : null;
}

function inWorker(job: PdfJob): Promise<Buffer> | null {
  const worker = workerFile();
  if (!worker) return null;
  return new Promise<Buffer>((resolve, reject) => {
    const thread = new Worker(worker.code, { workerData: job, eval: worker.eval });
    let pdf: Buffer | undefined;
    thread.once('message', (bytes: Uint8Array) => (pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    thread.once('error', reject);
    thread.once('exit', (code) => (pdf ? resolve(pdf) : reject(new Error(`PDF non disegnato: il worker è uscito con ${code}`))));
  });
}

/** renderDayReport (day-report.ts), in a worker that ends with it. */
export function renderDayReportApart(data: DayReportData, creationDate: Date): Promise<Buffer> {
  return inWorker({ kind: 'day-report', data, creationDate: creationDate.getTime() }) ?? renderDayReport(data, creationDate);
}

/** renderBikeLabels (bike-labels.ts), in a worker that ends with it. */
export function renderBikeLabelsApart(
  labels: BikeLabel[],
  meta: { title: string; author: string; creationDate: Date },
  texts?: BikeLabelTexts,
): Promise<Buffer> {
  return (
    inWorker({ kind: 'bike-labels', labels, meta: { ...meta, creationDate: meta.creationDate.getTime() }, ...(texts ? { texts } : {}) }) ??
    renderBikeLabels(labels, meta, texts)
  );
}
