import { sql } from 'drizzle-orm';
import { APP_NAME } from '../../../shared/constants.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { BikeLabel } from '../../integrations/pdf/bike-labels.js';
import { renderBikeLabelsApart } from '../../integrations/pdf/apart.js';
import { biciclette } from './tables.js';
import type { Lingua } from '../../../shared/i18n/index.js';
import { tFor } from '../../../shared/i18n/all.js';
import { testo } from '../../../shared/i18n/index.js';
import { notFound } from '../../http/errors.js';
import { openSede } from '../sedi/index.js';

/** The labels' file name (the admin's download). */
export const BIKE_LABELS_FILE_NAME = 'etichette-bici.pdf';

/** The address a bike's QR code opens: its page, `/bici/{numero}` (decision 044). */
export function bikePageUrl(publicUrl: string, numero: string): string {
  return `${publicUrl}/bici/${encodeURIComponent(numero)}`;
}

/**
 * GET /api/admin/biciclette/etichette.pdf (issue 34): one label per bike, every bike whatever
 * its state (a bike in maintenance keeps its label), in the order of the bikes' list; worded in
 * the requesting admin's language. With `sedeId` (issue 47), only that sede's bikes.
 */
export async function bikeLabelsPdf(
  deps: { db: Db; clock: Clock; config: Pick<Config, 'publicUrl'> },
  lingua: Lingua = 'it',
  sedeId?: number,
): Promise<Buffer> {
  const t = tFor(lingua);
  // An unknown or archived sede is not found (its bikes were moved before it was archived).
  if (sedeId !== undefined && (await openSede(deps.db, sedeId)) === null) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
  const where = sedeId === undefined ? sql`` : sql`where sede_id = ${sedeId}`;
  const { rows } = await deps.db.execute<{ numero: string }>(
    sql`select numero from ${biciclette} ${where} order by lpad(numero, 20, '0'), numero`,
  );
  const labels: BikeLabel[] = rows.map((r) => ({ numero: r.numero, url: bikePageUrl(deps.config.publicUrl, r.numero) }));
  // In a worker of its own: this process does not keep pdfkit after it (decision 063).
  return renderBikeLabelsApart(
    labels,
    { title: t('bikeLabels.title', { app: APP_NAME }), author: APP_NAME, creationDate: deps.clock.now() },
    { bike: t('bikeLabels.bike'), sentence: t('bikeLabels.sentence'), empty: t('bikeLabels.empty') },
  );
}
