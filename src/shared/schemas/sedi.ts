import { z } from '../zod-it.js';
import { idBody, idParam } from './ids.js';

/** A sede as anyone logged in sees it (GET /api/sedi, issue 47). */
export interface SedeDto {
  id: number;
  nome: string;
  indirizzo: string;
  /** Where the rack is, in a few words; null when not said. */
  notaRastrelliera: string | null;
  /** Archived: keeps its history, takes no bike, person or booking. */
  archiviata: boolean;
}

/** `sedeId` in a body: an open sede's id (checked by the server against the table). */
export const sedeIdBody = idBody('schemas.sedeNotFound');
/** `?sedeId=` in a query string, or `:id` in a path. */
export const sedeIdParam = idParam('schemas.sedeNotFound');
export const sedeIdParamsSchema = z.object({ id: sedeIdParam });
/** `?sedeId=` on a list: optional. */
export const sedeFilterQuerySchema = z.object({ sedeId: sedeIdParam.optional() });
