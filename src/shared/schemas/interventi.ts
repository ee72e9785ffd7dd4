import { DAMAGE_CATEGORIES, DAMAGE_DESCRIPTION_MAX, type DamageCategory } from '../damage.js';
import { TICKET_NOTE_MAX, TICKET_STATES, type TicketOrigin, type TicketState } from '../staff.js';
import { z } from '../zod-it.js';
import { idBody, idParam } from './ids.js';
import { msg } from './message.js';
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

/* The requests (issue 48). Multipart fields arrive as strings: the server reads them part by part and checks them here. */


/** `/api/interventi/{id}`. */
export const ticketIdParamsSchema = z.object({ id: idParam('schemas.ticketNotFound') });
/** `/api/interventi/{id}/foto/{fotoId}`. */
export const ticketPhotoParamsSchema = z.object({ id: idParam('schemas.ticketNotFound'), fotoId: idParam('schemas.ticketPhotoNotFound') });

/** Which tickets a list shows: the open ones (`aperto`, `in_lavorazione`) unless asked. */
export const TICKET_LIST_STATES = ['aperti', 'chiusi', 'tutti'] as const;
export type TicketListState = (typeof TICKET_LIST_STATES)[number];

/** `GET /api/interventi?stato=&sedeId=&biciId=`. */
export const ticketListQuerySchema = z.object({
  stato: z.enum(TICKET_LIST_STATES, msg('schemas.ticketListState')).default('aperti'),
  sedeId: idParam('schemas.sedeNotFound').optional(),
  biciId: idParam('schemas.ticketBike').optional(),
});
export type TicketListQuery = z.input<typeof ticketListQuerySchema>;

const descrizioneMessage = msg('schemas.ticketDescription', { max: DAMAGE_DESCRIPTION_MAX });

/** `POST /api/interventi`'s fields (multipart, besides up to 3 files `foto`). */
export const newTicketFieldsSchema = z.object({
  biciId: idParam('schemas.ticketBike'),
  categoria: z.enum(DAMAGE_CATEGORIES, msg('schemas.chooseDamageKind')),
  descrizione: z.string(descrizioneMessage).trim().min(1, descrizioneMessage).max(DAMAGE_DESCRIPTION_MAX, descrizioneMessage),
});
export type NewTicketFields = z.input<typeof newTicketFieldsSchema>;

const testoMessage = msg('schemas.ticketNoteText', { max: TICKET_NOTE_MAX });
const minutiMessage = msg('schemas.ticketNoteMinutes');

/** `POST /api/interventi/{id}/note`'s fields (multipart, besides up to 3 files `foto`): a note needs text or a photo. */
export const ticketNoteFieldsSchema = z.object({
  testo: z.string(testoMessage).trim().max(TICKET_NOTE_MAX, testoMessage).default(''),
  minuti: z
    .string(minutiMessage)
    .regex(/^(0|[1-9][0-9]{0,3})$/, minutiMessage)
    .transform(Number)
    .pipe(z.number().max(1440, minutiMessage))
    .optional(),
});
export type TicketNoteFields = z.input<typeof ticketNoteFieldsSchema>;

/** `PATCH /api/interventi/{id}`: the state, the assignee (null: nobody), whether the bike may be ridden. */
export const ticketPatchSchema = z
  .object({
    stato: z.enum(TICKET_STATES, msg('schemas.ticketState')).optional(),
    assegnatarioId: idBody('schemas.ticketAssignee').nullable().optional(),
    nonUtilizzabile: z.boolean(msg('schemas.ticketUnusable')).optional(),
  })
  .strict();
export type TicketPatch = z.input<typeof ticketPatchSchema>;
