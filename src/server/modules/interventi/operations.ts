import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const interventiOperations: ModuleOperations = {
  tag: {
    name: 'Interventi',
    description:
      'Interventi di riparazione (issue 48, decisione 054): segnalazioni con foto, stati aperto → in lavorazione → riparata o non riparabile; la bici segue i suoi interventi',
  },
  routes: {
    'GET /api/interventi': op('user', 'Gli interventi delle sedi dello staff (Portineria, Officina; l’admin tutti), dal più recente; ?stato=aperti|chiusi|tutti, ?sedeId=, ?biciId=', {
      returns: 'TicketSummaryDto[] (con la miniatura della prima foto)',
      errors: { 403: 'http.forbidden', 404: 'http.notFound' },
    }),
    'POST /api/interventi': op('user', 'Segnala un problema: multipart/form-data con biciId, categoria, descrizione e fino a 3 file `foto` (10 MB ciascuno; tipo letto dai byte; ricodificate a 1600 px, senza metadati)', {
      ok: 201,
      returns: 'TicketDto',
      errors: {
        400: 'interventiApi.photoNotImage',
        404: 'interventiApi.bikeNotFound',
      },
    }),
    'GET /api/interventi/:id': op('owner', 'Un intervento: chi l’ha segnalato, o lo staff della sua sede; altrimenti 404', {
      returns: 'TicketDto (note in ordine di tempo, foto, minuti totali, chi può prenderlo)',
      errors: { 404: 'interventiApi.ticketNotFound' },
    }),
    'PATCH /api/interventi/:id': op('user', 'Stato, assegnatario (una persona con Officina nella sede), non utilizzabile: Officina della sede o admin; la bici segue (manutenzione, disponibile, fuori servizio)', {
      returns: 'TicketDto',
      errors: { 400: 'interventiApi.assigneeNotWorkshop', 403: 'http.forbidden', 404: 'interventiApi.ticketNotFound' },
    }),
    'POST /api/interventi/:id/note': op('user', 'Una nota: multipart/form-data con testo (fino a 2000 caratteri), minuti facoltativi (0–1440) e fino a 3 file `foto`; Officina della sede o admin', {
      ok: 201,
      returns: 'TicketDto',
      errors: { 400: 'interventiApi.noteEmpty', 403: 'http.forbidden', 404: 'interventiApi.ticketNotFound' },
    }),
    'GET /api/interventi/:id/foto/:fotoId': op('owner', 'La foto di un intervento (JPEG): chi l’ha segnalato o lo staff della sua sede; altrimenti 404', {
      returns: 'L’immagine',
      media: 'image/jpeg',
      errors: { 404: 'interventiApi.photoNotFound' },
    }),
  },
};
