import { z } from '../zod-it.js';

/**
 * The rack's board links (issue 34, decision 044): `/rastrelliera/{token}`. The token is in
 * the path; any shape is accepted here (a wrong one is simply not found: `Link non valido`).
 */
export const rackTokenParamsSchema = z.object({ token: z.string().max(200) });

/** POST /api/admin/rastrelliera — the new link, shown once. */
export interface RackLinkCreated {
  url: string;
  creatoIl: string;
}

/** GET /api/admin/rastrelliera — whether a link is live (its token is never shown again). */
export interface RackLinkStatus {
  attivo: boolean;
  creatoIl: string | null;
}
