import { type ModuleOperations, op } from '../../http/operation.js';

/** The OpenAPI words for routes.ts beyond its zod schemas (decision 031), gathered by api-docs/catalogue.ts. */
export const systemOperations: ModuleOperations = {
  tag: { name: 'Sistema', description: 'Stato del servizio e configurazione pubblica della pagina' },
  routes: {
    'GET /api/health': op('public', 'Stato del servizio e del database', { returns: '`{ status: "ok", db: "ok" | "down" }`, sempre 200 finché il processo risponde (anche con il database irraggiungibile)' }),
    'GET /api/ready': op('public', 'Prontezza a ricevere traffico (per il bilanciatore di carico)', {
      returns: '`{ status, db, migrations }`; 503 con `code` SHUTTING_DOWN, MIGRATIONS_PENDING o DB_UNAVAILABLE',
      errors: { 503: ['system.shuttingDown', 'system.migrationsPending', 'http.dbUnavailable'] },
    }),
    'GET /api/config': op('public', 'Configurazione pubblica della pagina (fornitore di pagamento, regole)'),
  },
};
