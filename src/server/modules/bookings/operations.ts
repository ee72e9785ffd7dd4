import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const bookingOperations: ModuleOperations = {
  tag: { name: 'Biciclette e prenotazioni', description: 'Disponibilità, prenotazioni, ritiro e riconsegna' },
  routes: {
    'GET /api/biciclette': op('user', 'Tutte le biciclette, ciascuna con la sua sede; `?sedeId=`: quelle di una sede'),
    'GET /api/biciclette/numero/:numero': op('user', 'La pagina di una bicicletta: il suo stato ora e la propria prenotazione in corso, se c’è', {
      errors: { 400: 'schemas.invalidBikeNumber', 404: 'bookingsApi.bikeNotFound' },
    }),
    'POST /api/biciclette/available': op('user', 'Biciclette disponibili in una fascia oraria, in una sede (`sedeId`; senza: la propria)', {
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'GET /api/regole': op('user', 'Le regole del servizio, con orari e chiusure di una sede (`?sedeId=`; senza: la propria), e l’eventuale sospensione dell’utente', {
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'GET /api/prenotazioni/user': op('user', 'Le prenotazioni dell’utente, dalla più recente'),
    'POST /api/prenotazioni': op('user', 'Prenotazione di una bicicletta', {
      ok: 201,
      returns: 'La prenotazione creata',
      errors: { 404: 'bookingsApi.bikeNotFound', 409: ['bookingsApi.bikeUnavailable', 'bookingsApi.alreadyActive'] },
    }),
    'DELETE /api/prenotazioni/:id': op('owner', 'Annullamento di una propria prenotazione attiva (rimborso se pagata)', {
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'bookingsApi.onlyActiveDeleted' },
    }),
    'POST /api/prenotazioni/:id/ritiro': op('owner', 'Ritiro della bicicletta (anche dalla coda offline del dispositivo)', {
      returns: 'La prenotazione e nuovoCodice: il nuovo codice del lucchetto a combinazione (null senza)',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'bookingsApi.notActive' },
    }),
    'POST /api/prenotazioni/:id/riconsegna': op('owner', 'Riconsegna della bicicletta, con eventuale segnalazione di un danno', {
      returns: 'La prenotazione e nuovoCodice: il codice con cui chiudere il lucchetto a combinazione (null senza)',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: 'bookingsApi.notPickedUp' },
    }),
    'GET /api/prenotazioni/:id/prolunga': op('owner', 'Di quanto si può prolungare ora una propria corsa in corso (15, 30 o 60 minuti)', {
      returns: 'minuti: le durate offerte (vuoto se nessuna)',
      errors: { 404: 'bookingsApi.bookingNotFound', 409: ['bookingsApi.notPickedUp', 'bookingsApi.rideLate'] },
    }),
    'POST /api/prenotazioni/:id/prolunga': op('owner', 'Prolungamento di una propria corsa in corso, entro la giornata (gratuito)', {
      returns: 'La prenotazione con la nuova fine',
      errors: { 400: 'schemas.invalidExtension', 404: 'bookingsApi.bookingNotFound', 409: ['bookingsApi.extendBookedAfter', 'bookingsApi.rideLate'] },
    }),
  },
};
