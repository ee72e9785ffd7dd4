import { z } from '../zod-it.js';
import { msg } from './message.js';
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

/** A sede as /admin → Sedi lists it: what still stands there, so archiving is decided in sight. */
export interface AdminSedeDto extends SedeDto {
  /** Bikes whose sede it is. */
  bici: number;
  /** Bookings and offers (attiva/offerta) not yet ended. */
  prenotazioniFuture: number;
  /** People whose home sede it is. */
  persone: number;
}

/** The lengths are the table's checks (sedi_nome_length, sedi_indirizzo_length, sedi_nota_length). */
const sedeFields = {
  nome: z.string(msg('schemas.sedeNameRequired')).trim().min(1, msg('schemas.sedeNameRequired')).max(80, msg('schemas.sedeNameTooLong')),
  indirizzo: z.string(msg('schemas.sedeAddressTooLong')).trim().max(200, msg('schemas.sedeAddressTooLong')).default(''),
  /** Blank is no note. */
  notaRastrelliera: z
    .string(msg('schemas.sedeNoteTooLong'))
    .trim()
    .max(200, msg('schemas.sedeNoteTooLong'))
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
};

/** POST /api/admin/sedi and PUT /api/admin/sedi/:id: `{ nome, indirizzo?, notaRastrelliera? }`. */
export const sedeWriteSchema = z.object(sedeFields);
export type SedeWrite = z.input<typeof sedeWriteSchema>;
