import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RackLinkCreated, RackLinkStatus } from '../../../shared/schemas/rack.js';
import { rackSedeBodySchema, rackSedeQuerySchema, rackTokenParamsSchema } from '../../../shared/schemas/rack.js';
import type { FastifyRequest } from 'fastify';
import { authenticatedUser } from '../../http/auth.js';
import { actingRole, listScope, requireCapability } from '../../http/scope.js';
import { notFound } from '../../http/errors.js';
import { createRackLink, liveLinkOf, rackLinkStatus, rackSede, revokeRackLink } from './service.js';
import { testo } from '../../../shared/i18n/index.js';

/**
 * The sede a rack link route is about (issue 48): the asked one, in the person's scope (else 404);
 * none asked, an admin's is the first open sede (rackSede) and a porter's the first of theirs.
 */
function staffSede(request: FastifyRequest, asked: number | undefined): number | undefined {
  const sedi = listScope(request, 'rastrelliera', asked);
  return sedi === null ? undefined : sedi[0];
}

/** Who made or revoked a link, and the role they acted in. */
function actorAt(request: FastifyRequest, sedeId: number) {
  const user = authenticatedUser(request);
  return { id: user.id, email: user.email, ruolo: actingRole(user, 'rastrelliera', sedeId) ?? 'admin' };
}

const invalidLink = () => notFound(testo('rackApi.linkInvalid'), 'RACK_LINK_INVALID');

/**
 * The rack's board (issue 34, decision 044): the admin's link (one live at a time per sede, issue
 * 47) and the board it opens without a login, as JSON and as a stream of server-sent events: the
 * bikes of the link's sede only. The token is the credential (masked in the request log:
 * logger.ts); the answers carry no person. Without `sedeId`, the admin's routes are about the
 * first open sede, as before sedi.
 */
export const rackRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.post(
    '/admin/rastrelliera',
    { onRequest: requireCapability('rastrelliera'), schema: { querystring: rackSedeQuerySchema, body: rackSedeBodySchema } },
    async (request, reply) => {
      const sedeId = await rackSede(db(), staffSede(request, request.body?.sedeId ?? request.query.sedeId));
      const link = await createRackLink(db(), actorAt(request, sedeId), app.deps.clock.now(), sedeId);
      // This process's streams of the old link end now; the others' at the NOTIFY.
      await app.rack.closeStale();
      const body: RackLinkCreated = { url: `${app.deps.config.publicUrl}/rastrelliera/${link.token}`, creatoIl: link.createdAt.toISOString() };
      return reply.status(201).header('Cache-Control', 'no-store').send(body);
    },
  );

  app.get(
    '/admin/rastrelliera',
    { onRequest: requireCapability('rastrelliera'), schema: { querystring: rackSedeQuerySchema } },
    async (request): Promise<RackLinkStatus> => rackLinkStatus(db(), await rackSede(db(), staffSede(request, request.query.sedeId))),
  );

  app.delete('/admin/rastrelliera', { onRequest: requireCapability('rastrelliera'), schema: { querystring: rackSedeQuerySchema } }, async (request, reply) => {
    const sedeId = await rackSede(db(), staffSede(request, request.query.sedeId));
    await revokeRackLink(db(), actorAt(request, sedeId), app.deps.clock.now(), sedeId);
    await app.rack.closeStale();
    return reply.status(204).send();
  });

  app.get('/rastrelliera/:token', { schema: { params: rackTokenParamsSchema } }, async (request, reply) => {
    const link = await liveLinkOf(db(), request.params.token);
    if (link === null) throw invalidLink();
    const board = await app.rack.current(link.sedeId);
    return reply.header('Cache-Control', 'no-store').header('X-Robots-Tag', 'noindex').type('application/json; charset=utf-8').send(board);
  });

  // Not compressed: @fastify/compress would hold the events back to fill its buffers.
  app.get('/rastrelliera/:token/eventi', { schema: { params: rackTokenParamsSchema }, compress: false }, async (request, reply) => {
    const link = await liveLinkOf(db(), request.params.token);
    if (link === null) throw invalidLink();
    const stream = await app.rack.open(link.id, link.sedeId);
    // The tablet gone, Fastify destroys the stream it sends, and the hub forgets it (its `close`).
    return reply
      .header('Cache-Control', 'no-store')
      .header('X-Accel-Buffering', 'no')
      .header('X-Robots-Tag', 'noindex')
      .type('text/event-stream; charset=utf-8')
      .send(stream);
  });
};
