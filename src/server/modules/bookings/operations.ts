import { SHARED_REFUSALS, type ModuleOperations } from '../../http/operation.js';
import { MSG_NOT_ACTIVE_RIDE, MSG_NOT_PICKED_UP } from './ride.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const bookingOperations: ModuleOperations = {
  tag: { name: 'Biciclette e prenotazioni', description: 'Disponibilità, prenotazioni, ritiro e riconsegna' },
  routes: {
    'GET /api/biciclette': { summary: 'Tutte le biciclette', access: 'user' },
    'POST /api/biciclette/available': { summary: 'Biciclette disponibili in una fascia oraria', access: 'user' },
    'GET /api/regole': { summary: 'Le regole del servizio e l’eventuale sospensione dell’utente', access: 'user' },
    'GET /api/prenotazioni/user': { summary: 'Le prenotazioni dell’utente, dalla più recente', access: 'user' },
    'POST /api/prenotazioni': {
      summary: 'Prenotazione di una bicicletta',
      access: 'user',
      ok: 201,
      returns: 'La prenotazione creata',
      errors: { 404: 'Bicicletta non trovata', 409: `${SHARED_REFUSALS.bikeBusy} · Hai già una prenotazione attiva` },
    },
    'DELETE /api/prenotazioni/:id': {
      summary: 'Annullamento di una propria prenotazione attiva (rimborso se pagata)',
      access: 'owner',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: 'Solo le prenotazioni attive possono essere eliminate' },
    },
    'POST /api/prenotazioni/:id/ritiro': {
      summary: 'Ritiro della bicicletta (anche dalla coda offline del dispositivo)',
      access: 'owner',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: MSG_NOT_ACTIVE_RIDE },
    },
    'POST /api/prenotazioni/:id/riconsegna': {
      summary: 'Riconsegna della bicicletta, con eventuale segnalazione di un danno',
      access: 'owner',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: MSG_NOT_PICKED_UP },
    },
  },
};
