import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
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
