import { type ModuleOperations, op } from '../../http/operation.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const calendarOperations: ModuleOperations = {
  tag: { name: 'Calendario', description: 'Feed iCalendar privato e .ics di una prenotazione' },
  routes: {
    'GET /api/calendario/:token': op('token', 'Feed iCalendar privato delle proprie prenotazioni', {
      media: 'text/calendar',
      errors: { 404: 'calendarApi.notFound' },
    }),
    'GET /api/prenotazioni/:id/calendario.ics': op('owner', 'Una prenotazione come evento .ics', {
      media: 'text/calendar',
      errors: { 404: 'bookingsApi.bookingNotFound' },
    }),
  },
};
