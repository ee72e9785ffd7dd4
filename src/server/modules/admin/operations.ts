import { SHARED_REFUSALS, type ModuleOperations } from '../../http/operation.js';
import { MSG_MAINTENANCE_OVERLAP } from '../closures/index.js';
import { MSG_LAST_ADMIN } from './users.js';

/**
 * What the OpenAPI document says of this module's routes (routes.ts) beyond their zod schemas
 * (decision 031); the catalogue (src/server/api-docs/catalogue.ts) assembles every module's.
 */
export const adminOperations: ModuleOperations = {
  tag: { name: 'Amministrazione', description: 'Utenti, prenotazioni, biciclette, regole, registro attività' },
  routes: {
    'GET /api/admin/summary': { summary: 'Riepilogo del pannello (contatori di oggi)', access: 'admin' },
    'GET /api/admin/prenotazioni': { summary: 'Prenotazioni, a pagine (X-Total-Count), con ricerca e filtro', access: 'admin' },
    'POST /api/admin/prenotazioni': {
      summary: 'Prenotazione dallo sportello per un utente',
      access: 'admin',
      ok: 201,
      errors: { 404: 'Utente non trovato o non attivo', 409: SHARED_REFUSALS.bikeBusy },
    },
    'DELETE /api/admin/prenotazioni/:id': { summary: 'Eliminazione definitiva di una prenotazione', access: 'admin', errors: { 404: SHARED_REFUSALS.bookingNotFound } },
    'POST /api/admin/prenotazioni/:id/rilascia': {
      summary: 'Rilascio di una bicicletta ritirata e non riconsegnata',
      access: 'admin',
      errors: { 404: SHARED_REFUSALS.bookingNotFound, 409: 'Solo una bicicletta ritirata e non ancora riconsegnata può essere rilasciata' },
    },
    'GET /api/admin/users': { summary: 'Utenti, a pagine (X-Total-Count)', access: 'admin' },
    'PUT /api/admin/users/:id': {
      summary: 'Modifica di un utente (nome, email, ruolo, attivo)',
      access: 'admin',
      errors: { 404: 'Utente non trovato', 409: MSG_LAST_ADMIN },
    },
    'DELETE /api/admin/users/:id': {
      summary: 'Eliminazione di un utente e delle sue prenotazioni',
      access: 'admin',
      errors: { 404: 'Utente non trovato', 409: MSG_LAST_ADMIN },
    },
    'POST /api/admin/users/:id/revoca-sospensione': { summary: 'Revoca della sospensione di un utente', access: 'admin', errors: { 404: 'Utente non trovato' } },
    'GET /api/admin/biciclette': { summary: 'Biciclette con il loro stato', access: 'admin' },
    'POST /api/admin/biciclette': {
      summary: 'Aggiunta di una bicicletta',
      access: 'admin',
      ok: 201,
      errors: { 409: 'Esiste già una bicicletta con questo numero' },
    },
    'PUT /api/admin/biciclette/:id': { summary: 'Cambio di stato di una bicicletta', access: 'admin', errors: { 404: 'Bicicletta non trovata' } },
    'POST /api/admin/import-residents': { summary: 'Creazione degli account dei residenti', access: 'admin', returns: '`{ imported, skipped }`' },
    'GET /api/admin/danni': { summary: 'Segnalazioni di danni', access: 'admin' },
    'POST /api/admin/danni/:id/risolta': {
      summary: 'Segnalazione di danno risolta',
      access: 'admin',
      errors: { 404: 'Segnalazione non trovata', 409: 'La segnalazione è già stata risolta' },
    },
    'GET /api/admin/ritardi': { summary: 'Biciclette non riconsegnate in tempo', access: 'admin' },
    'GET /api/admin/attese': { summary: "Le liste d'attesa di oggi", access: 'admin' },
    'GET /api/admin/regole': { summary: 'Le regole del servizio', access: 'admin' },
    'PUT /api/admin/regole': { summary: 'Modifica delle regole del servizio', access: 'admin' },
    'GET /api/admin/chiusure': { summary: 'Chiusure del servizio', access: 'admin' },
    'POST /api/admin/chiusure/anteprima': { summary: 'Anteprima di una chiusura: prenotazioni coinvolte', access: 'admin' },
    'POST /api/admin/chiusure': { summary: 'Nuova chiusura (le prenotazioni coinvolte vengono annullate)', access: 'admin', ok: 201 },
    'DELETE /api/admin/chiusure/:id': { summary: 'Eliminazione di una chiusura', access: 'admin', errors: { 404: 'Chiusura non trovata' } },
    'GET /api/admin/manutenzioni': { summary: 'Manutenzioni programmate', access: 'admin' },
    'POST /api/admin/biciclette/:id/manutenzioni/anteprima': {
      summary: 'Anteprima di una manutenzione programmata',
      access: 'admin',
      errors: { 404: 'Bicicletta non trovata' },
    },
    'POST /api/admin/biciclette/:id/manutenzioni': {
      summary: 'Nuova manutenzione programmata di una bicicletta',
      access: 'admin',
      ok: 201,
      errors: { 404: 'Bicicletta non trovata', 409: MSG_MAINTENANCE_OVERLAP },
    },
    'DELETE /api/admin/manutenzioni/:id': { summary: 'Eliminazione di una manutenzione', access: 'admin', errors: { 404: 'Manutenzione non trovata' } },
    'GET /api/admin/audit': { summary: 'Registro attività, a pagine (X-Total-Count), dal più recente', access: 'admin' },
    'GET /api/admin/audit.csv': { summary: 'Registro attività in CSV', access: 'admin', media: 'text/csv' },
    'GET /api/admin/audit/admins': { summary: 'Gli amministratori presenti nel registro attività', access: 'admin' },
  },
};
