import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const adminOperations: ModuleOperations = {
  tag: {
    name: 'Amministrazione',
    description:
      'Utenti, prenotazioni, biciclette, regole, registro attività. Le operazioni di un incarico (Portineria, Officina: issue 48) rispondono anche a chi lo ha, sulle sue sedi: fuori dall\'incarico 403, su un\'altra sede 404',
  },
  routes: {
    'GET /api/admin/summary': op('admin', 'Riepilogo del pannello (contatori di oggi)'),
    'GET /api/admin/prenotazioni': op('admin', 'Prenotazioni, a pagine (X-Total-Count), con ricerca e filtro'),
    'POST /api/admin/prenotazioni': op('admin', 'Prenotazione dallo sportello per un utente', {
      ok: 201,
      errors: { 404: 'admin.userNotFoundOrInactive', 409: 'bookingsApi.bikeUnavailable' },
    }),
    'GET /api/admin/prenotazioni/:id': op('admin', 'Una prenotazione (amministratori, o la Portineria della sua sede)', { errors: { 404: 'admin.bookingNotFound' } }),
    'POST /api/admin/prenotazioni/:id/ritiro': op('admin', 'Ritiro al banco per conto della persona (amministratori, o la Portineria della sua sede)', {
      returns: 'la prenotazione e `nuovoCodice`',
      errors: { 404: 'admin.bookingNotFound', 409: 'bookingsApi.notActive' },
    }),
    'POST /api/admin/prenotazioni/:id/riconsegna': op('admin', 'Riconsegna al banco per conto della persona, con un eventuale danno (amministratori, o la Portineria della sua sede)', {
      returns: 'la prenotazione e `nuovoCodice`',
      errors: { 404: 'admin.bookingNotFound', 409: 'bookingsApi.notPickedUp' },
    }),
    'DELETE /api/admin/prenotazioni/:id': op('admin', 'Eliminazione definitiva di una prenotazione', { errors: { 404: 'admin.bookingNotFound' } }),
    'POST /api/admin/prenotazioni/:id/rilascia': op('admin', 'Rilascio di una bicicletta ritirata e non riconsegnata', {
      errors: { 404: 'admin.bookingNotFound', 409: 'admin.notInRide' },
    }),
    'GET /api/admin/users': op('admin', 'Utenti, a pagine (X-Total-Count)'),
    'PUT /api/admin/users/:id': op('admin', 'Modifica di un utente (nome, email, ruolo, attivo, sede, incarichi: l\'elenco intero)', {
      errors: { 400: 'staffApi.sedeNotOpen', 404: 'admin.userNotFound', 409: 'admin.lastAdmin' },
    }),
    'DELETE /api/admin/users/:id': op('admin', 'Eliminazione di un utente e delle sue prenotazioni', {
      errors: { 404: 'admin.userNotFound', 409: 'admin.lastAdmin' },
    }),
    'POST /api/admin/users/:id/revoca-sospensione': op('admin', 'Revoca della sospensione di un utente', { errors: { 404: 'admin.userNotFound' } }),
    'GET /api/admin/biciclette': op('admin', 'Biciclette con il loro stato'),
    'GET /api/admin/biciclette/etichette.pdf': op('admin', 'Etichette con il codice QR di ogni bicicletta, o di quelle di una sede (`?sedeId=`) (A4, da stampare)', {
      media: 'application/pdf',
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'POST /api/admin/biciclette': op('admin', 'Aggiunta di una bicicletta, alla sede data o alla prima aperta', {
      ok: 201,
      errors: { 404: 'sediMovesApi.sedeNotFound', 409: 'http.bikeNumberTaken' },
    }),
    'PUT /api/admin/biciclette/:id': op('admin', 'Cambio di stato o di sede di una bicicletta (le prenotazioni restano nella vecchia sede; la sede solo un amministratore)', {
      errors: { 404: 'bookingsApi.bikeNotFound', 409: 'sediMovesApi.rideInProgress' },
    }),
    'PUT /api/admin/biciclette/:id/lucchetto': op('admin', 'Il lucchetto di una bicicletta (nessuno, a combinazione, smart)', {
      returns: '{ tipo, codice, idLucchetto, codiceDaCambiare }',
      errors: { 400: 'schemas.lockCodeFormat', 404: 'bookingsApi.bikeNotFound' },
    }),
    'POST /api/admin/import-residents': op('admin', 'Creazione degli account dei residenti', { returns: '`{ imported, skipped }`' }),
    'GET /api/admin/danni': op('admin', 'Segnalazioni di danni'),
    'POST /api/admin/danni/:id/risolta': op('admin', 'Segnalazione di danno risolta', {
      errors: { 404: 'bookingsApi.damageNotFound', 409: 'bookingsApi.damageResolved' },
    }),
    'GET /api/admin/ritardi': op('admin', 'Biciclette non riconsegnate in tempo'),
    'GET /api/admin/attese': op('admin', "Le liste d'attesa di oggi"),
    'GET /api/admin/regole': op('admin', 'Le regole del servizio'),
    'PUT /api/admin/regole': op('admin', 'Modifica delle regole del servizio'),
    'GET /api/admin/sedi/:id/orari': op('admin', 'Gli orari propri di una sede (null: quelli del servizio)', {
      returns: '`{ orari: [7 giorni] | null }`',
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'PUT /api/admin/sedi/:id/orari': op('admin', 'Gli orari propri di una sede aperta; null: tornano quelli del servizio', {
      returns: '`{ orari: [7 giorni] | null }`',
      errors: { 404: 'schemas.sedeNotFound' },
    }),
    'GET /api/admin/chiusure': op('admin', 'Chiusure del servizio'),
    'POST /api/admin/chiusure/anteprima': op('admin', 'Anteprima di una chiusura: prenotazioni coinvolte'),
    'POST /api/admin/chiusure': op('admin', 'Nuova chiusura (le prenotazioni coinvolte vengono annullate); di tutte le sedi solo un amministratore', { ok: 201 }),
    'DELETE /api/admin/chiusure/:id': op('admin', 'Eliminazione di una chiusura', { errors: { 404: 'closures.notFound' } }),
    'GET /api/admin/manutenzioni': op('admin', 'Manutenzioni programmate'),
    'POST /api/admin/biciclette/:id/manutenzioni/anteprima': op('admin', 'Anteprima di una manutenzione programmata', {
      errors: { 404: 'bookingsApi.bikeNotFound' },
    }),
    'POST /api/admin/biciclette/:id/manutenzioni': op('admin', 'Nuova manutenzione programmata di una bicicletta', {
      ok: 201,
      errors: { 404: 'bookingsApi.bikeNotFound', 409: 'closures.maintenanceOverlap' },
    }),
    'DELETE /api/admin/manutenzioni/:id': op('admin', 'Eliminazione di una manutenzione', { errors: { 404: 'closures.maintenanceNotFound' } }),
    'GET /api/admin/audit': op('admin', 'Registro attività, a pagine (X-Total-Count), dal più recente'),
    'GET /api/admin/audit.csv': op('admin', 'Registro attività in CSV', { media: 'text/csv' }),
    'GET /api/admin/audit/admins': op('admin', 'Gli amministratori presenti nel registro attività'),
  },
};
