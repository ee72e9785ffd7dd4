import type { DamageCategory } from '../damage.js';
import type { TicketOrigin, TicketState } from '../staff.js';
import type { BikeStato } from './booking.js';

/*
 * Repair tickets (`Interventi`, issue 48, decision 054): the API's shapes. The requests' zod
 * schemas are below the shapes; multipart bodies (`POST /api/interventi`, `…/note`) are read
 * part by part on the server and their fields checked by the same schemas.
 */

/** A photo of a ticket: `GET /api/interventi/{id}/foto/{fotoId}` serves it. */
export interface TicketPhotoDto {
  id: number;
  url: string;
  larghezza: number;
  altezza: number;
}

/** A person as a ticket names them; null once the account is deleted. */
export interface TicketPersonDto {
  id: number;
  nome: string;
}

/** One row of `GET /api/interventi` (staff: their sedi's tickets, newest first). */
export interface TicketSummaryDto {
  id: number;
  sedeId: number;
  biciId: number;
  biciNumero: string;
  biciModello: string;
  biciStato: BikeStato;
  categoria: DamageCategory;
  descrizione: string;
  origine: TicketOrigin;
  stato: TicketState;
  nonUtilizzabile: boolean;
  segnalatoDa: TicketPersonDto | null;
  assegnatario: TicketPersonDto | null;
  createdAt: string;
  chiusoAt: string | null;
  /** The report's first photo, for the list's thumbnail; null without one. */
  miniatura: TicketPhotoDto | null;
}

/** A note of a ticket, in time order. */
export interface TicketNoteDto {
  id: number;
  autore: TicketPersonDto | null;
  testo: string;
  minuti: number;
  createdAt: string;
  foto: TicketPhotoDto[];
}

/** `GET /api/interventi/{id}` (staff of its sede, or its reporter). */
export interface TicketDto extends TicketSummaryDto {
  /** The report's own photos. */
  foto: TicketPhotoDto[];
  note: TicketNoteDto[];
  /** Minutes of work, the notes' sum. */
  minutiTotali: number;
  /** Who may take it at its sede (`Officina`), for the assignee's choice; empty for the reporter. */
  assegnabili: TicketPersonDto[];
}
