import { z } from '../zod-it.js';
import { sedeIdBody, sedeIdParam } from './sedi.js';

/**
 * The rack's board links (issue 34, decision 044): `/rastrelliera/{token}`. The token is in
 * the path; any shape is accepted here (a wrong one is simply not found: `Link non valido`).
 */
export const rackTokenParamsSchema = z.object({ token: z.string().max(200) });

/**
 * The sede of the admin's rack routes (issue 47): `?sedeId=` on each, or `{ sedeId }` in the
 * body of POST. Absent: the first open sede (what a client that never heard of sedi means).
 */
export const rackSedeQuerySchema = z.object({ sedeId: sedeIdParam.optional() });
/** POST /api/admin/rastrelliera's body: none (as before sedi), or `{ sedeId }`. */
export const rackSedeBodySchema = z.object({ sedeId: sedeIdBody.optional() }).strict().nullish();

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
