import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { testo } from '../../../shared/i18n/index.js';
import {
  newTicketFieldsSchema,
  ticketIdParamsSchema,
  ticketListQuerySchema,
  ticketNoteFieldsSchema,
  ticketPatchSchema,
  ticketPhotoParamsSchema,
  type TicketDto,
} from '../../../shared/schemas/interventi.js';
import { isStaff } from '../../../shared/staff.js';
import { runTransaction } from '../../db/transaction.js';
import { authenticatedUser, requireUser, type SessionUser } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { listScope, requireCapability } from '../../http/scope.js';
import { noStore, serviceDeps } from '../../http/service-deps.js';
import { encodeAll, MULTIPART_LIMITS, parseFields, readForm } from './multipart.js';
import { tellRepaired, tellTicketOpened, type TicketNoticeDeps } from './notices.js';
import { listTickets, maySee, photoBytes, ticketSummary, visibleTicket, type TicketReader } from './service.js';
import { addNote, openTicket, patchTicket } from './tickets.js';

/** A ticket the user may see, in full; 404 otherwise (as if it did not exist). */
async function shownTicket(db: TicketReader, user: SessionUser, id: number): Promise<TicketDto> {
  const ticket = await visibleTicket(db, user, id);
  if (!ticket) throw notFound(testo('interventiApi.ticketNotFound'));
  return ticket;
}

function noticeDeps(app: FastifyInstance): TicketNoticeDeps {
  const d = serviceDeps(app);
  return { db: d.db, mailer: d.mailer, push: app.deps.push, log: d.log, config: d.config };
}

/**
 * Repair tickets (`Interventi`, issue 48, decision 054). Every route needs a login; the list is
 * the staff's (`interventi`), the changes the workshop's (`riparazioni`), each kept to its sedi
 * (another sede's ticket is 404). Multipart forms are parsed only here (@fastify/multipart,
 * registered in this plugin's scope), every photo re-encoded before the transaction.
 */
export const interventiRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: false });
  const db = () => app.deps.database.db;
  const now = () => app.deps.clock.now();
  // Never cached, but a photo (private, its own header).
  app.addHook('onSend', async (request, reply, payload) => (reply.hasHeader('cache-control') ? payload : noStore(request, reply, payload)));

  app.get('/interventi', { onRequest: requireCapability('interventi'), schema: { querystring: ticketListQuerySchema } }, async (request) => {
    const sedi = listScope(request, 'interventi', request.query.sedeId);
    return listTickets(db(), sedi, request.query);
  });

  app.post('/interventi', { onRequest: requireUser }, async (request, reply) => {
    const user = authenticatedUser(request);
    const form = await readForm(request);
    const fields = parseFields(newTicketFieldsSchema, form.fields, {
      biciId: 'interventiApi.fieldBike',
      categoria: 'interventiApi.fieldCategory',
      descrizione: 'interventiApi.fieldDescription',
    });
    const foto = await encodeAll(form.files);
    const staff = isStaff(user);
    const opened = await runTransaction(db(), (tx) =>
      openTicket(
        tx,
        { ...fields, origine: staff ? 'staff' : 'segnalazione', segnalatoDa: user.id, nonUtilizzabile: false, foto },
        now(),
      ),
    );
    if (!opened) throw notFound(testo('interventiApi.bikeNotFound'));
    await tellTicketOpened(noticeDeps(app), opened.id);
    return reply.status(201).send(await shownTicket(db(), user, opened.id));
  });

  app.get('/interventi/:id', { onRequest: requireUser, schema: { params: ticketIdParamsSchema } }, async (request) =>
    shownTicket(db(), authenticatedUser(request), request.params.id),
  );

  app.patch('/interventi/:id', { onRequest: requireCapability('riparazioni'), schema: { params: ticketIdParamsSchema, body: ticketPatchSchema } }, async (request) => {
    const user = authenticatedUser(request);
    const outcome = await runTransaction(db(), (tx) => patchTicket(tx, user, request.params.id, request.body, now()));
    if (outcome.riparata) await tellRepaired(noticeDeps(app), request.params.id);
    return shownTicket(db(), user, request.params.id);
  });

  app.post('/interventi/:id/note', { onRequest: requireCapability('riparazioni'), schema: { params: ticketIdParamsSchema } }, async (request, reply) => {
    const user = authenticatedUser(request);
    const form = await readForm(request);
    const fields = parseFields(ticketNoteFieldsSchema, form.fields, { testo: 'interventiApi.fieldNote', minuti: 'interventiApi.fieldMinutes' });
    if (fields.testo === '' && form.files.length === 0) throw badRequest(testo('interventiApi.noteEmpty'), 'NOTE_EMPTY');
    const foto = await encodeAll(form.files);
    await runTransaction(db(), (tx) => addNote(tx, user, request.params.id, { testo: fields.testo, minuti: fields.minuti ?? 0, foto }, now()));
    return reply.status(201).send(await shownTicket(db(), user, request.params.id));
  });

  app.get('/interventi/:id/foto/:fotoId', { onRequest: requireUser, schema: { params: ticketPhotoParamsSchema } }, async (request, reply) => {
    const user = authenticatedUser(request);
    const summary = await ticketSummary(db(), request.params.id);
    if (!summary || !maySee(user, summary)) throw notFound(testo('interventiApi.photoNotFound'));
    const photo = await photoBytes(db(), request.params.id, request.params.fotoId);
    if (!photo) throw notFound(testo('interventiApi.photoNotFound'));
    return reply
      .header('content-type', photo.mime)
      .header('cache-control', 'private, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(photo.dati);
  });
};
