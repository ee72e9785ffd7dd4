import { parentPort, workerData } from 'node:worker_threads';
import { renderBikeLabels } from './bike-labels.js';
import { renderDayReport } from './day-report.js';
import type { PdfJob } from './apart.js';

/**
 * A worker thread that draws one PDF (apart.ts) and ends: pdfkit and fontkit are loaded here,
 * in the worker's own heap, and leave with it (issue 51).
 */
const job = workerData as PdfJob;
const pdf =
  job.kind === 'day-report'
    ? await renderDayReport(job.data, new Date(job.creationDate))
    : await renderBikeLabels(job.labels, { ...job.meta, creationDate: new Date(job.meta.creationDate) }, job.texts);
// A copy of exactly its bytes, handed over (not cloned) to the process's thread.
const bytes = new Uint8Array(pdf);
parentPort!.postMessage(bytes, [bytes.buffer]);
