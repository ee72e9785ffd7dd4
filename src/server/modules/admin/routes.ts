import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminBikeCreateSchema,
  adminBikeUpdateSchema,
  adminBookingsQuerySchema,
  adminIdParamsSchema,
  adminUserUpdateSchema,
  adminUsersQuerySchema,
  TOTAL_COUNT_HEADER,
} from '../../../shared/schemas/admin.js';
import { authenticatedUser, requireAdmin } from '../../http/auth.js';
import { requestLingua } from '../../http/lingua.js';
import { serviceDeps } from '../../http/service-deps.js';
import { tFor } from '../../../shared/i18n/all.js';
import type { Actor } from '../audit/index.js';
import { auditActors, auditCsv, auditSubject, listAudit } from './audit-log.js';
import { createBike, updateBike } from './bikes.js';
import { deleteBooking } from './bookings.js';
import type { AdminDeps } from './deps.js';
import { adminBikes, adminBookings, adminSummary, adminUsers } from './lists.js';
import { importResidents } from './residents.js';
import { adminDamages, adminOverdue, releaseRide, resolveDamage } from './rides.js';
import { deleteUser, updateUser } from './users.js';
import { adminWaitlist } from '../waitlist/index.js';
import { setBikeLock } from '../locks/index.js';
import { bikeLockUpdateSchema } from '../../../shared/schemas/locks.js';
import { auditFiltersSchema, auditQuerySchema } from '../../../shared/schemas/audit.js';
import { sedeFilterQuerySchema } from '../../../shared/schemas/sedi.js';
import {
  adminBookingRequestSchema,
  closureRequestSchema,
  maintenanceRequestSchema,
  rulesUpdateSchema,
  sedeHoursSchema,
} from '../../../shared/schemas/rules.js';
import { sedeIdParamsSchema } from '../../../shared/schemas/sedi.js';
import {
  createClosure,
  createMaintenance,
  deleteClosure,
  deleteMaintenance,
  listClosures,
  listMaintenance,
  previewClosure,
  previewMaintenance,
} from '../closures/index.js';
import { getRules, sedeRules, updateRules } from '../rules/index.js';
import { bookForUser } from './desk.js';
import { BIKE_LABELS_FILE_NAME, bikeLabelsPdf } from '../bikes/index.js';
import { liftSuspension } from './suspensions.js';

type AdminApp = Parameters<FastifyPluginAsyncZod>[0];

/** What every group of admin routes uses: the services' dependencies and the acting admin. */
interface AdminContext {
  deps: () => AdminDeps;
  actor: (request: FastifyRequest) => Actor;
}

/** The admin API (behaviour.md §8), registered under /api/admin: 401 anonymous, 403 non-admin. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): AdminDeps => serviceDeps(app);
  const actor = (request: FastifyRequest): Actor => {
    const user = authenticatedUser(request);
    return { id: user.id, email: user.email };
  };
  // onRequest: the role is checked before the body is even parsed or validated.
  app.addHook('onRequest', requireAdmin);

  const context: AdminContext = { deps, actor };
  registerBookingRoutes(app, context);
  registerUserRoutes(app, context);
  registerFleetRoutes(app, context);
  registerRulesRoutes(app, context);
  registerAuditRoutes(app, context);
};

/** The summary, the bookings (list, delete, the desk's booking, a ride released) and today's waitlists. */
function registerBookingRoutes(app: AdminApp, { deps, actor }: AdminContext): void {
  app.get('/summary', async () => adminSummary(deps()));
  // Today's waitlists (issue 21): the windows, how many wait, the offers open now.
  app.get('/attese', { schema: { querystring: sedeFilterQuerySchema } }, async (request) => adminWaitlist(deps(), request.query.sedeId));

  app.get('/prenotazioni', { schema: { querystring: adminBookingsQuerySchema } }, async (request, reply) => {
    const page = await adminBookings(deps(), request.query);
    return reply.header(TOTAL_COUNT_HEADER, String(page.total)).send(page.rows);
  });

  app.delete('/prenotazioni/:id', { schema: { params: adminIdParamsSchema } }, async (request) =>
    deleteBooking(deps(), actor(request), request.params.id),
  );

  app.post('/prenotazioni', { schema: { body: adminBookingRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await bookForUser(deps(), actor(request), request.body)),
  );

  app.post('/prenotazioni/:id/rilascia', { schema: { params: adminIdParamsSchema } }, async (request) =>
    releaseRide(deps(), actor(request), request.params.id),
  );
}

/** The users: list, edit, delete, the residents' import, a suspension lifted. */
function registerUserRoutes(app: AdminApp, { deps, actor }: AdminContext): void {
  app.get('/users', { schema: { querystring: adminUsersQuerySchema } }, async (request, reply) => {
    const page = await adminUsers(deps(), request.query);
    return reply.header(TOTAL_COUNT_HEADER, String(page.total)).send(page.rows);
  });

  app.put('/users/:id', { schema: { params: adminIdParamsSchema, body: adminUserUpdateSchema } }, async (request) =>
    updateUser(deps(), actor(request), request.params.id, request.body),
  );

  app.delete('/users/:id', { schema: { params: adminIdParamsSchema } }, async (request) =>
    deleteUser(deps(), actor(request), request.params.id),
  );

  app.post('/import-residents', async (request) => importResidents(deps(), actor(request)));

  app.post('/users/:id/revoca-sospensione', { schema: { params: adminIdParamsSchema } }, async (request) =>
    liftSuspension(deps(), actor(request), request.params.id),
  );
}

/** The bikes, and the ride (decision 022): damage reports, overdue bikes. */
function registerFleetRoutes(app: AdminApp, { deps, actor }: AdminContext): void {
  app.get('/biciclette', { schema: { querystring: sedeFilterQuerySchema } }, async (request) => adminBikes(deps(), request.query.sedeId));

  // The QR labels to stick on the bikes (issue 34, decision 044): one per bike, A4.
  // With `?sedeId=` (issue 47), one sede's bikes.
  app.get('/biciclette/etichette.pdf', { schema: { querystring: sedeFilterQuerySchema } }, async (request, reply) => {
    const pdf = await bikeLabelsPdf(deps(), requestLingua(request), request.query.sedeId);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${BIKE_LABELS_FILE_NAME}"`)
      .type('application/pdf')
      .send(pdf);
  });

  app.put('/biciclette/:id', { schema: { params: adminIdParamsSchema, body: adminBikeUpdateSchema } }, async (request) =>
    updateBike({ ...deps(), push: app.deps.push }, actor(request), request.params.id, request.body, requestLingua(request)),
  );

  // The bike's lock (issue 34, decision 044): owned by the locks module, audited with the code masked.
  app.put('/biciclette/:id/lucchetto', { schema: { params: adminIdParamsSchema, body: bikeLockUpdateSchema } }, async (request) =>
    setBikeLock(deps(), actor(request), request.params.id, request.body),
  );

  app.post('/biciclette', { schema: { body: adminBikeCreateSchema } }, async (request, reply) =>
    reply.status(201).send(await createBike(deps(), actor(request), request.body)),
  );

  app.get('/danni', { schema: { querystring: sedeFilterQuerySchema } }, async (request) => adminDamages(deps(), request.query.sedeId));

  app.post('/danni/:id/risolta', { schema: { params: adminIdParamsSchema } }, async (request) =>
    resolveDamage(deps(), actor(request), request.params.id),
  );

  app.get('/ritardi', { schema: { querystring: sedeFilterQuerySchema } }, async (request) => adminOverdue(deps(), request.query.sedeId));
}

/** The service's rules (issue 20, decision 024), closures and planned maintenance. */
function registerRulesRoutes(app: AdminApp, { deps, actor }: AdminContext): void {
  app.get('/regole', async () => getRules(deps()));

  app.put('/regole', { schema: { body: rulesUpdateSchema } }, async (request) => updateRules(deps(), actor(request), request.body));

  // A sede's own opening hours (issue 47); null: the install's.
  app.get('/sedi/:id/orari', { schema: { params: sedeIdParamsSchema } }, async (request) => sedeRules.getSedeHours(deps(), request.params.id));

  app.put('/sedi/:id/orari', { schema: { params: sedeIdParamsSchema, body: sedeHoursSchema } }, async (request) =>
    sedeRules.updateSedeHours(deps(), actor(request), request.params.id, request.body),
  );

  app.get('/chiusure', async () => listClosures(deps()));

  app.post('/chiusure/anteprima', { schema: { body: closureRequestSchema } }, async (request) => previewClosure(deps(), request.body));

  app.post('/chiusure', { schema: { body: closureRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await createClosure(deps(), actor(request), request.body)),
  );

  app.delete('/chiusure/:id', { schema: { params: adminIdParamsSchema } }, async (request) =>
    deleteClosure(deps(), actor(request), request.params.id),
  );

  app.get('/manutenzioni', async () => listMaintenance(deps()));

  app.post(
    '/biciclette/:id/manutenzioni/anteprima',
    { schema: { params: adminIdParamsSchema, body: maintenanceRequestSchema } },
    async (request) => previewMaintenance(deps(), request.params.id, request.body),
  );

  app.post(
    '/biciclette/:id/manutenzioni',
    { schema: { params: adminIdParamsSchema, body: maintenanceRequestSchema } },
    async (request, reply) => reply.status(201).send(await createMaintenance(deps(), actor(request), request.params.id, request.body)),
  );

  app.delete('/manutenzioni/:id', { schema: { params: adminIdParamsSchema } }, async (request) =>
    deleteMaintenance(deps(), actor(request), request.params.id),
  );
}

/** The audit log (issue 23), read-only: no route under /audit writes, updates or deletes. */
function registerAuditRoutes(app: AdminApp, { deps }: AdminContext): void {
  app.get('/audit', { schema: { querystring: auditQuerySchema } }, async (request, reply) => {
    const page = await listAudit(deps(), request.query);
    const lingua = requestLingua(request);
    const rows = page.rows.map((row) => ({ ...row, soggetto: auditSubject(row.soggetto, lingua) }));
    return reply.header('Cache-Control', 'no-store').header(TOTAL_COUNT_HEADER, String(page.total)).send(rows);
  });

  app.get('/audit/admins', async (_request, reply) => reply.header('Cache-Control', 'no-store').send(await auditActors(deps())));

  app.get('/audit.csv', { schema: { querystring: auditFiltersSchema } }, async (request, reply) => {
    const { fileName, stream } = auditCsv(deps(), request.query, tFor(requestLingua(request)));
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .type('text/csv; charset=utf-8')
      .send(stream);
  });
}
