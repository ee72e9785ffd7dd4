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
import { forbidden, notFound } from '../../http/errors.js';
import { requireCapability } from '../../http/scope.js';
import { testo } from '../../../shared/i18n/index.js';
import { deskReturnRequestSchema } from '../../../shared/schemas/admin.js';
import { deskPickUp, deskReturn } from './desk-ride.js';
import { defaultSede, reach, scopedList, sedeOf } from './staff-scope.js';
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

/** The admin API (behaviour.md §8), registered under /api/admin: 401 anonymous, 403 non-admin (or outside the staff role, issue 48). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = (): AdminDeps => serviceDeps(app);
  const actor = (request: FastifyRequest): Actor => {
    const user = authenticatedUser(request);
    return { id: user.id, email: user.email, ruolo: 'admin' };
  };
  // onRequest: the role is checked before the body is even parsed or validated. A route a staff
  // role may use names its capability (issue 48): it answers to that role, kept to the person's
  // sedi by the route; every other route (and an unknown path) is the admins' alone.
  app.addHook('onRequest', (request, reply, done) => {
    const capability = request.routeOptions.config.capability;
    if (capability) requireCapability(capability)(request, reply, done);
    else requireAdmin(request, reply, done);
  });

  const context: AdminContext = { deps, actor };
  registerBookingRoutes(app, context);
  registerUserRoutes(app, context);
  registerFleetRoutes(app, context);
  registerRulesRoutes(app, context);
  registerAuditRoutes(app, context);
};

/** The summary, the bookings (list, detail, delete, the desk's booking, pick-up and return, a ride released) and today's waitlists. */
function registerBookingRoutes(app: AdminApp, { deps }: AdminContext): void {
  const prenotazioni = { config: { capability: 'prenotazioni' as const } };
  const banco = { config: { capability: 'banco' as const } };
  // The cards count the person's sedi (issue 48); an admin's, every sede.
  app.get('/summary', prenotazioni, async (request) => adminSummary(deps(), scopedList(request, 'prenotazioni', undefined).sedi));
  // Today's waitlists (issue 21): the windows, how many wait, the offers open now.
  app.get('/attese', { ...prenotazioni, schema: { querystring: sedeFilterQuerySchema } }, async (request) => {
    const scope = scopedList(request, 'prenotazioni', request.query.sedeId);
    const all = await adminWaitlist(deps(), scope.one);
    const finestre = all.finestre.filter((f) => scope.keeps(f.sedeId));
    return {
      ...all,
      finestre,
      inAttesa: finestre.reduce((n, f) => n + f.inAttesa, 0),
      offerteAperte: finestre.reduce((n, f) => n + f.offerteAperte, 0),
    };
  });

  app.get('/prenotazioni', { ...prenotazioni, schema: { querystring: adminBookingsQuerySchema } }, async (request, reply) => {
    const { sedi } = scopedList(request, 'prenotazioni', request.query.sedeId);
    const page = await adminBookings(deps(), { ...request.query, sedi });
    return reply.header(TOTAL_COUNT_HEADER, String(page.total)).send(page.rows);
  });

  // One booking (issue 48): the desk's detail; another sede's is 404.
  app.get('/prenotazioni/:id', { ...prenotazioni, schema: { params: adminIdParamsSchema } }, async (request) => {
    reach(request, 'prenotazioni', await sedeOf.booking(deps().db, request.params.id));
    const page = await adminBookings(deps(), { page: 1, pageSize: 1, q: '', stato: 'tutti', id: request.params.id });
    if (!page.rows[0]) throw notFound(testo('admin.bookingNotFound'));
    return page.rows[0];
  });

  app.delete('/prenotazioni/:id', { ...prenotazioni, schema: { params: adminIdParamsSchema } }, async (request) => {
    const actor = reach(request, 'prenotazioni', await sedeOf.booking(deps().db, request.params.id));
    return deleteBooking(deps(), actor, request.params.id);
  });

  // The desk's booking: the bike's sede must be one of the person's (else 404, as an unknown bike).
  app.post('/prenotazioni', { ...banco, schema: { body: adminBookingRequestSchema } }, async (request, reply) => {
    const bikeSede = await sedeOf.bike(deps().db, request.body.biciId);
    const actor = reach(request, 'banco', bikeSede);
    if (request.body.sedeId !== undefined) reach(request, 'banco', request.body.sedeId);
    return reply.status(201).send(await bookForUser(deps(), actor, request.body));
  });

  // The desk's pick-up and return on the person's behalf (issue 48).
  app.post('/prenotazioni/:id/ritiro', { ...banco, schema: { params: adminIdParamsSchema } }, async (request, reply) => {
    const actor = reach(request, 'banco', await sedeOf.booking(deps().db, request.params.id));
    return reply.header('Cache-Control', 'no-store').send(await deskPickUp(deps(), actor, request.params.id));
  });

  app.post(
    '/prenotazioni/:id/riconsegna',
    { ...banco, schema: { params: adminIdParamsSchema, body: deskReturnRequestSchema } },
    async (request, reply) => {
      const actor = reach(request, 'banco', await sedeOf.booking(deps().db, request.params.id));
      return reply.header('Cache-Control', 'no-store').send(await deskReturn(deps(), actor, request.params.id, request.body ?? {}));
    },
  );

  app.post('/prenotazioni/:id/rilascia', { ...prenotazioni, schema: { params: adminIdParamsSchema } }, async (request) => {
    const actor = reach(request, 'prenotazioni', await sedeOf.booking(deps().db, request.params.id));
    return releaseRide(deps(), actor, request.params.id);
  });
}

/** The users: list, edit, delete, the residents' import, a suspension lifted. */
function registerUserRoutes(app: AdminApp, { deps, actor }: AdminContext): void {
  // Read by the desk too (banco, issue 48): a porter books for a walk-in, who may live at any sede.
  // Changing people stays the admins'.
  app.get('/users', { config: { capability: 'banco' }, schema: { querystring: adminUsersQuerySchema } }, async (request, reply) => {
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
  const biciclette = { config: { capability: 'biciclette' as const } };
  app.get('/biciclette', { ...biciclette, schema: { querystring: sedeFilterQuerySchema } }, async (request) => {
    const scope = scopedList(request, 'biciclette', request.query.sedeId);
    return (await adminBikes(deps(), scope.one)).filter((b) => scope.keeps(b.sedeId));
  });

  // The QR labels to stick on the bikes (issue 34, decision 044): one per bike, A4.
  // With `?sedeId=` (issue 47), one sede's bikes; a staff member's, their sede's (the first of theirs).
  app.get('/biciclette/etichette.pdf', { ...biciclette, schema: { querystring: sedeFilterQuerySchema } }, async (request, reply) => {
    const pdf = await bikeLabelsPdf(deps(), requestLingua(request), defaultSede(request, 'biciclette', request.query.sedeId));
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${BIKE_LABELS_FILE_NAME}"`)
      .type('application/pdf')
      .send(pdf);
  });

  // A bike's state (either role, at its sede); moving it to another sede is the admins' (403).
  app.put('/biciclette/:id', { ...biciclette, schema: { params: adminIdParamsSchema, body: adminBikeUpdateSchema } }, async (request) => {
    const sede = await sedeOf.bike(deps().db, request.params.id);
    const acting = reach(request, 'biciclette', sede);
    const moves = request.body.sedeId !== undefined && request.body.sedeId !== sede;
    if (moves && authenticatedUser(request).ruolo !== 'admin') throw forbidden(testo('staffApi.bikeSedeAdminOnly'));
    return updateBike({ ...deps(), push: app.deps.push }, acting, request.params.id, request.body, requestLingua(request));
  });

  // The bike's lock (issue 34, decision 044): owned by the locks module, audited with the code masked.
  app.put(
    '/biciclette/:id/lucchetto',
    { config: { capability: 'lucchetti' }, schema: { params: adminIdParamsSchema, body: bikeLockUpdateSchema } },
    async (request) => setBikeLock(deps(), reach(request, 'lucchetti', await sedeOf.bike(deps().db, request.params.id)), request.params.id, request.body),
  );

  app.post('/biciclette', { schema: { body: adminBikeCreateSchema } }, async (request, reply) =>
    reply.status(201).send(await createBike(deps(), actor(request), request.body)),
  );

  // Damage reports: the repair tickets' (issue 48) to see and close, at the person's sedi.
  app.get('/danni', { config: { capability: 'interventi' }, schema: { querystring: sedeFilterQuerySchema } }, async (request) => {
    const scope = scopedList(request, 'interventi', request.query.sedeId);
    return (await adminDamages(deps(), scope.one)).filter((d) => scope.keeps(d.sedeId));
  });

  // Resolving marks the ticket `riparata`: the workshop's (riparazioni), as PATCH /api/interventi/{id}.
  app.post('/danni/:id/risolta', { config: { capability: 'riparazioni' }, schema: { params: adminIdParamsSchema } }, async (request) =>
    resolveDamage(deps(), reach(request, 'riparazioni', await sedeOf.damage(deps().db, request.params.id)), request.params.id),
  );

  app.get('/ritardi', { config: { capability: 'prenotazioni' }, schema: { querystring: sedeFilterQuerySchema } }, async (request) => {
    const scope = scopedList(request, 'prenotazioni', request.query.sedeId);
    return (await adminOverdue(deps(), scope.one)).filter((r) => scope.keeps(r.sedeId));
  });
}

/** The service's rules (issue 20, decision 024): the admins'; the sede's own hours are the sedi's, the admins'. */
function registerRulesRoutes(app: AdminApp, { deps, actor }: AdminContext): void {
  app.get('/regole', async () => getRules(deps()));

  app.put('/regole', { schema: { body: rulesUpdateSchema } }, async (request) => updateRules(deps(), actor(request), request.body));

  // A sede's own opening hours (issue 47); null: the install's.
  app.get('/sedi/:id/orari', { schema: { params: sedeIdParamsSchema } }, async (request) => sedeRules.getSedeHours(deps(), request.params.id));

  app.put('/sedi/:id/orari', { schema: { params: sedeIdParamsSchema, body: sedeHoursSchema } }, async (request) =>
    sedeRules.updateSedeHours(deps(), actor(request), request.params.id, request.body),
  );
  registerClosureRoutes(app, deps);
}

/**
 * Closures and planned maintenance (capability `chiusure`, issue 48): a staff member sees and
 * deletes their sedi's, and closes one of their sedi only; a closure of every sede (sede null) is
 * the admins' (403 to make, not seen nor deleted: 404).
 */
function registerClosureRoutes(app: AdminApp, deps: AdminContext['deps']): void {
  const chiusure = { config: { capability: 'chiusure' as const } };
  /** The actor of a closure for `sedeId` (null or absent: every sede, the admins'). */
  const closureActor = (request: FastifyRequest, sedeId: number | null | undefined) => {
    if ((sedeId === null || sedeId === undefined) && authenticatedUser(request).ruolo !== 'admin') {
      throw forbidden(testo('staffApi.closureAllSediAdminOnly'));
    }
    return reach(request, 'chiusure', sedeId ?? null);
  };

  app.get('/chiusure', chiusure, async (request) => {
    const scope = scopedList(request, 'chiusure', undefined);
    return (await listClosures(deps())).filter((c) => scope.keeps(c.sedeId));
  });

  app.post('/chiusure/anteprima', { ...chiusure, schema: { body: closureRequestSchema } }, async (request) => {
    closureActor(request, request.body.sedeId);
    return previewClosure(deps(), request.body);
  });

  app.post('/chiusure', { ...chiusure, schema: { body: closureRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await createClosure(deps(), closureActor(request, request.body.sedeId), request.body)),
  );

  app.delete('/chiusure/:id', { ...chiusure, schema: { params: adminIdParamsSchema } }, async (request) => {
    const sede = await sedeOf.closure(deps().db, request.params.id);
    return deleteClosure(deps(), reach(request, 'chiusure', sede), request.params.id);
  });

  app.get('/manutenzioni', chiusure, async (request) => {
    const scope = scopedList(request, 'chiusure', undefined);
    if (scope.sedi === null) return listMaintenance(deps());
    const [rows, bikes] = await Promise.all([listMaintenance(deps()), sedeOf.bikes(deps().db)]);
    return rows.filter((m) => scope.keeps(bikes.get(m.biciId) ?? null));
  });

  app.post(
    '/biciclette/:id/manutenzioni/anteprima',
    { ...chiusure, schema: { params: adminIdParamsSchema, body: maintenanceRequestSchema } },
    async (request) => {
      reach(request, 'chiusure', await sedeOf.bike(deps().db, request.params.id));
      return previewMaintenance(deps(), request.params.id, request.body);
    },
  );

  app.post(
    '/biciclette/:id/manutenzioni',
    { ...chiusure, schema: { params: adminIdParamsSchema, body: maintenanceRequestSchema } },
    async (request, reply) => {
      const acting = reach(request, 'chiusure', await sedeOf.bike(deps().db, request.params.id));
      return reply.status(201).send(await createMaintenance(deps(), acting, request.params.id, request.body));
    },
  );

  app.delete('/manutenzioni/:id', { ...chiusure, schema: { params: adminIdParamsSchema } }, async (request) =>
    deleteMaintenance(deps(), reach(request, 'chiusure', await sedeOf.maintenance(deps().db, request.params.id)), request.params.id),
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
